package distribution_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// desk is a workspace with one campaign, its signed-in owner and the
// owner's key.
type desk struct {
	t     *testing.T
	env   *apptest.Env
	owner core.Principal
	key   core.Principal
	c     campaign.Campaign
}

// newDesk makes a workspace with an active playbook (gifts made by approval).
func newDesk(t *testing.T) *desk {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	c, err := env.App.Campaigns.CreateCampaign(context.Background(), owner, campaign.CampaignInput{
		Name: "Closed-won thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	env.TopUp(t, owner, 500_000)
	return &desk{t: t, env: env, owner: owner, key: key, c: c}
}

// gift adds a person to the playbook and approves them; it returns the
// recipient and gift IDs.
func (d *desk) gift(in campaign.RecipientInput) (string, string) {
	d.t.Helper()
	ctx := context.Background()
	res, err := d.env.App.Approvals.AddToPlaybook(ctx, d.key, d.c.ID, approval.PlaybookPersonAdd{Recipient: in})
	require.NoError(d.t, err)
	g, err := d.env.App.Approvals.ApproveGift(ctx, d.owner, approval.QueueDecision{CampaignID: d.c.ID, RecipientID: res.RecipientID})
	require.NoError(d.t, err)
	return res.RecipientID, g.ID
}

// revoke revokes a gift's link through the link queries, as revoke_gift_link does.
func (d *desk) revoke(sendID string) {
	d.t.Helper()
	now := d.env.Clock.Now()
	require.NoError(d.t, db.New(d.env.App.DB).GiftLinkRevoke(context.Background(), db.GiftLinkRevokeParams{RevokedAt: &now, SendID: sendID}))
}

// requireCode asserts err is a *core.Error of code naming field.
func requireCode(t *testing.T, err error, code core.Code, field string) {
	t.Helper()
	ce := apptest.RequireCode(t, err, code)
	if field != "" {
		require.Contains(t, ce.Fields, field, ce.Message)
	}
}

// approve approves a waiting playbook person; it returns the recipient and
// gift IDs.
func (d *desk) approve(recipientID string) (string, string) {
	d.t.Helper()
	g, err := d.env.App.Approvals.ApproveGift(context.Background(), d.owner, approval.QueueDecision{CampaignID: d.c.ID, RecipientID: recipientID})
	require.NoError(d.t, err)
	return recipientID, g.ID
}
