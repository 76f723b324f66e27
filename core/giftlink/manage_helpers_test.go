package giftlink_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// linkDesk is a workspace whose signed-in owner approves playbook gifts
// whose recipients confirm their own address, and whose key manages links.
type linkDesk struct {
	t        *testing.T
	env      *apptest.Env
	owner    core.Principal // signed in
	key      core.Principal
	campaign string
}

func newLinkDesk(t *testing.T) *linkDesk {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	env.TopUp(t, owner, 1_000_000)
	c, err := env.App.Campaigns.CreateCampaign(context.Background(), owner, campaign.CampaignInput{
		Name: "Links", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: 10_000_000,
	})
	require.NoError(t, err)
	return &linkDesk{t: t, env: env, owner: owner, key: key, campaign: c.ID}
}

// gift approves a person who confirms their own address (mode confirm)
// and returns the gift's ID.
func (d *linkDesk) gift(name string) string {
	return d.giftWith(campaign.RecipientInput{Name: name, Company: "Initech", Email: core.RandomHex(4) + "@example.com"})
}

// knownGift approves a person whose address the sender supplied.
func (d *linkDesk) knownGift(name string) string {
	return d.giftWith(campaign.RecipientInput{
		Name: name, Email: core.RandomHex(4) + "@example.com", AddressMode: gift.AddressKnown,
		Address: "1 Main St", City: "Springfield", State: "IL", Zip: "62701",
	})
}

func (d *linkDesk) giftWith(r campaign.RecipientInput) string {
	d.t.Helper()
	ctx := context.Background()
	res, err := d.env.App.Approvals.AddToPlaybook(ctx, d.key, d.campaign, approval.PlaybookPersonAdd{Recipient: r})
	require.NoError(d.t, err)
	g, err := d.env.App.Approvals.ApproveGift(ctx, d.owner, approval.QueueDecision{CampaignID: d.campaign, RecipientID: res.RecipientID})
	require.NoError(d.t, err)
	return g.ID
}

// link reads gift sendID's link with the key.
func (d *linkDesk) link(sendID string) giftlink.Link {
	d.t.Helper()
	l, err := d.env.App.GiftLinks.SendLink(context.Background(), d.key, sendID)
	require.NoError(d.t, err)
	return l
}

// events counts the workspace's events of type t for gift sendID.
func (d *linkDesk) events(sendID string, t core.EventType) int {
	d.t.Helper()
	var n int
	require.NoError(d.t, d.env.App.DB.QueryRow(context.Background(),
		`SELECT count(*) FROM events WHERE send_id = $1 AND type = $2`, sendID, string(t)).Scan(&n))
	return n
}
