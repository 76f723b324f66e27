package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// TestStableIdentityOverREST is hardening finding 2 on REST: the same email
// with another externalId is 409 RECIPIENT_IDENTITY_CONFLICT naming the
// field on every roster write, and the documented safe resend then finds
// the original person.
func TestStableIdentityOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	pb, err := h.env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	send := func(method, path, body string) response {
		t.Helper()
		return h.do(method, path, strings.NewReader(body), withJSON(), withKey(h.env.OwnerKey))
	}

	// POST /playbooks/{id}/people: the sequence of the finding.
	people := "/playbooks/" + pb.ID + "/people"
	res := send(http.MethodPost, people, `{"recipient":{"name":"Ida","sourceSystem":"hubspot","externalId":"ida-1","email":"ida@example.com"}}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	ida := res.data().(jsonObj)["recipientId"]
	res = send(http.MethodPost, people, `{"recipient":{"name":"Ida","sourceSystem":"hubspot","externalId":"ida-2","email":"ida@example.com"}}`)
	requireRefused(t, res, http.StatusConflict, "RECIPIENT_IDENTITY_CONFLICT", "recipient.externalId")
	res = send(http.MethodPost, people, `{"recipient":{"sourceSystem":"hubspot","externalId":"ida-1"}}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, true, res.data().(jsonObj)["alreadyQueued"])
	require.Equal(t, ida, res.data().(jsonObj)["recipientId"])
	roster := send(http.MethodGet, "/campaigns/"+pb.ID, "").data().(jsonObj)["recipients"].([]any)
	require.Len(t, roster, 1)
	require.Equal(t, "ida-1", roster[0].(jsonObj)["externalId"])

	// POST /campaigns/{id}/recipients and PATCH /campaigns/{id} on a batch.
	res = send(http.MethodPost, "/campaigns", `{"name":"Q3","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A","budgetCents":90000,"perPersonCents":9000,"maxSends":10,
		"recipients":[{"name":"Ida","sourceSystem":"hubspot","externalId":"ida-1","email":"ida@example.com"}]}`)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	batch := res.data().(jsonObj)["id"].(string)
	res = send(http.MethodPost, "/campaigns/"+batch+"/recipients", `{"expectedPolicyVersion":1,"recipients":[{"name":"Ida","sourceSystem":"hubspot","externalId":"ida-2","email":"ida@example.com"}]}`)
	requireRefused(t, res, http.StatusConflict, "RECIPIENT_IDENTITY_CONFLICT", "recipients[0].externalId")
	res = send(http.MethodPatch, "/campaigns/"+batch, `{"expectedPolicyVersion":1,"recipients":[{"email":"ida@example.com","sourceSystem":"salesforce","externalId":"ida-1"}]}`)
	requireRefused(t, res, http.StatusConflict, "RECIPIENT_IDENTITY_CONFLICT", "recipients[0].sourceSystem")
	res = send(http.MethodPost, "/campaigns/"+batch+"/recipients", `{"expectedPolicyVersion":1,"recipients":[{"sourceSystem":"hubspot","externalId":"ida-1"}]}`)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Empty(t, res.data().(jsonObj)["added"])
	require.Len(t, res.data().(jsonObj)["skipped"], 1)
}
