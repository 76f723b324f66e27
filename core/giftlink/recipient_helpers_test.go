package giftlink_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
)

// linkGifts is a test workspace whose owner runs a playbook and approves
// gifts for people who confirm their own address.
type linkGifts struct {
	t        *testing.T
	env      *apptest.Env
	owner    core.Principal // signed in
	key      core.Principal
	campaign string
}

func newLinkGifts(t *testing.T) *linkGifts {
	t.Helper()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	env.TopUp(t, owner, 1_000_000)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thank-you gifts", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme & Co", Message: "Thanks for the chat, {{firstName}}!", MonthlyBudgetCents: 10_000_000,
		Customization: map[string]string{
			campaign.CustomizationWelcome:      "Hello {{firstName}} at {{company}}: <b>a gift</b> for you.",
			campaign.CustomizationContactEmail: "gifts@acme.example",
		},
	})
	require.NoError(t, err)
	return &linkGifts{t: t, env: env, owner: owner, key: key, campaign: c.ID}
}

// gift approves a balance-paid gift for person n, who confirms their own
// address, and returns the gift's ID and its link's token.
func (g *linkGifts) gift(n string) (sendID, token string) {
	g.t.Helper()
	ctx := context.Background()
	res, err := g.env.App.Approvals.AddToPlaybook(ctx, g.key, g.campaign, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Ada Lovelace " + n, Company: "Analytical " + n, Email: "ada-" + n + "@example.com",
		SourceSystem: "crm", ExternalID: "ext-" + n, AddressMode: gift.AddressConfirm,
	}})
	require.NoError(g.t, err)
	sent, err := g.env.App.Approvals.ApproveGift(ctx, g.owner, approval.QueueDecision{CampaignID: g.campaign, RecipientID: res.RecipientID})
	require.NoError(g.t, err)
	require.Equal(g.t, gift.SendAwaitingAddress, sent.Status)
	return sent.ID, g.token(sent.ID)
}

// token is the token of gift sendID's active link, read as an agent reads
// the link.
func (g *linkGifts) token(sendID string) string {
	g.t.Helper()
	l, err := g.env.App.GiftLinks.SendLink(context.Background(), g.owner, sendID)
	require.NoError(g.t, err)
	require.NotEmpty(g.t, l.URL)
	token, ok := strings.CutPrefix(l.URL, g.env.SiteURL+"/g/")
	require.True(g.t, ok, "link %s", l.URL)
	return token
}

// events are the types of gift sendID's events, in order.
func (g *linkGifts) events(sendID string) []core.EventType {
	g.t.Helper()
	evs := g.env.GiftEvents(g.t, sendID)
	out := make([]core.EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// eventData is the data of gift sendID's events of type t.
func (g *linkGifts) eventData(sendID string, t core.EventType) []map[string]any {
	g.t.Helper()
	evs := g.env.GiftEvents(g.t, sendID)
	var out []map[string]any
	for _, e := range evs {
		if e.Type == t {
			var m map[string]any
			require.NoError(g.t, json.Unmarshal(e.Data, &m))
			out = append(out, m)
		}
	}
	return out
}

// credits are the ledger credits for gift sendID.
func (g *linkGifts) credits(sendID string) int {
	g.t.Helper()
	n := 0
	for _, e := range g.env.RequireLedgerConsistent(g.t, g.owner) {
		if e.Kind == ledger.LedgerCredit && e.SendID != nil && *e.SendID == sendID {
			n++
		}
	}
	return n
}

// goodAddress is an address every check accepts.
func goodAddress() giftlink.Address {
	return giftlink.Address{Name: "Ada Lovelace", Street: "12 Byron Way", Street2: "Apt 3", City: "Springfield", State: "illinois", Zip: "627011234"}
}

const ip = "203.0.113.7"
