package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Pay and launch on the sandbox from the review page: the payment page, the
// launch page stepping three gifts at a time with its progress bar, then
// the billing page with the invoice, its page and its PDF.
func TestPayAndLaunchOnTheSandbox(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	b := h.env.NewBatch(t, owner.principal(), 5)

	res := owner.get("/campaigns/" + b.ID + "?review=1")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `id="pay-and-launch"`)
	key := regexp.MustCompile(`name="idempotencyKey" value="(web-[0-9a-f]+)"`).FindStringSubmatch(res.Body)
	require.NotNil(t, key)
	form := url.Values{"policyVersion": {strconv.FormatInt(b.PolicyVersion, 10)}, "idempotencyKey": {key[1]}}
	res = owner.post("/campaigns/"+b.ID+"/pay", form)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	pay := res.Header.Get("Location")
	require.Regexp(t, `/sandbox/pay/sbx_[0-9a-f]{24}$`, pay)
	again := owner.post("/campaigns/"+b.ID+"/pay", form)
	require.Equal(t, pay, again.Header.Get("Location"), "the same form twice opens one checkout")
	path := strings.TrimPrefix(pay, h.site)

	res = owner.get(path)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `id="sandbox-pay"`)
	res = owner.get("/campaigns/" + b.ID + "/launch")
	require.Contains(t, res.Body, `id="awaiting-payment"`, "nothing is paid before the sandbox says so")

	res = owner.post(path, url.Values{})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/campaigns/"+b.ID+"/launch?done=checkout-paid", res.Header.Get("Location"))
	steps := 0
	for {
		res = owner.get("/campaigns/" + b.ID + "/launch")
		require.Equal(t, http.StatusOK, res.StatusCode)
		if strings.Contains(res.Body, `id="launch-done"`) {
			break
		}
		m := regexp.MustCompile(`name="cursor" value="(\d+)"`).FindStringSubmatch(res.Body)
		require.NotNil(t, m, res.Body)
		require.Contains(t, res.Body, `<progress id="launch-progress" value="`+m[1]+`" max="5">`)
		step := owner.post("/campaigns/"+b.ID+"/launch", url.Values{"cursor": {m[1]}})
		require.Equal(t, http.StatusSeeOther, step.StatusCode, step.Body)
		steps++
		require.Less(t, steps, 5)
	}
	require.Equal(t, 2, steps, "five gifts, three per step")
	require.Contains(t, res.Body, `id="invoice-link"`)

	res = owner.get("/billing")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `id="checkouts"`)
	require.Contains(t, res.Body, "consumed")
	inv := regexp.MustCompile(`href="` + regexp.QuoteMeta(h.site) + `(/billing/invoices/chk_[0-9a-z]+)"`).FindStringSubmatch(res.Body)
	require.NotNil(t, inv, res.Body)
	res = owner.get(inv[1])
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "Person 4")
	require.Regexp(t, `<tbody>\s*<tr><td data-label="#">1</td>`, res.Body, "the invoice's rows are numbered from 1")
	require.NotContains(t, res.Body, `<td data-label="#">0</td>`)
	res = owner.get(inv[1] + "/pdf")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "application/pdf", res.Header.Get("Content-Type"))
	require.True(t, strings.HasPrefix(res.Body, "%PDF-1.4"))

	res = owner.get("/campaigns/" + b.ID)
	require.Contains(t, res.Body, `id="launch-link"`)
}
