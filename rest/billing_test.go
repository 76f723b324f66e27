package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/giftwell/giftwell/internal/payments"
	"github.com/giftwell/giftwell/internal/stripemock"
	"github.com/giftwell/giftwell/sql/db"
)

// billingFlow is a signed-in owner's REST session over checkout and launch,
// logged as a trimmed transcript (go test -v shows it).
type billingFlow struct {
	t     *testing.T
	h     *harness
	token string
}

func (f billingFlow) call(method, path, body string) response {
	f.t.Helper()
	opts := signedIn(f.h, f.token)
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
		opts = append(opts, withJSON())
	}
	var res response
	if rd != nil {
		res = f.h.do(method, path, rd, opts...)
	} else {
		res = f.h.do(method, path, nil, opts...)
	}
	f.t.Logf("> %s /api/v1%s %s\n< %d %s", method, path, body, res.Status, trim(res.Body))
	return res
}

// trim shortens a body for the transcript.
func trim(b []byte) string {
	s := string(b)
	if len(s) > 4000 {
		s = s[:4000] + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return s
}

// payAndLaunch runs a batch of five from checkout to the last gift: pay is
// how the processor's word arrives.
func payAndLaunch(t *testing.T, h *harness, pay func(checkoutID string)) {
	t.Helper()
	token, owner := h.env.SignIn(t, h.env.OwnerEmail)
	f := billingFlow{t: t, h: h, token: token}
	b := h.env.NewBatch(t, owner, 5)

	res := f.call(http.MethodGet, "/billing/config", "")
	require.Equal(t, http.StatusOK, res.Status)
	require.Equal(t, true, res.data().(jsonObj)["canPay"])
	body := fmt.Sprintf(`{"expectedPolicyVersion":%d,"idempotencyKey":"rest-checkout-1"}`, b.PolicyVersion)
	res = f.call(http.MethodPost, "/campaigns/"+b.ID+"/checkout", body)
	require.Equal(t, http.StatusOK, res.Status)
	chk := res.data().(jsonObj)
	require.Equal(t, "open", chk["state"])
	require.Equal(t, "usd", chk["currency"])
	require.Equal(t, 5.0, chk["recipientCount"])
	id := chk["id"].(string)
	res = f.call(http.MethodPatch, "/campaigns/"+b.ID, `{"name":"Edited while open"}`)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "CHECKOUT_LOCKED", res.code())
	res = f.call(http.MethodPost, "/campaigns/"+b.ID+"/launch?cursor=0", "")
	require.Equal(t, http.StatusConflict, res.Status, "nothing is launched before payment")

	pay(id)
	res = f.call(http.MethodPost, "/billing/checkouts/"+id+"/reconcile", `{}`)
	require.Equal(t, http.StatusOK, res.Status)
	require.Equal(t, "paid", res.data().(jsonObj)["state"])

	cursor, gifts, links := 0, 0, 0
	for {
		res = f.call(http.MethodPost, fmt.Sprintf("/campaigns/%s/launch?cursor=%d", b.ID, cursor), "")
		require.Equal(t, http.StatusOK, res.Status)
		out := res.data().(jsonObj)
		for _, s := range out["sends"].([]any) {
			g := s.(jsonObj)
			require.Equal(t, "checkout", g["fundedBy"])
			gifts++
			if g["giftLinkGeneration"].(float64) == 1 {
				links++
			}
		}
		if out["nextCursor"] == nil {
			break
		}
		cursor = int(out["nextCursor"].(float64))
	}
	require.Equal(t, 5, gifts)
	require.Equal(t, 1, links, "the person who confirms their own address has a gift link")
	res = f.call(http.MethodPost, fmt.Sprintf("/campaigns/%s/launch?cursor=3", b.ID), "")
	require.Len(t, res.data().(jsonObj)["sends"], 2, "the same cursor again returns the same gifts")

	res = f.call(http.MethodGet, "/campaigns/"+b.ID+"/distribution", "")
	require.Equal(t, http.StatusOK, res.Status)
	res = f.call(http.MethodGet, "/billing/checkouts?campaignId="+b.ID, "")
	require.Equal(t, http.StatusOK, res.Status)
	list := res.data().([]any)
	require.Len(t, list, 1)
	require.Equal(t, "consumed", list[0].(jsonObj)["state"])
	require.NotEmpty(t, list[0].(jsonObj)["invoiceUrl"])
	require.NotEmpty(t, list[0].(jsonObj)["invoicePdf"])
	res = f.call(http.MethodGet, "/billing/checkouts/"+id+"/items", "")
	require.Equal(t, http.StatusOK, res.Status)
	require.Len(t, res.data().([]any), 5)
	res = f.call(http.MethodPatch, "/campaigns/"+b.ID, `{"mode":"always_on"}`)
	require.Equal(t, "MODE_LOCKED", res.code())

	// Keys read billing but never pay.
	res = h.get("/billing/config", withKey(h.env.OwnerKey))
	require.Equal(t, false, res.data().(jsonObj)["canPay"])
	res = h.do(http.MethodPost, "/campaigns/"+b.ID+"/checkout", strings.NewReader(body), withKey(h.env.OwnerKey), withJSON())
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	res = h.get("/billing/checkouts?limit=101", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusBadRequest, res.Status)
}

func TestBatchPaidOnTheSandboxOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	payAndLaunch(t, h, func(checkoutID string) {
		row, err := db.New(h.env.App.DB).CheckoutGet(t.Context(), db.CheckoutGetParams{WorkspaceID: h.env.WorkspaceID, ID: checkoutID})
		require.NoError(t, err)
		// The sandbox's page is its word that the payment was made.
		_, err = h.env.App.Billing.PaySandboxCheckout(t.Context(), owner, *row.ProcessorSessionID)
		require.NoError(t, err)
		t.Logf("> POST /sandbox/pay/%s (the sandbox page's Complete test payment)", *row.ProcessorSessionID)
	})
}

func TestBatchPaidOnStripeMockOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.App.Ledger.Payments = payments.NewStripeProcessor(payments.StripeConfig{SecretKey: "sk_test_123", APIBase: stripemock.Start(t), SiteURL: h.site})
	const secret = "whsec_rest_test"
	hook := httptest.NewServer(payments.StripeWebhook{Secret: secret, Events: h.env.App.Billing})
	t.Cleanup(hook.Close)
	payAndLaunch(t, h, func(checkoutID string) {
		row, err := db.New(h.env.App.DB).CheckoutGet(t.Context(), db.CheckoutGetParams{WorkspaceID: h.env.WorkspaceID, ID: checkoutID})
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(row.Url, "https://checkout.stripe.com/"), row.Url)
		ev, err := json.Marshal(map[string]any{"id": "evt_rest_1", "object": "event", "type": "checkout.session.completed", "created": time.Now().Unix(),
			"data": map[string]any{"object": map[string]any{"id": *row.ProcessorSessionID, "object": "checkout.session", "client_reference_id": checkoutID,
				"status": "complete", "payment_status": "paid", "payment_intent": "pi_rest_1"}}})
		require.NoError(t, err)
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: ev, Secret: secret})
		for range 2 { // delivered twice: applied once
			req, err := http.NewRequest(http.MethodPost, hook.URL+"/stripe/webhook", bytes.NewReader(ev))
			require.NoError(t, err)
			req.Header.Set("Stripe-Signature", signed.Header)
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, http.StatusOK, res.StatusCode)
			t.Logf("> POST /stripe/webhook checkout.session.completed %s (Stripe-Signature: t=...,v1=...)\n< %d", *row.ProcessorSessionID, res.StatusCode)
		}
	})
}

func TestCheckoutCancelOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	token, owner := h.env.SignIn(t, h.env.OwnerEmail)
	f := billingFlow{t: t, h: h, token: token}
	b := h.env.NewBatch(t, owner, 2)
	res := f.call(http.MethodPost, "/campaigns/"+b.ID+"/checkout", fmt.Sprintf(`{"expectedPolicyVersion":%d,"idempotencyKey":"rest-cancel-1"}`, b.PolicyVersion))
	require.Equal(t, http.StatusOK, res.Status)
	id := res.data().(jsonObj)["id"].(string)
	res = f.call(http.MethodPost, "/billing/checkouts/"+id+"/cancel", `{}`)
	require.Equal(t, http.StatusOK, res.Status)
	require.Equal(t, "cancelled", res.data().(jsonObj)["state"])
	require.Nil(t, res.data().(jsonObj)["url"])
	again := f.call(http.MethodPost, "/billing/checkouts/"+id+"/cancel", `{}`)
	require.Equal(t, res.data(), again.data())
	res = f.call(http.MethodPatch, "/campaigns/"+b.ID, `{"name":"Edited after cancel"}`)
	require.Equal(t, http.StatusOK, res.Status)
	res = h.do(http.MethodPost, "/billing/checkouts/"+id+"/cancel", strings.NewReader(`{}`), withKey(h.env.OwnerKey), withJSON())
	require.Equal(t, "HUMAN_APPROVAL_REQUIRED", res.code())
	res = f.call(http.MethodPost, "/billing/checkouts/chk_nope/reconcile", `{}`)
	require.Equal(t, http.StatusNotFound, res.Status)
	res = f.call(http.MethodPost, "/campaigns/"+b.ID+"/launch?cursor=-1", "")
	require.Equal(t, http.StatusBadRequest, res.Status)
}
