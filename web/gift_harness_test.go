package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// The typed address of the recipient who confirmed: no page may show it.
const (
	typedStreet = "77 Typed Lane"
	typedCity   = "Typedville"
	typedZip    = "60601"
)

// giftWorld is an active playbook with four people: Ada confirmed her own
// address through her link (typed, never shown), Bea's address was
// supplied by the sender and her gift shipped, Cy's link waits for him,
// and Dee waits in the approval queue.
type giftWorld struct {
	CampaignID          string
	Ada, Bea, Cy        string // gift IDs
	AdaName, BeaAddress string
}

// giftWorld builds the world through core as an agent, an owner and the
// fulfilment staff do; Ada's confirmation is written as the recipient's
// page writes it (address apart from the gift, link used, events).
func (h *harness) giftWorld() giftWorld {
	t := h.t
	t.Helper()
	ctx := context.Background()
	app := h.env.App
	owner := h.ownerPrincipal()
	h.env.TopUp(t, owner, 1_000_000)
	key, err := app.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thank-you gifts", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Sender", SenderCompany: "Acme", Message: "Thanks {{firstName}}!", MonthlyBudgetCents: 10_000_000,
	})
	require.NoError(t, err)
	add := func(in campaign.RecipientInput) string {
		res, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: in})
		require.NoError(t, err)
		return res.RecipientID
	}
	approve := func(recipientID string) gift.Gift {
		g, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: recipientID})
		require.NoError(t, err)
		return g
	}
	w := giftWorld{CampaignID: c.ID, AdaName: "Ada Lovelace", BeaAddress: "1 Sender Street, Springfield, IL 62701"}
	ada := approve(add(campaign.RecipientInput{Name: w.AdaName, Company: "Engines Ltd", Email: "ada@example.com", ExternalID: "crm-ada", SourceSystem: "hubspot"}))
	w.Ada = ada.ID
	bea := approve(add(campaign.RecipientInput{Name: "Bea Brown", AddressMode: gift.AddressKnown,
		Address: "1 Sender Street", City: "Springfield", State: "IL", Zip: "62701"}))
	w.Bea = bea.ID
	w.Cy = approve(add(campaign.RecipientInput{Name: "Cy Young"})).ID
	add(campaign.RecipientInput{Name: "Dee Waiting"})

	h.env.Clock.Advance(time.Minute)
	h.confirmAddress(ada)
	for _, m := range []gift.GiftMove{
		{SendID: w.Ada, To: gift.SendReady},
		{SendID: w.Bea, To: gift.SendInProduction},
		{SendID: w.Bea, To: gift.SendShipped, Carrier: "UPS", TrackingNumber: "1Z999AA10123456784", TrackingURL: "https://ups.example/track/1Z999AA10123456784"},
	} {
		h.env.Clock.Advance(time.Minute)
		_, err := app.Gifts.MoveGift(ctx, m)
		require.NoError(t, err)
	}
	return w
}

// confirmAddress opens g's link and confirms an address as its recipient
// does on their page.
func (h *harness) confirmAddress(g gift.Gift) {
	h.t.Helper()
	ctx := context.Background()
	key, err := h.env.App.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(h.t, err)
	l, err := h.env.App.GiftLinks.SendLink(ctx, key, g.ID)
	require.NoError(h.t, err)
	token := strings.TrimPrefix(l.URL, h.env.SiteURL+"/g/")
	_, err = h.env.App.GiftLinks.Open(ctx, token, "203.0.113.9")
	require.NoError(h.t, err)
	_, err = h.env.App.GiftLinks.Confirm(ctx, token, "203.0.113.9", giftlink.Address{
		Name: g.Recipient.Name, Street: typedStreet, City: typedCity, State: "IL", Zip: typedZip,
	})
	require.NoError(h.t, err)
}

// requireNoTypedAddress checks that a page shows nothing the recipient typed.
func requireNoTypedAddress(t *testing.T, body string) {
	t.Helper()
	for _, s := range []string{typedStreet, typedCity, typedZip} {
		require.NotContains(t, body, s, "an address the recipient typed is never shown")
	}
}
