package giftlink_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestRecordsSayWhereEachPersonStands: one record per roster person, ready
// only for an active link of a gift awaiting its address, with the URL
// that opens that gift; every other person unavailable with the reason.
func TestRecordsSayWhereEachPersonStands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newRosterDesk(t)
	app := d.env.App

	waiting := d.add(person("1"))
	ready := d.add(person("2"))
	readyGift := d.approve(ready)
	knownIn := person("3")
	knownIn.AddressMode, knownIn.Address, knownIn.City, knownIn.State, knownIn.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
	known := d.add(knownIn)
	knownGift := d.approve(known)
	used := d.add(person("4"))
	usedGift := d.approve(used)
	d.use(usedGift)
	revoked := d.add(person("5"))
	revokedGift := d.approve(revoked)
	d.revoke(revokedGift)
	cancelled := d.add(person("6"))
	cancelledGift := d.approve(cancelled)
	_, err := app.Gifts.MoveGift(ctx, gift.GiftMove{SendID: cancelledGift, To: gift.SendCancelled})
	require.NoError(t, err)
	skipped := d.add(person("7"))
	_, err = app.Approvals.SkipGift(ctx, d.owner, approval.QueueSkip{CampaignID: d.c.ID, RecipientID: skipped})
	require.NoError(t, err)

	page := d.records(giftlink.RecordsQuery{})
	require.Equal(t, 1, page.Version)
	require.Nil(t, page.NextCursor)
	require.NotNil(t, page.SourceImports)
	require.Empty(t, page.SourceImports)
	require.Equal(t, giftlink.RecordCounts{Total: 7, Ready: 1, Unavailable: 6}, page.Counts)
	require.Equal(t, []string{waiting, ready, known, used, revoked, cancelled, skipped}, recipientIDs(page.Records), "roster order")

	recs := byRecipient(page.Records)
	reasons := map[string]giftlink.Reason{}
	for id, r := range recs {
		reasons[id] = r.AvailabilityReason
		if r.Availability == giftlink.Unavailable {
			require.Empty(t, r.GiftLink, "%s has no link to send", r.Name)
		}
	}
	require.Equal(t, map[string]giftlink.Reason{
		waiting: "no_gift", ready: "", known: "address_known", used: "link_used",
		revoked: "link_revoked", cancelled: "gift_cancelled", skipped: "skipped",
	}, reasons)

	// The ready record's link opens its gift: its token's hash is stored
	// for that gift and generation.
	r := recs[ready]
	require.Equal(t, giftlink.Ready, r.Availability)
	token, ok := strings.CutPrefix(r.GiftLink, d.env.SiteURL+"/g/")
	require.True(t, ok, r.GiftLink)
	row, err := db.New(app.DB).GiftLinkByTokenHash(ctx, core.GiftLinkTokenHash(token))
	require.NoError(t, err)
	require.Equal(t, readyGift, row.Send.ID)
	require.EqualValues(t, 1, row.TokenGeneration)
	require.Equal(t, giftlink.Record{
		RecipientID: ready, SourceSystem: "crm", ExternalID: "ext-2", Name: "Person 2", Company: "Co 2", Email: "p2@example.com",
		CampaignID: d.c.ID, GiftID: readyGift, ProductID: "gourmet-snack-crate", GiftLink: r.GiftLink, GiftStatus: "awaiting_address",
		Availability: giftlink.Ready, GiftExpiresAt: apptest.Epoch.Add(14 * 24 * time.Hour).UTC().Format(time.RFC3339),
		LinkGeneration: 1, Mode: core.ModeTest, ReviewURL: d.env.SiteURL + "/campaigns/" + d.c.ID + "?review=1",
	}, r)

	// A person without a gift: the campaign's product, the workspace's mode.
	w := recs[waiting]
	require.Equal(t, "", w.GiftID)
	require.Equal(t, "", w.GiftStatus)
	require.Equal(t, "gourmet-snack-crate", w.ProductID)
	require.Equal(t, core.ModeTest, w.Mode)
	require.Equal(t, 0, w.LinkGeneration)
	require.Equal(t, "", w.GiftExpiresAt)
	require.Equal(t, knownGift, recs[known].GiftID)
	require.Equal(t, "ready", recs[known].GiftStatus)
	require.Equal(t, 0, recs[known].LinkGeneration)
	require.Equal(t, "cancelled", recs[cancelled].GiftStatus)
	require.Equal(t, cancelledGift, recs[cancelled].GiftID)

	// Exactly the spec's fields, in snake_case.
	raw, err := json.Marshal(r)
	require.NoError(t, err)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	var names []string
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	want := []string{"recipient_id", "source_system", "external_id", "name", "company", "email", "profile_url",
		"campaign_id", "gift_id", "product_id", "gift_link", "gift_status", "availability", "availability_reason",
		"gift_expires_at", "link_generation", "mode", "import_id", "import_row_id", "review_url"}
	slices.Sort(want)
	require.Equal(t, want, names)

	// Fourteen days on, the link has expired even before the sweep runs.
	d.env.Clock.Advance(14 * 24 * time.Hour)
	page = d.records(giftlink.RecordsQuery{})
	require.Equal(t, giftlink.RecordCounts{Total: 7, Ready: 0, Unavailable: 7}, page.Counts)
	r = byRecipient(page.Records)[ready]
	require.Equal(t, giftlink.Unavailable, r.Availability)
	require.Equal(t, giftlink.ReasonLinkExpired, r.AvailabilityReason)
	require.Empty(t, r.GiftLink)
}

// TestRecordsFollowRegift: after a regift the record keeps the roster
// person's keys but names who the link is for now.
func TestRecordsFollowRegift(t *testing.T) {
	t.Parallel()
	d := newRosterDesk(t)
	id := d.add(person("1"))
	sent := d.approve(id)
	d.regift(sent, gift.GiftRecipient{Name: "Nia New", Email: "nia@example.com", Company: "Newco", AddressMode: gift.AddressConfirm})

	r := d.records(giftlink.RecordsQuery{}).Records[0]
	require.Equal(t, []string{id, "crm", "ext-1", "Nia New", "nia@example.com", "Newco", ""},
		[]string{r.RecipientID, r.SourceSystem, r.ExternalID, r.Name, r.Email, r.Company, r.ProfileURL})
	require.Equal(t, giftlink.Ready, r.Availability)

	// Search finds the new person, not the old one's name.
	require.Len(t, d.records(giftlink.RecordsQuery{Search: "NEWCO"}).Records, 1)
	require.Empty(t, d.records(giftlink.RecordsQuery{Search: "Person 1"}).Records)
}

// TestRecordsFilters: search, IDs and availability narrow the records and
// the counts alike; filters combine with AND.
func TestRecordsFilters(t *testing.T) {
	t.Parallel()
	d := newRosterDesk(t)
	var ids, gifts []string
	for _, n := range []string{"1", "2", "3", "4"} {
		ids = append(ids, d.add(person(n)))
	}
	gifts = append(gifts, d.approve(ids[0]), d.approve(ids[1]))
	odd := campaign.RecipientInput{Name: "Zed 100%_off", Email: "zed@example.org", Company: "Under_Score Inc",
		SourceSystem: "hubspot", ExternalID: "HS-77", ProfileURL: "https://www.linkedin.com/in/zed-linked"}
	ids = append(ids, d.add(odd))

	cases := []struct {
		name  string
		q     giftlink.RecordsQuery
		want  []string
		ready int
	}{
		{"everyone", giftlink.RecordsQuery{}, ids, 2},
		{"email, any case", giftlink.RecordsQuery{Search: "P3@EXAMPLE"}, ids[2:3], 0},
		{"company", giftlink.RecordsQuery{Search: "co 2"}, ids[1:2], 1},
		{"external ID", giftlink.RecordsQuery{Search: "hs-7"}, ids[4:5], 0},
		{"source system", giftlink.RecordsQuery{Search: "HubSpot"}, ids[4:5], 0},
		{"profile URL", giftlink.RecordsQuery{Search: "zed-linked"}, ids[4:5], 0},
		{"name", giftlink.RecordsQuery{Search: "  person  "}, ids[:4], 2},
		{"% is literal", giftlink.RecordsQuery{Search: "100%_"}, ids[4:5], 0},
		{"% alone matches only a %", giftlink.RecordsQuery{Search: "%"}, ids[4:5], 0},
		{"_ is literal", giftlink.RecordsQuery{Search: "r_s"}, ids[4:5], 0},
		{"\\ is literal", giftlink.RecordsQuery{Search: `\`}, nil, 0},
		{"no match", giftlink.RecordsQuery{Search: "nobody"}, nil, 0},
		{"recipientIds", giftlink.RecordsQuery{RecipientIDs: []string{ids[3], ids[0], ids[3]}}, []string{ids[0], ids[3]}, 1},
		{"unknown recipientIds select nothing", giftlink.RecordsQuery{RecipientIDs: []string{"recipient_000000"}}, nil, 0},
		{"giftIds", giftlink.RecordsQuery{GiftIDs: []string{gifts[1]}}, ids[1:2], 1},
		{"ready", giftlink.RecordsQuery{Availability: giftlink.Ready}, ids[:2], 2},
		{"unavailable", giftlink.RecordsQuery{Availability: giftlink.Unavailable}, ids[2:], 0},
		{"AND", giftlink.RecordsQuery{RecipientIDs: []string{ids[0], ids[2]}, Availability: giftlink.Unavailable}, ids[2:3], 0},
		{"AND with giftIds", giftlink.RecordsQuery{RecipientIDs: []string{ids[0]}, GiftIDs: []string{gifts[1]}}, nil, 0},
	}
	for _, c := range cases {
		page := d.records(c.q)
		require.Equal(t, c.want, nilIfEmpty(recipientIDs(page.Records)), c.name)
		require.Equal(t, giftlink.RecordCounts{Total: len(c.want), Ready: c.ready, Unavailable: len(c.want) - c.ready}, page.Counts, c.name)
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestRecordsPaging: pages in roster order until nextCursor is null, counts
// of the whole selection on every page; a cursor is refused with other
// filters, for another campaign, or edited.
func TestRecordsPaging(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newRosterDesk(t)
	var ids []string
	for i := range 7 {
		id := d.add(person(string(rune('a' + i))))
		ids = append(ids, id)
		if i%2 == 0 {
			d.approve(id)
		}
	}
	var got []string
	q := giftlink.RecordsQuery{Limit: 3}
	pages := 0
	for {
		page := d.records(q)
		pages++
		require.Equal(t, giftlink.RecordCounts{Total: 7, Ready: 4, Unavailable: 3}, page.Counts, "page %d", pages)
		got = append(got, recipientIDs(page.Records)...)
		if page.NextCursor == nil {
			break
		}
		q.Cursor = *page.NextCursor
	}
	require.Equal(t, 3, pages)
	require.Equal(t, ids, got)

	// Filtered paging: the ready people, two at a time.
	got = nil
	q = giftlink.RecordsQuery{Limit: 2, Availability: giftlink.Ready}
	for {
		page := d.records(q)
		require.Equal(t, 4, page.Counts.Total)
		got = append(got, recipientIDs(page.Records)...)
		if page.NextCursor == nil {
			break
		}
		q.Cursor = *page.NextCursor
	}
	require.Equal(t, []string{ids[0], ids[2], ids[4], ids[6]}, got)

	first := d.records(giftlink.RecordsQuery{Limit: 2, Search: "person"})
	require.NotNil(t, first.NextCursor)
	cursor := *first.NextCursor
	// The page size may change; the filters may not.
	require.Len(t, d.records(giftlink.RecordsQuery{Limit: 5, Search: "person", Cursor: cursor}).Records, 5)
	bad := map[string]giftlink.RecordsQuery{
		"other search":       {Limit: 2, Search: "persons", Cursor: cursor},
		"no search":          {Limit: 2, Cursor: cursor},
		"availability added": {Limit: 2, Search: "person", Availability: giftlink.Ready, Cursor: cursor},
		"edited":             {Limit: 2, Search: "person", Cursor: cursor[:len(cursor)-2] + "AA"},
		"garbage":            {Cursor: "not-a-cursor"},
		"too long":           {Cursor: strings.Repeat("A", 501)},
	}
	for name, q := range bad {
		_, err := d.env.App.GiftLinks.Records(ctx, d.key, d.c.ID, q)
		require.Equal(t, []string{"cursor"}, apptest.RequireCode(t, err, core.CodeValidation).Fields, name)
	}
	// Another campaign's cursor.
	other, err := d.env.App.Campaigns.CreateCampaign(ctx, d.owner, campaign.CampaignInput{
		Name: "Other", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Hi {{firstName}}",
	})
	require.NoError(t, err)
	_, err = d.env.App.GiftLinks.Records(ctx, d.key, other.ID, giftlink.RecordsQuery{Limit: 2, Search: "person", Cursor: cursor})
	require.Equal(t, []string{"cursor"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
}

// TestRecordsCursorStale: a person added, or a link of the selection
// changed, while paging makes the next page CURSOR_STALE; starting again
// works.
func TestRecordsCursorStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newRosterDesk(t)
	var gifts []string
	for _, n := range []string{"1", "2", "3", "4"} {
		gifts = append(gifts, d.approve(d.add(person(n))))
	}
	next := func(q giftlink.RecordsQuery) string {
		page := d.records(q)
		require.NotNil(t, page.NextCursor)
		return *page.NextCursor
	}
	stale := func(q giftlink.RecordsQuery) {
		_, err := d.env.App.GiftLinks.Records(ctx, d.key, d.c.ID, q)
		e := apptest.RequireCode(t, err, core.CodeCursorStale)
		require.Equal(t, []string{"cursor"}, e.Fields)
	}

	cursor := next(giftlink.RecordsQuery{Limit: 2})
	d.add(person("5"))
	stale(giftlink.RecordsQuery{Limit: 2, Cursor: cursor})
	require.Equal(t, 5, d.records(giftlink.RecordsQuery{Limit: 2}).Counts.Total, "starting again works")

	cursor = next(giftlink.RecordsQuery{Limit: 2})
	d.revoke(gifts[3])
	stale(giftlink.RecordsQuery{Limit: 2, Cursor: cursor})

	// A change outside the selection leaves its cursor working.
	q := giftlink.RecordsQuery{Limit: 1, GiftIDs: []string{gifts[0], gifts[1]}}
	q.Cursor = next(q)
	d.revoke(gifts[2])
	page := d.records(q)
	require.Equal(t, []string{gifts[1]}, []string{page.Records[0].GiftID})

	// Time alone can change the selection: a link that expires under a
	// cursor of ready records.
	q = giftlink.RecordsQuery{Limit: 1, Availability: giftlink.Ready}
	q.Cursor = next(q)
	d.env.Clock.Advance(15 * 24 * time.Hour)
	stale(q)
}

// TestRecordsBadInput: every refusal names its field, before any read.
func TestRecordsBadInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newRosterDesk(t)
	many := make([]string, giftlink.MaxRecordIDs+1)
	for i := range many {
		many[i] = core.NewID("recipient_")
	}
	cases := map[string]giftlink.RecordsQuery{
		"limit":           {Limit: 101},
		"recipientIds":    {RecipientIDs: many},
		"recipientIds[1]": {RecipientIDs: []string{"recipient_1", "send_1"}},
		"giftIds[0]":      {GiftIDs: []string{"send_"}},
		"giftIds":         {GiftIDs: []string{}},
		"search":          {Search: strings.Repeat("é", giftlink.MaxRecordSearch+1)},
		"availability":    {Availability: "maybe"},
	}
	cases["giftIds[2]"] = giftlink.RecordsQuery{GiftIDs: []string{"send_a", "send_b", "send_a b"}}
	for field, q := range cases {
		_, err := d.env.App.GiftLinks.Records(ctx, d.key, d.c.ID, q)
		require.Equal(t, []string{field}, apptest.RequireCode(t, err, core.CodeValidation).Fields, field)
		require.Equal(t, []string{field}, apptest.RequireCode(t, q.Check(), core.CodeValidation).Fields, field)
	}
	_, err := d.env.App.GiftLinks.Records(ctx, d.key, d.c.ID, giftlink.RecordsQuery{Limit: -1})
	require.Equal(t, []string{"limit"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	_, err = d.env.App.GiftLinks.Records(ctx, d.key, d.c.ID, giftlink.RecordsQuery{Search: "a\x00b"})
	require.Equal(t, []string{"search"}, apptest.RequireCode(t, err, core.CodeValidation).Fields)
	require.Len(t, d.records(giftlink.RecordsQuery{Search: strings.Repeat("é", giftlink.MaxRecordSearch)}).Records, 0)
}

// TestRecordsTenantBoundary: another workspace's campaign is NOT_FOUND; a
// connection needs gifts:links:read.
func TestRecordsTenantBoundary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newRosterDesk(t)
	d.approve(d.add(person("1")))
	ws := apptest.NewWorkspace(t, d.env.App, apptest.WorkspaceOptions{})
	foreign, err := d.env.App.Connect.Authenticate(ctx, ws.OwnerKey)
	require.NoError(t, err)
	_, err = d.env.App.GiftLinks.Records(ctx, foreign, d.c.ID, giftlink.RecordsQuery{})
	require.Equal(t, []string{"id"}, apptest.RequireCode(t, err, core.CodeNotFound).Fields)
	_, err = d.env.App.GiftLinks.Records(ctx, d.key, "cmp_none", giftlink.RecordsQuery{})
	apptest.RequireCode(t, err, core.CodeNotFound)

	conn := core.Principal{WorkspaceID: d.env.WorkspaceID, UserID: d.env.OwnerID, Role: core.RoleOwner, Via: core.ViaConnection,
		Scopes: []core.Scope{core.ScopeRead, core.ScopeWrite}, Mode: core.ModeTest}
	_, err = d.env.App.GiftLinks.Records(ctx, conn, d.c.ID, giftlink.RecordsQuery{})
	apptest.RequireCode(t, err, core.CodeInsufficientScope)
	conn.Scopes = []core.Scope{core.ScopeLinks}
	page, err := d.env.App.GiftLinks.Records(ctx, conn, d.c.ID, giftlink.RecordsQuery{})
	require.NoError(t, err)
	require.Equal(t, 1, page.Counts.Ready)
}
