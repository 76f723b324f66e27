package giftlink_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// rosterDesk is a workspace with one active playbook (no auto-approve) whose
// people a signed-in owner approves, and the owner's key reading records.
type rosterDesk struct {
	t     *testing.T
	env   *apptest.Env
	owner core.Principal // signed in
	key   core.Principal
	c     campaign.Campaign
}

func newRosterDesk(t *testing.T) *rosterDesk {
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
	env.TopUp(t, owner, 200_000)
	return &rosterDesk{t: t, env: env, owner: owner, key: key, c: c}
}

// person is a roster person n from the crm with a name, company and email.
func person(n string) campaign.RecipientInput {
	return campaign.RecipientInput{Name: "Person " + n, Company: "Co " + n, SourceSystem: "crm", ExternalID: "ext-" + n,
		Email: "p" + n + "@example.com"}
}

// add puts in on the roster (waiting for approval) and returns its ID.
func (d *rosterDesk) add(in campaign.RecipientInput) string {
	d.t.Helper()
	res, err := d.env.App.Approvals.AddToPlaybook(context.Background(), d.key, d.c.ID, approval.PlaybookPersonAdd{Recipient: in})
	require.NoError(d.t, err)
	return res.RecipientID
}

// approve approves a waiting person and returns the gift's ID.
func (d *rosterDesk) approve(recipientID string) string {
	d.t.Helper()
	g, err := d.env.App.Approvals.ApproveGift(context.Background(), d.owner, approval.QueueDecision{CampaignID: d.c.ID, RecipientID: recipientID})
	require.NoError(d.t, err)
	return g.ID
}

// revoke and use set a link's state through the link queries, as the
// link's own writes (revoke_gift_link, the recipient's page) do.
func (d *rosterDesk) revoke(sendID string) {
	d.t.Helper()
	now := d.env.Clock.Now()
	require.NoError(d.t, db.New(d.env.App.DB).GiftLinkRevoke(context.Background(), db.GiftLinkRevokeParams{RevokedAt: &now, SendID: sendID}))
}

func (d *rosterDesk) use(sendID string) {
	d.t.Helper()
	now := d.env.Clock.Now()
	require.NoError(d.t, db.New(d.env.App.DB).GiftLinkUse(context.Background(), db.GiftLinkUseParams{UsedAt: &now, SendID: sendID}))
	_, err := d.env.App.Gifts.MoveGift(context.Background(), gift.GiftMove{SendID: sendID, To: gift.SendReady})
	require.NoError(d.t, err)
}

// regift makes gift sendID another person's, as a regift does.
func (d *rosterDesk) regift(sendID string, to gift.GiftRecipient) {
	d.t.Helper()
	raw, err := json.Marshal(to)
	require.NoError(d.t, err)
	require.NoError(d.t, db.New(d.env.App.DB).SendSetRecipient(context.Background(), db.SendSetRecipientParams{
		Recipient: raw, RecipientName: to.Name, RecipientEmail: to.Email, UpdatedAt: d.env.Clock.Now(), ID: sendID,
	}))
}

// records reads a page with the owner's key.
func (d *rosterDesk) records(q giftlink.RecordsQuery) giftlink.Records {
	d.t.Helper()
	page, err := d.env.App.GiftLinks.Records(context.Background(), d.key, d.c.ID, q)
	require.NoError(d.t, err)
	return page
}

// byRecipient indexes records by recipient_id.
func byRecipient(recs []giftlink.Record) map[string]giftlink.Record {
	m := make(map[string]giftlink.Record, len(recs))
	for _, r := range recs {
		m[r.RecipientID] = r
	}
	return m
}

// recipientIDs lists the records' recipient IDs in order.
func recipientIDs(recs []giftlink.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.RecipientID
	}
	return out
}
