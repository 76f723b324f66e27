package giftlink_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestLinkMadeWithConfirmGiftStoredOnlyAsHash(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id := d.gift("Ada Lovelace")
	known := d.knownGift("Bob Known")

	g, err := d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, gift.SendAwaitingAddress, g.Status)
	require.Equal(t, 1, g.GiftLinkGeneration)
	k, err := d.env.App.Gifts.Get(ctx, d.key, known)
	require.NoError(t, err)
	require.Equal(t, 0, k.GiftLinkGeneration, "a sender-supplied address needs no link")

	links, err := d.env.App.GiftLinks.CampaignLinks(ctx, d.key, d.campaign)
	require.NoError(t, err)
	require.Len(t, links, 1)
	l := links[0]
	require.Equal(t, id, l.SendID)
	require.Equal(t, giftlink.LinkActive, l.LinkState)
	require.Equal(t, 1, l.Generation)
	require.Equal(t, 1, l.MessageVersion)
	require.Equal(t, apptest.Epoch.Add(14*24*time.Hour), l.ExpiresAt.UTC())
	require.True(t, l.CanRegift)
	require.False(t, l.CanRequestRefund)
	require.Equal(t, "Sam Seller", l.SenderName)
	require.Equal(t, giftlink.DefaultLandingMessage, l.LandingMessage)
	require.True(t, strings.HasPrefix(l.URL, d.env.SiteURL+"/g/"), l.URL)
	token := strings.TrimPrefix(l.URL, d.env.SiteURL+"/g/")
	require.Len(t, token, 43, "256 bits, base64url")
	require.Equal(t, l.URL, d.link(id).URL, "the link reads the same again")

	// The database holds the token's hash, never the token.
	var stored []byte
	require.NoError(t, d.env.App.DB.QueryRow(ctx, `SELECT token_hash FROM gift_link_tokens WHERE send_id = $1`, id).Scan(&stored))
	require.Equal(t, core.GiftLinkTokenHash(token), stored)
	var dump string
	require.NoError(t, d.env.App.DB.QueryRow(ctx,
		`SELECT concat_ws('|', (SELECT string_agg(l::text, '|') FROM gift_links l), (SELECT string_agg(s::text, '|') FROM sends s),
		        (SELECT string_agg(e::text, '|') FROM events e))`).Scan(&dump))
	require.NotContains(t, dump, token)

	_, err = d.env.App.GiftLinks.SendLink(ctx, d.key, known)
	apptest.RequireCode(t, err, core.CodeNotFound)
	// A connection with gifts:links:read may read links; other workspaces see nothing.
	other := apptest.NewWorkspace(t, d.env.App, apptest.WorkspaceOptions{})
	stranger, err := d.env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	_, err = d.env.App.GiftLinks.SendLink(ctx, stranger, id)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = d.env.App.GiftLinks.CampaignLinks(ctx, stranger, d.campaign)
	apptest.RequireCode(t, err, core.CodeNotFound)
}

func TestCustomizeMessage(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id := d.gift("Ada Lovelace")
	links := d.env.App.GiftLinks
	msg := "Hello {{firstName}} from {{company}}: <b>literal</b>"

	l, err := links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 1, Message: &msg})
	require.NoError(t, err)
	require.Equal(t, 2, l.MessageVersion)
	require.Equal(t, msg, l.LandingMessage)
	require.Equal(t, 1, d.events(id, core.EventSendGiftLinkChanged))

	// A stale version or generation changes nothing.
	_, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 1, Message: &msg})
	require.Contains(t, apptest.RequireCode(t, err, core.CodeGiftLinkConflict).Fields, "expectedMessageVersion")
	_, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 2, ExpectedMessageVersion: 2, Message: &msg})
	require.Contains(t, apptest.RequireCode(t, err, core.CodeGiftLinkConflict).Fields, "generation")

	brand := giftlink.Branding{SenderName: "Grace", SenderCompany: "Navy", ContactEmail: "grace@example.com"}
	l, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 2, Branding: &brand})
	require.NoError(t, err)
	require.Equal(t, "Grace", l.SenderName)
	require.Equal(t, "grace@example.com", l.ContactEmail)
	require.Equal(t, msg, l.LandingMessage, "a branding change keeps the message")
	empty := ""
	l, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 3, Message: &empty})
	require.NoError(t, err)
	require.Equal(t, giftlink.DefaultLandingMessage, l.LandingMessage, "an empty message restores the default")
	require.Equal(t, 4, l.MessageVersion)

	long := strings.Repeat("x", 501)
	exact := strings.Repeat("x", 500) + "{{name}}"
	custom := "Hi {{custom}}"
	for _, tc := range []struct {
		name  string
		ch    giftlink.MessageChange
		field string
	}{
		{"too long", giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4, Message: &long}, "message"},
		{"not a link placeholder", giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4, Message: &custom}, "message"},
		{"nothing to change", giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4}, "message"},
		{"no generation", giftlink.MessageChange{ExpectedMessageVersion: 4, Message: &msg}, "generation"},
		{"no version", giftlink.MessageChange{Generation: 1, Message: &msg}, "expectedMessageVersion"},
		{"incomplete branding", giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4, Branding: &giftlink.Branding{SenderName: "A"}}, "branding.senderCompany"},
		{"bad contact", giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4, Branding: &giftlink.Branding{SenderName: "A", SenderCompany: "B", ContactEmail: "nope"}}, "branding.contactEmail"},
		{"not a logo ID", giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4, Branding: &giftlink.Branding{SenderName: "A", SenderCompany: "B", LogoAssetID: "logo.png"}}, "branding.logoAssetId"},
	} {
		_, err := links.CustomizeMessage(ctx, d.key, id, tc.ch)
		require.Equal(t, []string{tc.field}, apptest.RequireCode(t, err, core.CodeValidation).Fields, tc.name)
	}
	// A logo is a ready image of this workspace.
	_, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4,
		Branding: &giftlink.Branding{SenderName: "A", SenderCompany: "B", LogoAssetID: "asset_123"}})
	require.Equal(t, []string{"branding.logoAssetId"}, apptest.RequireCode(t, err, core.CodeArtworkUnavailable).Fields)
	l, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 4, Message: &exact})
	require.NoError(t, err, "500 characters besides placeholders are fine")
	require.Equal(t, 5, l.MessageVersion)
	logo := d.env.ReadyArtwork(t, "logo")
	l, err = links.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 5,
		Branding: &giftlink.Branding{SenderName: "A", SenderCompany: "B", LogoAssetID: logo}})
	require.NoError(t, err, "a ready logo of the workspace")
	require.Equal(t, logo, l.LogoAssetID)

	hist, err := links.CampaignInvitations(ctx, d.key, d.campaign)
	require.NoError(t, err)
	require.Len(t, hist.History, 5)
	require.Equal(t, exact, hist.History[0].LandingMessage, "newest first; the logo change kept the message")
	require.Equal(t, "Sam Seller", hist.Defaults.SenderName)
	require.Equal(t, giftlink.DefaultLandingMessage, hist.Defaults.LandingMessage)
}

func TestCustomizeCampaignLinksAllOrNothing(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	a, b, c := d.gift("Ada One"), d.gift("Bea Two"), d.gift("Cy Three")
	links := d.env.App.GiftLinks
	msg := "Welcome, {{name}}"
	refs := []giftlink.LinkRef{{SendID: a, Generation: 1, ExpectedMessageVersion: 1}, {SendID: b, Generation: 1, ExpectedMessageVersion: 1},
		{SendID: c, Generation: 1, ExpectedMessageVersion: 7}}

	_, err := links.CustomizeCampaignLinks(ctx, d.key, d.campaign, giftlink.CampaignMessageChange{Message: &msg, Links: refs})
	require.Equal(t, []string{"links[2].expectedMessageVersion"}, apptest.RequireCode(t, err, core.CodeGiftLinkConflict).Fields)
	for _, id := range []string{a, b, c} {
		require.Equal(t, 1, d.link(id).MessageVersion, "nothing changed")
	}

	refs[2].ExpectedMessageVersion = 1
	out, err := links.CustomizeCampaignLinks(ctx, d.key, d.campaign, giftlink.CampaignMessageChange{Message: &msg, Links: refs})
	require.NoError(t, err)
	require.Len(t, out, 3)
	for i, l := range out {
		require.Equal(t, refs[i].SendID, l.SendID, "in the order given")
		require.Equal(t, msg, l.LandingMessage)
		require.Equal(t, 2, l.MessageVersion)
	}

	many := make([]giftlink.LinkRef, giftlink.MaxLinks+1)
	for i := range many {
		many[i] = giftlink.LinkRef{SendID: "send_" + core.RandomHex(12), Generation: 1, ExpectedMessageVersion: 1}
	}
	_, err = links.CustomizeCampaignLinks(ctx, d.key, d.campaign, giftlink.CampaignMessageChange{Message: &msg, Links: many})
	require.Equal(t, []string{"links"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	twice := []giftlink.LinkRef{{SendID: a, Generation: 1, ExpectedMessageVersion: 2}, {SendID: a, Generation: 1, ExpectedMessageVersion: 2}}
	_, err = links.CustomizeCampaignLinks(ctx, d.key, d.campaign, giftlink.CampaignMessageChange{Message: &msg, Links: twice})
	require.Equal(t, []string{"links[1].sendId"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	unknown := []giftlink.LinkRef{{SendID: a, Generation: 1, ExpectedMessageVersion: 2}, {SendID: "send_nope", Generation: 1, ExpectedMessageVersion: 1}}
	_, err = links.CustomizeCampaignLinks(ctx, d.key, d.campaign, giftlink.CampaignMessageChange{Message: &msg, Links: unknown})
	require.Equal(t, []string{"links[1].sendId"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)
	require.Equal(t, 2, d.link(a).MessageVersion, "all or nothing")
}

func TestRegiftMakesNewLinkAndKillsOld(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id := d.gift("Ada Lovelace")
	before := d.link(id)
	d.env.Clock.Advance(3 * 24 * time.Hour)

	l, err := d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{
		Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Grace Hopper", Email: "Grace@Example.com", Company: "Navy"},
	})
	require.NoError(t, err)
	require.Equal(t, 2, l.Generation)
	require.Equal(t, 2, l.MessageVersion)
	require.Equal(t, giftlink.LinkActive, l.LinkState)
	require.NotEqual(t, before.URL, l.URL)
	require.Equal(t, d.env.Clock.Now().Add(14*24*time.Hour), l.ExpiresAt.UTC(), "a new 14 days")
	require.Equal(t, "Grace Hopper", l.RecipientName)

	g, err := d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, 2, g.GiftLinkGeneration)
	require.Equal(t, "Grace Hopper", g.Recipient.Name)
	require.Equal(t, "grace@example.com", g.Recipient.Email)
	require.Equal(t, gift.SendAwaitingAddress, g.Status, "the payment and the gift stay")
	d.env.RequireLedgerConsistent(t, d.owner)

	// Both tokens are known; the old one belongs to an older generation.
	var gens []int32
	rows, err := d.env.App.DB.Query(ctx, `SELECT generation FROM gift_link_tokens WHERE send_id = $1 ORDER BY generation`, id)
	require.NoError(t, err)
	for rows.Next() {
		var g int32
		require.NoError(t, rows.Scan(&g))
		gens = append(gens, g)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []int32{1, 2}, gens)

	_, err = d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Again"}})
	require.Equal(t, []string{"generation"}, apptest.RequireCode(t, err, core.CodeGiftLinkConflict).Fields)
	_, err = d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{Generation: 2})
	require.Equal(t, []string{"recipient.name"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	_, err = d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{Generation: 2, Recipient: giftlink.RegiftRecipient{Name: "X", Email: "bad"}})
	require.Equal(t, []string{"recipient.email"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)

	// A paused campaign still regifts; a completed one does not.
	c, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, d.campaign)
	require.NoError(t, err)
	c, err = d.env.App.Campaigns.UpdateCampaign(ctx, d.key, d.campaign, campaign.CampaignPatch{
		Status: apptest.Ptr(campaign.StatusPaused), ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	_, err = d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{Generation: 2, Recipient: giftlink.RegiftRecipient{Name: "Paused Pat"}})
	require.NoError(t, err)
	_, err = d.env.App.Campaigns.UpdateCampaign(ctx, d.key, d.campaign, campaign.CampaignPatch{
		Status: apptest.Ptr(campaign.StatusCompleted), ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	_, err = d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{Generation: 3, Recipient: giftlink.RegiftRecipient{Name: "Late Lee"}})
	require.Equal(t, []string{"sendId"}, apptest.RequireCode(t, err, core.CodeInvalidRequestState).Fields)
	require.False(t, d.link(id).CanRegift)
}

func TestConcurrentRegiftsExactlyOneWins(t *testing.T) {
	d := newLinkDesk(t)
	id := d.gift("Ada Lovelace")
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = d.env.App.GiftLinks.Regift(context.Background(), d.key, id, giftlink.Regift{
				Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Racer " + string(rune('A'+i))},
			})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
			continue
		}
		apptest.RequireCode(t, err, core.CodeGiftLinkConflict)
	}
	require.Equal(t, 1, won)
	require.Equal(t, 2, d.link(id).Generation)
	require.Equal(t, 1, d.events(id, core.EventSendGiftLinkChanged))
}

func TestRevokeStopsLinkWithoutRefund(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id := d.gift("Ada Lovelace")
	balance := d.env.RequireLedgerConsistent(t, d.owner)

	l, err := d.env.App.GiftLinks.Revoke(ctx, d.key, id, 1)
	require.NoError(t, err)
	require.Equal(t, giftlink.LinkRevoked, l.LinkState)
	require.Empty(t, l.URL)
	require.True(t, l.CanRegift, "a revoked gift can go to someone else")
	require.True(t, l.CanRequestRefund)
	require.Equal(t, giftlink.RefundNone, l.RefundState)
	again, err := d.env.App.GiftLinks.Revoke(ctx, d.key, id, 1)
	require.NoError(t, err, "revoking twice changes nothing")
	require.Equal(t, l, again)
	require.Equal(t, 1, d.events(id, core.EventSendGiftLinkChanged))
	require.Len(t, d.env.RequireLedgerConsistent(t, d.owner), len(balance), "no credit")

	_, err = d.env.App.GiftLinks.Revoke(ctx, d.key, id, 2)
	require.Equal(t, []string{"generation"}, apptest.RequireCode(t, err, core.CodeGiftLinkConflict).Fields)
	_, err = d.env.App.GiftLinks.Revoke(ctx, d.key, id, 0)
	require.Equal(t, []string{"generation"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)

	l, err = d.env.App.GiftLinks.Regift(ctx, d.key, id, giftlink.Regift{Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Grace"}})
	require.NoError(t, err)
	require.Equal(t, giftlink.LinkActive, l.LinkState)
	require.NotEmpty(t, l.URL)
}

func TestExpiredLinksEndTheirGiftsWithoutCredit(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id, other := d.gift("Ada Lovelace"), d.gift("Bea Later")
	entries := len(d.env.RequireLedgerConsistent(t, d.owner))

	d.env.Clock.Advance(10 * 24 * time.Hour)
	_, err := d.env.App.GiftLinks.Regift(ctx, d.key, other, giftlink.Regift{Generation: 1, Recipient: giftlink.RegiftRecipient{Name: "Fresh Fay"}})
	require.NoError(t, err)
	d.env.Clock.Advance(4*24*time.Hour + time.Second)

	l := d.link(id)
	require.Equal(t, giftlink.LinkExpired, l.LinkState, "past its end before the sweep")
	require.Empty(t, l.URL)
	require.False(t, l.CanRegift)
	require.True(t, l.CanRequestRefund)
	msg := "late"
	_, err = d.env.App.GiftLinks.CustomizeMessage(ctx, d.key, id, giftlink.MessageChange{Generation: 1, ExpectedMessageVersion: 1, Message: &msg})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	ended, err := d.env.App.GiftLinks.ExpireLinks(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, ended, "the regifted link has days left")
	again, err := d.env.App.GiftLinks.ExpireLinks(ctx)
	require.NoError(t, err)
	require.Zero(t, again)
	g, err := d.env.App.Gifts.Get(ctx, d.key, id)
	require.NoError(t, err)
	require.Equal(t, gift.SendExpired, g.Status)
	require.Equal(t, 1, d.events(id, core.EventSendStatusChanged))
	require.Equal(t, giftlink.LinkActive, d.link(other).LinkState)
	require.Len(t, d.env.RequireLedgerConsistent(t, d.owner), entries, "expiry credits nothing")
}

func TestAddMissingLinks(t *testing.T) {
	d := newLinkDesk(t)
	ctx := context.Background()
	id := d.gift("Ada Lovelace")
	_, err := d.env.App.DB.Exec(ctx, `DELETE FROM gift_links WHERE send_id = $1`, id)
	require.NoError(t, err)
	_, err = d.env.App.DB.Exec(ctx, `UPDATE sends SET gift_link_generation = 0 WHERE id = $1`, id)
	require.NoError(t, err)

	n, err := d.env.App.GiftLinks.AddMissingLinks(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, giftlink.LinkActive, d.link(id).LinkState)
	n, err = d.env.App.GiftLinks.AddMissingLinks(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
}
