package web_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/sql/db"
)

// The launch page is any signed-in person's, as launch_campaign is: a
// member sees a paid campaign's launch and prepares its gifts.
func TestLaunchPageForASignedInMember(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	b := h.env.NewBatch(t, owner.principal(), 2)
	app := h.env.App
	c, err := app.Billing.CreateCampaignCheckout(ctx, owner.principal(), b.ID, billing.CheckoutParams{ExpectedPolicyVersion: b.PolicyVersion, IdempotencyKey: "member-launch-key"})
	require.NoError(t, err)
	row, err := db.New(app.DB).CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: h.env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	require.NotNil(t, row.ProcessorSessionID)
	_, err = app.Billing.PaySandboxCheckout(ctx, owner.principal(), *row.ProcessorSessionID)
	require.NoError(t, err)

	member := h.env.AddPerson(t, core.RoleMember)
	m := h.client()
	m.signIn(member.Email)
	res := m.get("/campaigns/" + b.ID + "/launch")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `name="cursor" value="0"`)
	step := m.post("/campaigns/"+b.ID+"/launch", url.Values{"cursor": {"0"}})
	require.Equal(t, http.StatusSeeOther, step.StatusCode, step.Body)
	res = m.get("/campaigns/" + b.ID + "/launch")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `id="launch-done"`)
}
