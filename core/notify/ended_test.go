package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/notify"
)

// giftFor approves a gift for person n of playbook id, who confirms their
// own address, and returns its link's token.
func (d *desk) giftFor(id, n string) string {
	d.t.Helper()
	ctx := context.Background()
	res, err := d.env.App.Approvals.AddToPlaybook(ctx, d.key, id, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Ada " + n, Company: "Analytical", Email: "ada-" + n + "@example.com",
		SourceSystem: "crm", ExternalID: "ada-" + n, AddressMode: gift.AddressConfirm,
	}})
	require.NoError(d.t, err)
	sent, err := d.env.App.Approvals.ApproveGift(ctx, d.owner, approval.QueueDecision{CampaignID: id, RecipientID: res.RecipientID})
	require.NoError(d.t, err)
	l, err := d.env.App.GiftLinks.SendLink(ctx, d.owner, sent.ID)
	require.NoError(d.t, err)
	token, ok := strings.CutPrefix(l.URL, d.env.SiteURL+"/g/")
	require.True(d.t, ok, l.URL)
	return token
}

// A gift declined by its recipient is emailed to the campaign's owner once
// they chose it (it is off by default), and to nobody else.
func TestDeclineEmailsTheOwnerWhoChoseIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newDesk(t)
	d.sign(core.RoleAdmin)
	d.env.TopUp(t, d.owner, 1_000_000)
	pb := d.playbook("Thank-you gifts", 0)

	_, err := d.env.App.GiftLinks.Decline(ctx, d.giftFor(pb.ID, "1"), "192.0.2.7")
	require.NoError(t, err)
	d.work()
	require.Empty(t, d.newEmails(), "off by default")

	_, err = d.env.App.Notify.SetChoices(ctx, d.owner, []notify.Kind{notify.KindWaiting, notify.KindDeclinedExpired})
	require.NoError(t, err)
	d.later(40 * time.Second) // the next slot
	_, err = d.env.App.GiftLinks.Decline(ctx, d.giftFor(pb.ID, "2"), "192.0.2.7")
	require.NoError(t, err)
	d.work()
	emails := d.newEmails()
	require.Len(t, emails, 1)
	e := emails[0]
	require.Equal(t, d.env.OwnerEmail, e.ToAddress)
	require.Equal(t, "1 gift declined on Thank-you gifts", e.Subject)
	require.Contains(t, e.Body, "Ada 2 declined their gift")
	require.NotContains(t, e.Body, "Ada 1", "told once: the first decline went before the choice")
	require.Contains(t, e.Body, d.env.App.Config.CampaignURL(pb.ID))
	d.deliver()
}

// The unsubscribe token turns exactly its one kind off, for its one
// person; an altered or forged token is refused and changes nothing.
func TestUnsubscribeTurnsOneKindOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newDesk(t)
	n := d.env.App.Notify
	_, adminP := d.sign(core.RoleAdmin)
	before := d.choices(adminP)
	token := n.UnsubscribeToken(notify.Unsubscribe{WorkspaceID: d.env.WorkspaceID, UserID: d.owner.UserID, Kind: notify.KindWaiting})

	payload, mac, ok := strings.Cut(token, ".")
	require.True(t, ok)
	flip := func(s string) string {
		b := []byte(s)
		if b[len(b)-1] == 'A' {
			b[len(b)-1] = 'B'
		} else {
			b[len(b)-1] = 'A'
		}
		return string(b)
	}
	digest := n.UnsubscribeToken(notify.Unsubscribe{WorkspaceID: d.env.WorkspaceID, UserID: d.owner.UserID, Kind: notify.KindDigest})
	digestPayload, _, _ := strings.Cut(digest, ".")
	for _, bad := range []string{
		payload + "." + flip(mac),       // altered signature
		flip(payload) + "." + mac,       // altered fields
		digestPayload + "." + mac,       // another kind under this signature
		payload,                         // no signature
		"d3NfMXx1c3JfMXx3YWl0aW5n.AAAA", // forged
		"",
	} {
		_, err := n.Unsubscribed(ctx, bad)
		require.Equal(t, core.CodeNotFound, core.ErrorCode(err), "%q", bad)
	}
	require.Equal(t, map[notify.Kind]bool{notify.KindWaiting: true, notify.KindBalanceStopped: true, notify.KindDeclinedExpired: false, notify.KindDigest: false}, d.choices(d.owner))

	u, err := n.Unsubscribed(ctx, token)
	require.NoError(t, err)
	require.Equal(t, notify.KindWaiting, u.Kind)
	_, err = n.Unsubscribed(ctx, token)
	require.NoError(t, err, "a second click is fine")
	require.Equal(t, map[notify.Kind]bool{notify.KindWaiting: false, notify.KindBalanceStopped: true, notify.KindDeclinedExpired: false, notify.KindDigest: false}, d.choices(d.owner))
	require.Equal(t, before, d.choices(adminP), "another person's choices are theirs")

	// A token made under another secret key is refused.
	other := *n
	other.Kernel = &core.Kernel{Config: core.Config{SecretKey: core.NewSecretKey(), SiteURL: d.env.SiteURL}}
	_, err = n.Unsubscribed(ctx, other.UnsubscribeToken(notify.Unsubscribe{WorkspaceID: d.env.WorkspaceID, UserID: d.owner.UserID, Kind: notify.KindBalanceStopped}))
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err))
	require.True(t, d.choices(d.owner)[notify.KindBalanceStopped])
}
