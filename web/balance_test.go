package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
)

var idempotencyKeyPattern = regexp.MustCompile(`name="idempotencyKey" value="([^"]+)"`)

// TestTopUpThroughTheSandboxPage tops up end to end: the balance page's
// form, the sandbox payment page and its button, and back to the balance.
func TestTopUpThroughTheSandboxPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.get("/balance")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "TEST MODE")
	require.Contains(t, res.Body, `data-cents="0"`)
	require.Contains(t, res.Body, "No entries yet.")
	m := idempotencyKeyPattern.FindStringSubmatch(res.Body)
	require.NotNil(t, m, res.Body)
	key := m[1]

	// A bad amount is named next to its field and opens nothing.
	res = owner.post("/balance/topup", url.Values{"amount": {"10"}, "idempotencyKey": {key}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "amount-error")
	require.Contains(t, html.UnescapeString(res.Body), "$25.00")
	// 25,00 is not $2,500.00: the comma stands where cents go.
	res = owner.post("/balance/topup", url.Values{"amount": {"25,00"}, "idempotencyKey": {key}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, html.UnescapeString(res.Body), "Use a dot for cents, like 250.00")

	res = owner.post("/balance/topup", url.Values{"amount": {"$250.50"}, "idempotencyKey": {key}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	payURL := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(payURL, h.site+"/sandbox/pay/sbx_"), payURL)
	// Sending the same form again opens the same payment.
	again := owner.post("/balance/topup", url.Values{"amount": {"250.50"}, "idempotencyKey": {key}})
	require.Equal(t, payURL, again.Header.Get("Location"))

	payPath := strings.TrimPrefix(payURL, h.site)
	res = owner.get(payPath)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "Test payment — no money moves")
	require.Contains(t, res.Body, "$250.50")
	require.Contains(t, res.Body, "Complete test payment")

	// A member, who may not pay, can neither see nor complete it.
	memberEmail, _ := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(memberEmail)
	require.Equal(t, http.StatusForbidden, member.get(payPath).StatusCode)
	require.Equal(t, http.StatusForbidden, member.post(payPath, nil).StatusCode)
	res = member.get("/balance")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NotContains(t, res.Body, `action="/balance/topup"`)

	for range 2 {
		res = owner.post(payPath, nil)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		require.Equal(t, "/balance?done=topup-paid", res.Header.Get("Location"))
	}
	res = owner.get("/balance?done=topup-paid")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "The payment is complete")
	require.Contains(t, res.Body, `data-cents="25050"`)
	require.Contains(t, res.Body, "Top-up")
	res = owner.get(payPath)
	require.Contains(t, res.Body, "This test payment is complete")

	b, err := h.env.App.Approvals.Balance(context.Background(), owner.principal())
	require.NoError(t, err)
	require.Equal(t, int64(25_050), b.Cents, "paid twice, credited once")
	ledger, err := h.env.App.Ledger.Ledger(context.Background(), owner.principal(), ledger.DefaultLedgerLimit)
	require.NoError(t, err)
	require.Len(t, ledger, 1)
}
