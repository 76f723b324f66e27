package approval_test

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// crateCents is gourmet-snack-crate's price per gift (7500 + 1500), as the
// catalog lists it.
const crateCents = int64(9_000)

// queueEnv builds queue fixtures directly: playbooks turned on by the signed-in
// owner, people added through add_recipients, approval states set by tests.
type queueEnv struct {
	t     *testing.T
	env   *apptest.Env
	key   core.Principal // the owner's key
	owner core.Principal // the owner signed in
}

func newQueueEnv(t *testing.T) *queueEnv {
	t.Helper()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	_, owner := env.SignIn(t, env.OwnerEmail)
	return &queueEnv{t: t, env: env, key: key, owner: owner}
}

// playbook creates a playbook of product with in's limits and turns it on.
func (e *queueEnv) playbook(product string, in campaign.CampaignInput) campaign.Campaign {
	e.t.Helper()
	ctx := context.Background()
	in.Mode, in.ProductID, in.SenderName, in.SenderCompany = campaign.ModeAlwaysOn, product, "Sam Seller", "Acme"
	if in.Name == "" {
		in.Name = "Playbook " + product
	}
	if in.Message == "" {
		in.Message = "Thanks, {{firstName}}!"
	}
	c, err := e.env.App.Campaigns.CreateCampaign(ctx, e.key, in)
	require.NoError(e.t, err)
	active := campaign.StatusActive
	c, err = e.env.App.Campaigns.UpdateCampaign(ctx, e.owner, c.ID, campaign.CampaignPatch{Status: &active})
	require.NoError(e.t, err)
	require.Equal(e.t, campaign.StatusActive, c.Status)
	return c
}

// add adds people to active playbook id one call each (so queue order is
// argument order), each waiting with reason auto_approve_off, and returns
// their IDs.
func (e *queueEnv) add(id string, people ...campaign.RecipientInput) []string {
	e.t.Helper()
	var ids []string
	for _, who := range people {
		res, err := e.env.App.Campaigns.AddRecipients(context.Background(), e.key, id, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{who}})
		require.NoError(e.t, err)
		require.Len(e.t, res.Added, 1)
		e.set(id, res.Added[0], campaign.ApprovalWaiting, campaign.ReasonAutoApproveOff)
		ids = append(ids, res.Added[0])
	}
	return ids
}

// set moves a person to an approval state.
func (e *queueEnv) set(campaignID, recipientID string, state campaign.ApprovalState, reason campaign.ApprovalReason) {
	e.t.Helper()
	n, err := db.New(e.env.App.DB).RecipientSetApproval(context.Background(), db.RecipientSetApprovalParams{
		ApprovalState: string(state), ApprovalReason: string(reason), UpdatedAt: e.env.Clock.Now(), CampaignID: campaignID, ID: recipientID,
	})
	require.NoError(e.t, err)
	require.EqualValues(e.t, 1, n)
}

// skip skips a person now, with reason.
func (e *queueEnv) skip(campaignID, recipientID, reason string) {
	e.t.Helper()
	now := e.env.Clock.Now()
	n, err := db.New(e.env.App.DB).RecipientSkip(context.Background(), db.RecipientSkipParams{
		SkipReason: reason, SkippedBy: e.env.OwnerID, SkippedAt: &now, CampaignID: campaignID, ID: recipientID,
	})
	require.NoError(e.t, err)
	require.EqualValues(e.t, 1, n)
}

// queue reads the queue as p and maps each person's name to their blockers,
// checking the order of names.
func (e *queueEnv) queue(p core.Principal, campaignID string, order ...string) map[string][]string {
	e.t.Helper()
	items, err := e.env.App.Approvals.Queue(context.Background(), p, campaignID)
	require.NoError(e.t, err)
	got := map[string][]string{}
	var names []string
	for _, it := range items {
		names = append(names, it.Recipient.Name)
		require.NotNil(e.t, it.Blockers, "blockers is an array, never null")
		got[it.Recipient.Name] = it.Blockers
	}
	require.Equal(e.t, order, names, "queue order")
	return got
}

func (e *queueEnv) fund(mode core.Mode, cents int64) {
	e.t.Helper()
	require.NoError(e.t, e.env.App.Approvals.AdjustForTest(context.Background(), e.env.WorkspaceID, mode, cents))
}

func (e *queueEnv) lowBalance() bool {
	e.t.Helper()
	b, err := e.env.App.Approvals.Balance(context.Background(), e.key)
	require.NoError(e.t, err)
	return b.LowBalance
}

func queued(name string) campaign.RecipientInput {
	return campaign.RecipientInput{Name: name, Company: name + " Co", Title: "VP " + name, Email: name + "@example.com"}
}

func TestQueueItemsShareTheBalanceInOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	a := e.playbook("gourmet-snack-crate", campaign.CampaignInput{Name: "Closed-won"})
	b := e.playbook("gourmet-snack-crate", campaign.CampaignInput{Name: "Renewals"})
	e.fund(core.ModeTest, 2*crateCents+crateCents/2)
	require.False(t, e.lowBalance(), "nobody waits and one more gift fits")

	ids := e.add(a.ID, queued("Ann"))
	require.False(t, e.lowBalance(), "2.5 gifts cover Ann and one more")
	ids = append(ids, e.add(a.ID, queued("Ben"))...)
	require.True(t, e.lowBalance(), "2.5 gifts cannot cover Ann, Ben and one more")
	ids = append(ids, e.add(a.ID, queued("Cal"))...)
	e.add(b.ID, queued("Dan"))

	items, err := e.env.App.Approvals.Queue(ctx, e.key, "")
	require.NoError(t, err)
	require.Len(t, items, 4)
	require.Equal(t, approval.QueueItem{
		CampaignID: a.ID, CampaignName: "Closed-won", ProductID: "gourmet-snack-crate", RecipientID: ids[0],
		Recipient: approval.QueuePerson{Name: "Ann", Company: "Ann Co", Title: "VP Ann"}, Message: "Thanks, Ann!",
		PriceCents: crateCents, Blockers: []string{}, State: campaign.ApprovalWaiting, Reason: campaign.ReasonAutoApproveOff,
		Why: "Auto-approve is off for this playbook: approve, or skip.", WaitsFor: campaign.ReasonAutoApproveOff,
		ApprovalURL: e.env.SiteURL + "/?queue=" + a.ID, QueuedAt: apptest.Epoch,
	}, items[0])
	require.Equal(t, "Add $135.00 to the balance to pay for the 2 gifts waiting for funds.", items[2].Why,
		"Cal and Dan cost $180; half a gift is left after Ann and Ben")
	require.Equal(t, items[2].Why, items[3].Why)
	require.Equal(t, map[string][]string{"Ann": {}, "Ben": {}, "Cal": {"Add funds"}, "Dan": {"Add funds"}},
		e.queue(e.key, "", "Ann", "Ben", "Cal", "Dan"), "the balance covers the first two people, across playbooks")

	// One playbook's queue still counts the people ahead on the others.
	require.Equal(t, map[string][]string{"Dan": {"Add funds"}}, e.queue(e.key, b.ID, "Dan"))

	// Scheduled people are ahead too.
	e.set(a.ID, ids[0], campaign.ApprovalScheduled, "")
	items, err = e.env.App.Approvals.Queue(ctx, e.key, a.ID)
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalScheduled, items[0].State)
	require.Empty(t, items[0].Reason)
	require.Equal(t, map[string][]string{"Ann": {}, "Ben": {}, "Cal": {"Add funds"}}, e.queue(e.key, a.ID, "Ann", "Ben", "Cal"))

	// Skipped and approved people leave the queue and free the balance.
	e.skip(a.ID, ids[1], "not a fit")
	require.Equal(t, map[string][]string{"Ann": {}, "Cal": {}, "Dan": {"Add funds"}}, e.queue(e.key, "", "Ann", "Cal", "Dan"))
	e.set(a.ID, ids[2], campaign.ApprovalApproved, "")
	require.Equal(t, map[string][]string{"Ann": {}, "Dan": {}}, e.queue(e.key, "", "Ann", "Dan"))
	require.True(t, e.lowBalance(), "2.5 gifts cover Ann and Dan, not one more")
}

func TestQueueLowBalanceCountsWaitingPeople(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	a := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	e.fund(core.ModeTest, 3*crateCents)
	require.False(t, e.lowBalance())
	ids := e.add(a.ID, queued("Ann"), queued("Ben"))
	require.False(t, e.lowBalance(), "3 gifts cover two waiting people and one more")
	e.add(a.ID, queued("Cal"))
	require.True(t, e.lowBalance(), "3 gifts cannot cover three waiting people and one more")
	e.set(a.ID, ids[0], campaign.ApprovalScheduled, "")
	require.True(t, e.lowBalance(), "scheduled people count as waiting")

	// People of a paused playbook are held out of the queue and of the total.
	paused := campaign.StatusPaused
	_, err := e.env.App.Campaigns.UpdateCampaign(context.Background(), e.owner, a.ID, campaign.CampaignPatch{Status: &paused})
	require.NoError(t, err)
	require.False(t, e.lowBalance(), "no active playbook, nobody in the queue")
	e.queue(e.key, "")
	e.queue(e.key, a.ID)
}

func TestQueueLimitsAreSharedPerPlaybook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	e.fund(core.ModeTest, 20*crateCents)

	// The monthly budget counts this UTC month's gifts, then the people ahead.
	monthly := e.playbook("gourmet-snack-crate", campaign.CampaignInput{MonthlyBudgetCents: 3 * crateCents})
	gifted := e.add(monthly.ID, queued("Gia"))[0]
	_, err := e.env.App.Approvals.InsertSend(ctx, e.key, approval.SendParams{CampaignID: monthly.ID, RecipientID: gifted, TotalCents: crateCents})
	require.NoError(t, err)
	e.add(monthly.ID, queued("Ann"), queued("Ben"), queued("Cal"))
	require.Equal(t, map[string][]string{"Ann": {}, "Ben": {}, "Cal": {"Monthly budget reached"}}, e.queue(e.key, monthly.ID, "Ann", "Ben", "Cal"))

	// The playbook's budget and send limit.
	budget := e.playbook("gourmet-snack-crate", campaign.CampaignInput{BudgetCents: 2 * crateCents})
	e.add(budget.ID, queued("Dee"), queued("Eve"), queued("Fay"))
	require.Equal(t, map[string][]string{"Dee": {}, "Eve": {}, "Fay": {"Playbook budget reached"}}, e.queue(e.key, budget.ID, "Dee", "Eve", "Fay"))
	limit := e.playbook("gourmet-snack-crate", campaign.CampaignInput{MaxSends: 2})
	e.add(limit.ID, queued("Hal"), queued("Ida"), queued("Jon"))
	require.Equal(t, map[string][]string{"Hal": {}, "Ida": {}, "Jon": {"Playbook send limit reached"}}, e.queue(e.key, limit.ID, "Hal", "Ida", "Jon"))

	// Each playbook's limits are its own; the balance (20 gifts) covers all.
	all := e.queue(e.key, "", "Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Hal", "Ida", "Jon")
	require.Equal(t, []string{"Monthly budget reached"}, all["Cal"])
	require.Equal(t, []string{"Playbook budget reached"}, all["Fay"])
	require.Equal(t, []string{"Playbook send limit reached"}, all["Jon"])

	// Next UTC month the earlier gift no longer counts against the monthly budget.
	e.env.Clock.Set(time.Date(2026, time.April, 1, 0, 0, 0, 0, time.UTC))
	require.Equal(t, map[string][]string{"Ann": {}, "Ben": {}, "Cal": {}}, e.queue(e.key, monthly.ID, "Ann", "Ben", "Cal"))

	// Several blockers at once, each text once, in the checks' order.
	e.env.Clock.Set(apptest.Epoch)
	tight := e.playbook("gourmet-snack-crate", campaign.CampaignInput{MaxSends: 1, BudgetCents: crateCents, MonthlyBudgetCents: crateCents})
	e.add(tight.ID, queued("Kim"), queued("Lou"))
	require.Equal(t, map[string][]string{"Kim": {}, "Lou": {"Playbook send limit reached", "Playbook budget reached", "Monthly budget reached"}},
		e.queue(e.key, tight.ID, "Kim", "Lou"))
}

func TestQueuePersonBlockers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	e.fund(core.ModeTest, 1_000_000)
	yes := true
	art := e.env.ReadyArtwork(t, "artwork")

	for _, tc := range []struct {
		product string
		in      campaign.CampaignInput
		person  campaign.RecipientInput
		want    []string
	}{
		{"engraved-walnut-desk-organizer", campaign.CampaignInput{}, queued("Ann"), []string{"Finish personalization"}},
		{"engraved-walnut-desk-organizer", campaign.CampaignInput{Customization: map[string]string{"displayText": "Thank you"}}, queued("Ann"), []string{}},
		{"illustrated-city-print", campaign.CampaignInput{}, queued("Ann"), []string{"Add gift details"}},
		{"illustrated-city-print", campaign.CampaignInput{}, func() campaign.RecipientInput {
			p := queued("Ann")
			p.Details = map[string]string{"city": "Austin, TX"}
			return p
		}(), []string{}},
		{"custom-portrait-illustration", campaign.CampaignInput{}, queued("Ann"), []string{"Needs a photo"}},
		{"bourbon-tasting-flight", campaign.CampaignInput{}, queued("Ann"), []string{"Confirm 21 or older"}},
		{"bourbon-tasting-flight", campaign.CampaignInput{}, func() campaign.RecipientInput {
			p := queued("Ann")
			p.AdultRecipientConfirmed = &yes
			return p
		}(), []string{}},
		{"logo-insulated-tumbler", campaign.CampaignInput{}, queued("Ann"), []string{"Artwork missing"}},
		{"logo-insulated-tumbler", campaign.CampaignInput{}, func() campaign.RecipientInput {
			p := queued("Ann")
			p.AssetIDs = []string{art}
			return p
		}(), []string{}},
	} {
		c := e.playbook(tc.product, tc.in)
		e.add(c.ID, tc.person)
		require.Equal(t, map[string][]string{"Ann": tc.want}, e.queue(e.key, c.ID, "Ann"), "%s %v", tc.product, tc.in.Customization)
	}

	// A note that lost its placeholder's value: the message is empty.
	note := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	noCompany := queued("Nia")
	noCompany.Company = ""
	e.add(note.ID, noCompany)
	msg := "Thanks, {{firstName}} at {{company}}!"
	_, err := e.env.App.Campaigns.UpdateCampaign(ctx, e.owner, note.ID, campaign.CampaignPatch{Message: &msg})
	require.NoError(t, err)
	require.Equal(t, map[string][]string{"Nia": {"Finish the note"}}, e.queue(e.key, note.ID, "Nia"))
	items, err := e.env.App.Approvals.Queue(ctx, e.key, note.ID)
	require.NoError(t, err)
	require.Empty(t, items[0].Message)

	// A repeat blocks until approved, and takes nothing from the people behind.
	other := e.playbook("gourmet-snack-crate", campaign.CampaignInput{Name: "Earlier"})
	earlier := e.add(other.ID, queued("Rae"))[0]
	_, err = e.env.App.Approvals.InsertSend(ctx, e.key, approval.SendParams{CampaignID: other.ID, RecipientID: earlier, TotalCents: crateCents})
	require.NoError(t, err)
	repeat := e.playbook("gourmet-snack-crate", campaign.CampaignInput{MaxSends: 1})
	rae := e.add(repeat.ID, queued("Rae"), queued("Sol"))[0]
	require.Equal(t, map[string][]string{"Rae": {"Gifted before: approve the repeat"}, "Sol": {}}, e.queue(e.key, repeat.ID, "Rae", "Sol"),
		"a person with a blocker of their own takes nothing from the send limit")
	_, err = e.env.App.Approvals.ApproveRepeats(ctx, e.owner, repeat.ID, approval.RepeatApproval{RecipientIDs: []string{rae}})
	require.NoError(t, err)
	require.Equal(t, map[string][]string{"Rae": {}, "Sol": {"Playbook send limit reached"}}, e.queue(e.key, repeat.ID, "Rae", "Sol"))
}

func TestQueueLiveMode(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	live := e.key
	live.Mode = core.ModeLive
	known := func(name string) campaign.RecipientInput {
		p := queued(name)
		p.AddressMode, p.Address, p.City, p.State, p.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
		return p
	}
	// The unverified power bank first, then a crateCents: the live balance covers one crateCents.
	bank := e.playbook("engraved-power-bank", campaign.CampaignInput{})
	crates := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	e.add(bank.ID, known("Uma"))
	e.add(crates.ID, known("Kai"), queued("Cyd"))
	e.fund(core.ModeLive, crateCents)

	require.Equal(t, map[string][]string{"Uma": {}, "Kai": {}, "Cyd": {"Needs a shipping address", "Add funds"}}, e.queue(live, "", "Uma", "Kai", "Cyd"),
		"an unverified gift shows no blocker and, since approving it fails, takes nothing from the balance")
	// Test mode has its own (empty) balance, and addresses are confirmed by recipients.
	require.Equal(t, map[string][]string{"Uma": {"Add funds"}, "Kai": {"Add funds"}, "Cyd": {"Add funds"}}, e.queue(e.key, "", "Uma", "Kai", "Cyd"))
}

func TestQueueCampaignFilter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	a := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	e.add(a.ID, queued("Ann"))

	_, err := e.env.App.Approvals.Queue(ctx, e.key, "cmp_nope")
	ce := apptest.RequireCode(t, err, core.CodeNotFound)
	require.Equal(t, []string{"campaignId"}, ce.Fields)
	require.Contains(t, ce.Message, "campaignId: ")
	_, err = e.env.App.Approvals.SkippedPeople(ctx, e.key, "cmp_nope")
	apptest.RequireCode(t, err, core.CodeNotFound)

	// Another workspace's playbook is not found; its queue is its own.
	other := apptest.NewWorkspace(t, e.env.App, apptest.WorkspaceOptions{})
	otherKey, err := e.env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	_, err = e.env.App.Approvals.Queue(ctx, otherKey, a.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = e.env.App.Approvals.QueuePage(ctx, otherKey, approval.QueuePageInput{CampaignID: a.ID})
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = e.env.App.Approvals.SkippedPeople(ctx, otherKey, a.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)
	items, err := e.env.App.Approvals.Queue(ctx, otherKey, "")
	require.NoError(t, err)
	require.Empty(t, items)

	// A batch has no queue.
	batch, err := e.env.App.Campaigns.CreateCampaign(ctx, e.key, campaign.CampaignInput{Name: "Batch", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 5, Message: "Hi",
		Recipients: []campaign.RecipientInput{queued("Bob")}})
	require.NoError(t, err)
	e.queue(e.key, batch.ID)
	e.queue(e.key, "", "Ann")

	// Anonymous callers are refused.
	_, err = e.env.App.Approvals.Queue(ctx, core.Principal{}, "")
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}

func TestQueuePage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	a := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	b := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	e.fund(core.ModeTest, 3*crateCents)
	ids := e.add(a.ID, queued("P1"), queued("P2"), queued("P3"))
	e.add(b.ID, queued("Q1"))
	ids = append(ids, e.add(a.ID, queued("P4"), queued("P5"))...)

	names := func(p approval.QueuePage) []string {
		var out []string
		for _, it := range p.Items {
			out = append(out, it.Recipient.Name)
		}
		return out
	}
	page, err := e.env.App.Approvals.QueuePage(ctx, e.key, approval.QueuePageInput{CampaignID: a.ID, Limit: 2})
	require.NoError(t, err)
	require.Equal(t, []string{"P1", "P2"}, names(page))
	require.NotNil(t, page.NextCursor)
	page, err = e.env.App.Approvals.QueuePage(ctx, e.key, approval.QueuePageInput{CampaignID: a.ID, Limit: 2, Cursor: *page.NextCursor})
	require.NoError(t, err)
	require.Equal(t, []string{"P3", "P4"}, names(page))
	require.Equal(t, []string{"Add funds"}, page.Items[1].Blockers, "a page's blockers count the people ahead on earlier pages and other playbooks")
	next := *page.NextCursor

	// A cursor whose person left the queue continues after their place.
	e.skip(a.ID, ids[3], "")
	page, err = e.env.App.Approvals.QueuePage(ctx, e.key, approval.QueuePageInput{CampaignID: a.ID, Limit: 2, Cursor: next})
	require.NoError(t, err)
	require.Equal(t, []string{"P5"}, names(page))
	require.Nil(t, page.NextCursor)

	// Default limit, the whole workspace.
	page, err = e.env.App.Approvals.QueuePage(ctx, e.key, approval.QueuePageInput{})
	require.NoError(t, err)
	require.Equal(t, []string{"P1", "P2", "P3", "Q1", "P5"}, names(page))
	require.Nil(t, page.NextCursor)

	for _, in := range []approval.QueuePageInput{{Limit: -1}, {Limit: 101}} {
		_, err := e.env.App.Approvals.QueuePage(ctx, e.key, in)
		ce := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{"limit"}, ce.Fields)
	}
	edited := []byte(next)
	edited[2] ^= 1
	for _, cursor := range []string{"nope", "!!!", string(edited), base64.RawURLEncoding.EncodeToString([]byte(`{"a":1}xxxx`))} {
		_, err := e.env.App.Approvals.QueuePage(ctx, e.key, approval.QueuePageInput{CampaignID: a.ID, Cursor: cursor})
		ce := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{"cursor"}, ce.Fields, cursor)
	}
	_, err = e.env.App.Approvals.QueuePage(ctx, e.key, approval.QueuePageInput{CampaignID: b.ID, Cursor: next})
	ce := apptest.RequireCode(t, err, core.CodeValidation)
	require.Contains(t, ce.Message, "campaignId")
}

func TestSkippedPeopleNewestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	a := e.playbook("gourmet-snack-crate", campaign.CampaignInput{Name: "Closed-won"})
	b := e.playbook("gourmet-snack-crate", campaign.CampaignInput{Name: "Renewals"})
	ann := e.add(a.ID, queued("Ann"))[0]
	ben := e.add(b.ID, queued("Ben"))[0]
	cal := e.add(a.ID, queued("Cal"))[0]
	e.add(a.ID, queued("Dot"))

	skipped, err := e.env.App.Approvals.SkippedPeople(ctx, e.key, "")
	require.NoError(t, err)
	require.Empty(t, skipped)
	require.NotNil(t, skipped)

	e.skip(a.ID, cal, "already a customer")
	e.env.Clock.Advance(time.Minute)
	e.skip(b.ID, ben, "")
	e.env.Clock.Advance(time.Minute)
	e.skip(a.ID, ann, "wrong contact")

	skipped, err = e.env.App.Approvals.SkippedPeople(ctx, e.key, "")
	require.NoError(t, err)
	require.Equal(t, []approval.SkippedItem{
		{CampaignID: a.ID, CampaignName: "Closed-won", RecipientID: ann, Recipient: approval.QueuePerson{Name: "Ann", Company: "Ann Co", Title: "VP Ann"},
			Reason: "wrong contact", SkippedAt: apptest.Epoch.Add(2 * time.Minute)},
		{CampaignID: b.ID, CampaignName: "Renewals", RecipientID: ben, Recipient: approval.QueuePerson{Name: "Ben", Company: "Ben Co", Title: "VP Ben"},
			SkippedAt: apptest.Epoch.Add(time.Minute)},
		{CampaignID: a.ID, CampaignName: "Closed-won", RecipientID: cal, Recipient: approval.QueuePerson{Name: "Cal", Company: "Cal Co", Title: "VP Cal"},
			Reason: "already a customer", SkippedAt: apptest.Epoch},
	}, skipped)

	onA, err := e.env.App.Approvals.SkippedPeople(ctx, e.key, a.ID)
	require.NoError(t, err)
	require.Equal(t, []approval.SkippedItem{skipped[0], skipped[2]}, onA)
	e.queue(e.key, "", "Dot")
}
