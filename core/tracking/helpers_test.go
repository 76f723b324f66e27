package tracking_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
)

// gifts is a workspace where a signed-in owner runs playbooks, an agent
// (the owner's key) adds people, and gifts record their events.
type gifts struct {
	t     *testing.T
	env   *apptest.Env
	owner core.Principal // signed in
	key   core.Principal
}

func newGifts(t *testing.T) *gifts {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	env.TopUp(t, owner, 1_000_000)
	return &gifts{t: t, env: env, owner: owner, key: key}
}

// playbook creates an active playbook, with auto-approve on when auto.
func (g *gifts) playbook(name string, auto bool) string {
	g.t.Helper()
	ctx := context.Background()
	c, err := g.env.App.Campaigns.CreateCampaign(ctx, g.owner, campaign.CampaignInput{
		Name: name, Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks for choosing us, {{firstName}}!", MonthlyBudgetCents: 10_000_000,
	})
	require.NoError(g.t, err)
	if auto {
		perGift := int64(50_000)
		_, err = g.env.App.Approvals.SetAutoApprove(ctx, g.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: &perGift})
		require.NoError(g.t, err)
	}
	return c.ID
}

// person n: every kind of personal data the feed must never show.
func person(n string) campaign.RecipientInput {
	return campaign.RecipientInput{
		Name: "Person " + n, Company: "Co " + n, SourceSystem: "crm", ExternalID: "ext-" + n, Email: "secret-" + n + "@example.com",
		ProfileURL: "https://www.linkedin.com/in/secret-" + n, Message: "A private note for {{firstName}} " + n,
		AddressMode: gift.AddressKnown, Address: "1 Secret Street", City: "Springfield", State: "IL", Zip: "62701",
	}
}

// approved adds person n to playbook campaignID (auto-approve off: they
// wait, which records playbook.person_waiting) and approves them as the
// owner. It returns the gift's ID.
func (g *gifts) approved(campaignID, n string) string {
	g.t.Helper()
	ctx := context.Background()
	res, err := g.env.App.Approvals.AddToPlaybook(ctx, g.key, campaignID, approval.PlaybookPersonAdd{Recipient: person(n)})
	require.NoError(g.t, err)
	require.Equal(g.t, campaign.ApprovalWaiting, res.Approval.State)
	sent, err := g.env.App.Approvals.ApproveGift(ctx, g.owner, approval.QueueDecision{CampaignID: campaignID, RecipientID: res.RecipientID})
	require.NoError(g.t, err)
	return sent.ID
}

// autoApproved adds person n to auto-approving playbook campaignID, which
// approves them at once. It returns the gift's ID.
func (g *gifts) autoApproved(campaignID, n string) string {
	g.t.Helper()
	res, err := g.env.App.Approvals.AddToPlaybook(context.Background(), g.key, campaignID, approval.PlaybookPersonAdd{Recipient: person(n)})
	require.NoError(g.t, err)
	require.Equal(g.t, campaign.ApprovalAutoApproved, res.Approval.State)
	return res.Approval.SendID
}

// record writes ev through the kernel in a transaction of its own.
func record(t testing.TB, env *apptest.Env, ev core.EventRecord) {
	t.Helper()
	require.NoError(t, pgx.BeginFunc(context.Background(), env.App.DB, func(tx pgx.Tx) error {
		return env.App.RecordEvent(context.Background(), tx, ev)
	}))
}

// poll is one Events call that must succeed.
func poll(t testing.TB, env *apptest.Env, p core.Principal, in tracking.EventsInput) tracking.EventPage {
	t.Helper()
	page, err := env.App.Tracking.Events(context.Background(), p, in)
	require.NoError(t, err)
	require.NotEmpty(t, page.NextCursor, "every poll returns a cursor to store")
	return page
}

// drain polls from cursor with in's filters and limit until want events
// arrived and the feed has nothing more ready, and returns them with the
// cursor to store. The horizon is cluster-wide: another test's open
// transaction only delays events, so drain waits up to a deadline.
func drain(t testing.TB, env *apptest.Env, p core.Principal, in tracking.EventsInput, want int) ([]tracking.EventItem, string) {
	t.Helper()
	var got []tracking.EventItem
	deadline := time.Now().Add(30 * time.Second)
	for {
		page := poll(t, env, p, in)
		got = append(got, page.Items...)
		in.Cursor = page.NextCursor
		if len(got) >= want && !page.HasMore {
			require.Len(t, got, want, "events: %v", ids(got))
			return got, in.Cursor
		}
		require.True(t, time.Now().Before(deadline), "only %d of %d events arrived", len(got), want)
		if !page.HasMore {
			time.Sleep(20 * time.Millisecond) // wait for transactions elsewhere in the cluster to end
		}
	}
}

// ids are the items' IDs.
func ids(items []tracking.EventItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// types are the items' types.
func types(items []tracking.EventItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = fmt.Sprintf("%s %s", it.Type, it.SendID)
	}
	return out
}

// raw is v as JSON text.
func raw(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// jsonUnmarshal decodes JSON text s into v.
func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
