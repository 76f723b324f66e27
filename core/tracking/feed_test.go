package tracking_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestEventFeed follows gifts through the feed: what approval and
// auto-approval record, in order, test and live together, without
// playbook.person_waiting and without personal data; pages, filters that
// move the cursor over what they leave out, and an empty poll's cursor.
func TestEventFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGifts(t)
	app := g.env.App

	first := poll(t, g.env, g.key, tracking.EventsInput{})
	require.Empty(t, first.Items)
	require.False(t, first.HasMore)

	manual, auto := g.playbook("Manual", false), g.playbook("Auto", true)
	a := g.approved(manual, "1")
	b := g.autoApproved(auto, "2")
	c := g.approved(manual, "3")
	// A live gift whose status changed (the live flow arrives later; the
	// event is written through the kernel as its writer will).
	res, err := app.Approvals.AddToPlaybook(ctx, g.key, manual, approval.PlaybookPersonAdd{Recipient: person("4")})
	require.NoError(t, err)
	d, err := app.Approvals.InsertSend(ctx, g.owner, approval.SendParams{CampaignID: manual, RecipientID: res.RecipientID, Status: "shipped", Mode: core.ModeLive, TotalCents: 9_000})
	require.NoError(t, err)
	record(t, g.env, core.EventRecord{WorkspaceID: g.env.WorkspaceID, Type: core.EventSendStatusChanged, Mode: core.ModeLive,
		CampaignID: manual, SendID: d, RecipientID: res.RecipientID, Data: map[string]any{"status": "shipped"}})

	// From the stored cursor, and from the start: the same five events.
	want := []string{
		"send.created " + a, "send.created " + b, "send.auto_approved " + b, "send.created " + c, "send.status_changed " + d,
	}
	got, end := drain(t, g.env, g.key, tracking.EventsInput{Cursor: first.NextCursor}, len(want))
	require.Equal(t, want, types(got))
	all, _ := drain(t, g.env, g.key, tracking.EventsInput{}, len(want))
	require.Equal(t, got, all)
	for i, it := range all {
		require.True(t, strings.HasPrefix(it.ID, "evt_"))
		wantMode := core.ModeTest
		if i == 4 {
			wantMode = core.ModeLive
		}
		require.Equal(t, wantMode, it.Mode, it.ID)
		require.NotEmpty(t, it.CampaignID)
		require.Equal(t, apptest.Epoch, it.CreatedAt)
	}
	require.Equal(t, auto, all[1].CampaignID)
	require.Equal(t, manual, all[3].CampaignID)
	created := all[0].Data
	require.Equal(t, "gourmet-snack-crate", created["productId"])
	require.Equal(t, "ready", created["status"])
	require.Equal(t, "9000", raw(t, created["totalCents"]))
	require.Equal(t, "ext-1", created["attribution"].(map[string]any)["externalId"])
	require.Equal(t, true, all[2].Data["autoApproved"])
	require.Equal(t, "50000", raw(t, all[2].Data["perGiftMaxCents"]))

	// Never personal data: no email, address, note, profile or link.
	text := raw(t, all)
	for _, secret := range []string{"secret", "Secret", "example.com", "private note", "Springfield", "62701", "linkedin", "http", "Person "} {
		require.NotContains(t, text, secret)
	}

	// playbook.person_waiting was written (people 1, 3 and 4 waited) but
	// stays out of the feed.
	rows, err := db.New(app.DB).EventListByWorkspace(ctx, db.EventListByWorkspaceParams{WorkspaceID: g.env.WorkspaceID, MaxRows: 100})
	require.NoError(t, err)
	waiting := 0
	for _, r := range rows {
		if core.EventType(r.Type) == core.EventPlaybookPersonWaiting {
			waiting++
			require.False(t, r.InFeed)
		}
	}
	require.Equal(t, 3, waiting)

	// Pages of two: every event once, hasMore until the last page.
	var paged []tracking.EventItem
	in := tracking.EventsInput{Limit: 2}
	for _, size := range []int{2, 2, 1} {
		page := poll(t, g.env, g.key, in)
		require.Len(t, page.Items, size)
		require.Equal(t, size == 2, page.HasMore)
		paged = append(paged, page.Items...)
		in.Cursor = page.NextCursor
	}
	require.Equal(t, all, paged)

	// The filters, each from the start.
	filtered := func(f tracking.EventFilter) []string {
		t.Helper()
		page := poll(t, g.env, g.key, tracking.EventsInput{EventFilter: f})
		require.False(t, page.HasMore)
		return types(page.Items)
	}
	require.Equal(t, []string{want[0], want[1], want[3]}, filtered(tracking.EventFilter{Type: core.EventSendCreated}))
	require.Equal(t, []string{want[2]}, filtered(tracking.EventFilter{Type: core.EventSendAutoApproved}))
	require.Equal(t, []string{want[1], want[2]}, filtered(tracking.EventFilter{CampaignID: auto}))
	require.Equal(t, []string{want[3]}, filtered(tracking.EventFilter{SendID: c}))
	require.Equal(t, []string{want[4]}, filtered(tracking.EventFilter{Status: "shipped"}))
	require.Equal(t, want[:4], filtered(tracking.EventFilter{Status: "ready"}))
	require.Equal(t, []string{want[1], want[2]}, filtered(tracking.EventFilter{ExternalID: "ext-2"}))
	require.Equal(t, []string{want[4]}, filtered(tracking.EventFilter{ExternalID: "ext-4", Status: "shipped", CampaignID: manual}))
	require.Empty(t, filtered(tracking.EventFilter{ExternalID: "ext-4", Status: "ready"}))
	require.Empty(t, filtered(tracking.EventFilter{Type: core.EventSendTrackingChanged}))

	// A filtered poll moves the cursor over the events it leaves out: the
	// unfiltered feed after it holds nothing more.
	one := poll(t, g.env, g.key, tracking.EventsInput{EventFilter: tracking.EventFilter{Type: core.EventSendAutoApproved}})
	require.Equal(t, []string{want[2]}, types(one.Items))
	require.Empty(t, poll(t, g.env, g.key, tracking.EventsInput{Cursor: one.NextCursor}).Items)
	// A filtered page that ends at its limit continues after its last event.
	page := poll(t, g.env, g.key, tracking.EventsInput{EventFilter: tracking.EventFilter{Type: core.EventSendCreated}, Limit: 1})
	require.Equal(t, []string{want[0]}, types(page.Items))
	require.True(t, page.HasMore)
	rest := poll(t, g.env, g.key, tracking.EventsInput{Cursor: page.NextCursor})
	require.Equal(t, want[1:], types(rest.Items), "the unfiltered feed resumes right after the page's last event")

	// An empty poll returns a cursor to store; the next event follows it.
	empty := poll(t, g.env, g.key, tracking.EventsInput{Cursor: end})
	require.Empty(t, empty.Items)
	require.False(t, empty.HasMore)
	e := g.approved(manual, "5")
	next, _ := drain(t, g.env, g.key, tracking.EventsInput{Cursor: empty.NextCursor}, 1)
	require.Equal(t, []string{"send.created " + e}, types(next))

	// Any member of the workspace reads the feed.
	member := g.env.AddPerson(t, core.RoleMember)
	asMember, err := app.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	require.Len(t, poll(t, g.env, asMember, tracking.EventsInput{}).Items, 6)
}

// A transaction that wrote its event first but commits last is never
// skipped: while it is open, the feed holds back every later event; a
// rolled-back event never appears.
func TestEventFeedLateCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	ev := func(sendID string) core.EventRecord {
		return core.EventRecord{WorkspaceID: env.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest, CampaignID: "cmp_1", SendID: sendID}
	}
	start := poll(t, env, key, tracking.EventsInput{})

	late, err := env.App.DB.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = late.Rollback(ctx) }()
	require.NoError(t, env.App.RecordEvent(ctx, late, ev("send_late")))
	record(t, env, ev("send_early"))
	gone, err := env.App.DB.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = gone.Rollback(ctx) }()
	require.NoError(t, env.App.RecordEvent(ctx, gone, ev("send_gone")))

	held := poll(t, env, key, tracking.EventsInput{Cursor: start.NextCursor})
	require.Empty(t, held.Items, "send_early committed, but send_late's transaction is still open below it")
	require.False(t, held.HasMore)

	require.NoError(t, gone.Rollback(ctx))
	require.NoError(t, late.Commit(ctx))
	got, _ := drain(t, env, key, tracking.EventsInput{Cursor: held.NextCursor}, 2)
	require.Equal(t, []string{"send.created send_late", "send.created send_early"}, types(got))
	fromStart, _ := drain(t, env, key, tracking.EventsInput{}, 2)
	require.Equal(t, got, fromStart)
}

// Refusals name their field; another workspace's events never appear and
// its cursor is refused.
func TestEventFeedRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	otherKey, err := env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	record(t, env, core.EventRecord{WorkspaceID: other.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest, CampaignID: "cmp_theirs", SendID: "send_theirs"})
	record(t, env, core.EventRecord{WorkspaceID: env.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest, CampaignID: "cmp_ours", SendID: "send_ours"})

	ours, _ := drain(t, env, key, tracking.EventsInput{}, 1)
	require.Equal(t, "send_ours", ours[0].SendID)
	theirs, theirCursor := drain(t, env, otherKey, tracking.EventsInput{}, 1)
	require.Equal(t, "send_theirs", theirs[0].SendID)
	ourCursor := poll(t, env, key, tracking.EventsInput{}).NextCursor

	refused := func(in tracking.EventsInput, code core.Code, field string) {
		t.Helper()
		_, err := env.App.Tracking.Events(ctx, key, in)
		e := apptest.RequireCode(t, err, code)
		require.Equal(t, []string{field}, e.Fields, e.Message)
		require.True(t, strings.HasPrefix(e.Message, field+":"), e.Message)
	}
	for _, limit := range []int{-1, 101} {
		refused(tracking.EventsInput{Limit: limit}, core.CodeValidation, "limit")
	}
	refused(tracking.EventsInput{EventFilter: tracking.EventFilter{Type: "send.shipped"}}, core.CodeValidation, "type")
	refused(tracking.EventsInput{EventFilter: tracking.EventFilter{Type: core.EventPlaybookPersonWaiting}}, core.CodeValidation, "type")
	edited := []byte(ourCursor)
	edited[3] ^= 1
	for _, bad := range []string{"garbage", "%%%", string(edited), ourCursor + "A", theirCursor, tracking.Cursor(env.WorkspaceID, 0, 0), tracking.Cursor(env.WorkspaceID, 5, -1)} {
		refused(tracking.EventsInput{Cursor: bad}, core.CodeValidation, "cursor")
	}
	refused(tracking.EventsInput{EventFilter: tracking.EventFilter{Status: strings.Repeat("s", 201)}}, core.CodeValidation, "status")
	refused(tracking.EventsInput{EventFilter: tracking.EventFilter{CampaignID: "cmp_nope"}}, core.CodeNotFound, "campaignId")
	refused(tracking.EventsInput{EventFilter: tracking.EventFilter{SendID: "send_theirs"}}, core.CodeNotFound, "sendId")

	// The other workspace's cursor works for it, and ours for us.
	require.Empty(t, poll(t, env, otherKey, tracking.EventsInput{Cursor: theirCursor}).Items)
	require.Empty(t, poll(t, env, key, tracking.EventsInput{Cursor: ourCursor}).Items)
	// A position from before the feed existed (xid 0) is a cursor too.
	require.Len(t, poll(t, env, key, tracking.EventsInput{Cursor: tracking.Cursor(env.WorkspaceID, 0, 1)}).Items, 1)

	_, err = env.App.Tracking.Events(ctx, core.Principal{}, tracking.EventsInput{})
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	connection := core.Principal{WorkspaceID: env.WorkspaceID, UserID: env.OwnerID, Role: core.RoleOwner, Via: core.ViaConnection,
		Scopes: []core.Scope{core.ScopeWrite, core.ScopeLinks}, Mode: core.ModeTest}
	_, err = env.App.Tracking.Events(ctx, connection, tracking.EventsInput{})
	apptest.RequireCode(t, err, core.CodeInsufficientScope)
	connection.Scopes = []core.Scope{core.ScopeRead}
	require.Len(t, poll(t, env, connection, tracking.EventsInput{}).Items, 1)
}
