package approval_test

import (
	"context"
	"encoding/json"
	"strings"
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

// Without auto-approve a person waits; an owner approves once the balance
// covers the gift.
func TestAddToPlaybookWaitsThenOwnerApproves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)

	first := w.add(c.ID, "1")
	require.True(t, first.Queued)
	require.False(t, first.AlreadyQueued)
	require.Equal(t, w.env.SiteURL+"/?queue="+c.ID, first.ApprovalURL)
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonAutoApproveOff}, first.Approval)
	st, reason := w.state(c.ID, first.RecipientID)
	require.Equal(t, campaign.ApprovalWaiting, st)
	require.Equal(t, campaign.ReasonAutoApproveOff, reason)
	waiting := w.events(core.EventPlaybookPersonWaiting)
	require.Len(t, waiting, 1)
	require.False(t, waiting[0].InFeed)
	var data map[string]any
	require.NoError(t, json.Unmarshal(waiting[0].Data, &data))
	require.Equal(t, c.ID, data["campaignId"])
	require.Equal(t, first.RecipientID, data["recipientId"])
	require.Equal(t, "auto_approve_off", data["reason"])
	require.NotContains(t, string(waiting[0].Data), "@example.com", "events never hold emails")

	// The same person again, by each identity: nothing new.
	in := newPerson("1")
	for _, again := range []campaign.RecipientInput{
		in,
		{SourceSystem: "crm", ExternalID: "ext-1"},
		{RecipientID: first.RecipientID},
		{Email: "P1@Example.com"},
	} {
		res, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: again})
		require.NoError(t, err)
		require.True(t, res.AlreadyQueued)
		require.Equal(t, first.RecipientID, res.RecipientID)
		require.Equal(t, first.Approval, res.Approval)
	}
	got, err := app.Campaigns.GetCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Len(t, got.Recipients, 1)
	require.Equal(t, "Person 1", got.Recipients[0].Name, "a re-add never blanks a field")
	require.Len(t, w.events(core.EventPlaybookPersonWaiting), 1, "a re-add does not start waiting again")
	require.Equal(t, c.PolicyVersion, got.PolicyVersion, "adds keep the version")

	// profileUrl matches too.
	withProfile, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Lin", ProfileURL: "https://linkedin.com/in/Lin-Li/"}})
	require.NoError(t, err)
	require.False(t, withProfile.AlreadyQueued)
	again, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{ProfileURL: "www.linkedin.com/in/lin-li"}})
	require.NoError(t, err)
	require.True(t, again.AlreadyQueued)
	require.Equal(t, withProfile.RecipientID, again.RecipientID)
	_, err = app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Email: "p1@example.com", ProfileURL: "https://www.linkedin.com/in/lin-li"}})
	apptest.RequireCode(t, err, core.CodeRecipientIdentityConflict)

	// A key cannot approve; a member signed in neither.
	approve := approval.QueueDecision{CampaignID: c.ID, RecipientID: first.RecipientID}
	_, err = app.Approvals.ApproveGift(ctx, w.key, approve)
	e := apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	require.Equal(t, first.ApprovalURL, e.URL)
	member := w.env.AddPerson(t, core.RoleMember)
	_, asMember := w.env.SignIn(t, member.Email)
	_, err = app.Approvals.ApproveGift(ctx, asMember, approve)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)

	// An empty balance: 402 with the balance page; then a top-up; then the gift.
	_, err = app.Approvals.ApproveGift(ctx, w.owner, approve)
	e = apptest.RequireCode(t, err, core.CodeInsufficientBalance)
	require.Equal(t, w.env.SiteURL+"/balance", e.URL)
	require.Equal(t, 402, e.Status())
	st, _ = w.state(c.ID, first.RecipientID)
	require.Equal(t, campaign.ApprovalWaiting, st, "a refused approval changes nothing")
	w.env.TopUp(t, w.owner, 10_000)
	sent, err := app.Approvals.ApproveGift(ctx, w.owner, approve)
	require.NoError(t, err)
	require.Equal(t, int64(9_000), sent.TotalCents)
	require.Equal(t, gift.FundedByBalance, sent.FundedBy)
	require.Equal(t, w.env.OwnerID, sent.ApprovedBy)
	require.False(t, sent.AutoApproved)
	require.Equal(t, core.ModeTest, sent.Mode)
	require.Equal(t, "ext-1", sent.Attribution.ExternalID)
	require.Equal(t, int64(1_000), w.balance())
	st, _ = w.state(c.ID, first.RecipientID)
	require.Equal(t, campaign.ApprovalApproved, st)

	// Approving again returns the same gift and charges nothing.
	same, err := app.Approvals.ApproveGift(ctx, w.owner, approve)
	require.NoError(t, err)
	require.Equal(t, sent.ID, same.ID)
	require.Equal(t, int64(1_000), w.balance())
	evs := w.env.GiftEvents(t, sent.ID)
	require.Len(t, evs, 1)
	require.Equal(t, core.EventSendCreated, evs[0].Type)
	require.Equal(t, 1, w.requireOneDebitPerGift())

	// A re-add of an approved person answers with the gift.
	res, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: in})
	require.NoError(t, err)
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalApproved, SendID: sent.ID}, res.Approval)
}

func TestAddToPlaybookRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	add := func(id string, in campaign.RecipientInput) error {
		_, err := app.Approvals.AddToPlaybook(ctx, w.key, id, approval.PlaybookPersonAdd{Recipient: in})
		return err
	}

	apptest.RequireCode(t, add("cmp_nope", newPerson("1")), core.CodeNotFound)
	e := apptest.RequireCode(t, add(c.ID, campaign.RecipientInput{Name: "Bad", Email: "not-an-email"}), core.CodeValidation)
	require.Equal(t, []string{"recipient.email"}, e.Fields)
	require.True(t, strings.HasPrefix(e.Message, "recipient.email: "), e.Message)
	e = apptest.RequireCode(t, add(c.ID, campaign.RecipientInput{Email: "x@example.com"}), core.CodeValidation)
	require.Equal(t, []string{"recipient"}, e.Fields, "no identity")
	apptest.RequireCode(t, add(c.ID, campaign.RecipientInput{RecipientID: "recipient_nope"}), core.CodeNotFound)
	apptest.RequireCode(t, add(c.ID, campaign.RecipientInput{Name: "Art", AssetIDs: []string{"asset_1", "asset_2", "asset_3", "asset_4", "asset_5", "asset_6"}}), core.CodeTooManyArtworkFiles)

	// A note with a placeholder the person lacks.
	e = apptest.RequireCode(t, add(c.ID, campaign.RecipientInput{Name: "Nia", Message: "Hi {{company}} team"}), core.CodeRecipientMessageRequired)
	require.Equal(t, []string{"recipient.message"}, e.Fields)

	// Batches and drafts.
	batch, err := app.Campaigns.CreateCampaign(ctx, w.owner, campaign.CampaignInput{Name: "B", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 5})
	require.NoError(t, err)
	apptest.RequireCode(t, add(batch.ID, newPerson("1")), core.CodeNotAlwaysOn)
	draft, err := app.Campaigns.CreateCampaign(ctx, w.key, campaign.CampaignInput{Name: "D", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A"})
	require.NoError(t, err)
	e = apptest.RequireCode(t, add(draft.ID, newPerson("1")), core.CodePlaybookOff)
	require.Equal(t, draft.ReviewURL, e.URL)
	paused := campaign.StatusPaused
	_, err = app.Campaigns.UpdateCampaign(ctx, w.key, c.ID, campaign.CampaignPatch{Status: &paused, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	e = apptest.RequireCode(t, add(c.ID, newPerson("1")), core.CodePlaybookOff)
	require.Equal(t, c.ReviewURL, e.URL)
	completed := campaign.StatusCompleted
	_, err = app.Campaigns.UpdateCampaign(ctx, w.key, c.ID, campaign.CampaignPatch{Status: &completed, ExpectedPolicyVersion: c.PolicyVersion + 1})
	require.NoError(t, err)
	apptest.RequireCode(t, add(c.ID, newPerson("1")), core.CodeCampaignCompleted)

	got, err := app.Campaigns.GetCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Empty(t, got.Recipients, "refused adds save nothing")
	require.Empty(t, w.events(core.EventPlaybookPersonWaiting))
}

// An add that cannot lock the playbook in time is PLAYBOOK_BUSY and saves
// nothing; an add that meets another approval on the balance is scheduled.
func TestAddToPlaybookBusyAndScheduled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 50_000)

	// Another writer holds the playbook.
	tx, err := app.DB.Begin(ctx)
	require.NoError(t, err)
	_, err = db.New(tx).CampaignGetForUpdate(ctx, db.CampaignGetForUpdateParams{WorkspaceID: w.env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	_, err = app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson("busy")})
	e := apptest.RequireCode(t, err, core.CodePlaybookBusy)
	require.GreaterOrEqual(t, e.RetryAfterMs, int64(250))
	require.LessOrEqual(t, e.RetryAfterMs, int64(999))
	require.True(t, e.Retryable())
	require.NoError(t, tx.Rollback(ctx))
	got, err := app.Campaigns.GetCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Empty(t, got.Recipients, "a busy add saves nothing")

	// Another approval holds the balance for longer than an add waits for
	// its group and the group waits for the lock: the add is answered
	// scheduled, and the failed group queues the playbook's approval job.
	tx = w.holdBalance()
	res, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson("raced")})
	require.NoError(t, err)
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalScheduled}, res.Approval)
	kind := campaign.ScheduledApprovalArgs{}.Kind()
	require.Eventually(t, func() bool { return len(apptest.Jobs(t, app, kind)) == 1 }, 10*time.Second, 10*time.Millisecond,
		"the group gave up and queued the job")
	require.NoError(t, tx.Rollback(ctx))
	again := w.add(c.ID, "raced")
	require.True(t, again.AlreadyQueued)
	require.Equal(t, campaign.ApprovalScheduled, again.Approval.State)

	// One job for the playbook; it approves them.
	jobs := apptest.Jobs(t, app, kind)
	require.Len(t, jobs, 1, "one job per playbook")
	require.JSONEq(t, `{"workspace_id": "`+w.env.WorkspaceID+`", "campaign_id": "`+c.ID+`"}`, string(jobs[0].EncodedArgs))
	n := w.runScheduled()
	require.Equal(t, 1, n)
	st, _ := w.state(c.ID, res.RecipientID)
	require.Equal(t, campaign.ApprovalAutoApproved, st)
	after := w.add(c.ID, "raced")
	require.Equal(t, campaign.ApprovalAutoApproved, after.Approval.State)
	evs := w.env.GiftEvents(t, after.Approval.SendID)
	require.Equal(t, []core.EventType{core.EventSendCreated, core.EventSendAutoApproved}, []core.EventType{evs[0].Type, evs[1].Type})
	n = w.runScheduled()
	require.Zero(t, n, "nothing left")
	require.Equal(t, 1, w.requireOneDebitPerGift())
}

// Auto-approve pays within the per-gift limit, the monthly budget and the
// balance; anything else waits with the first reason.
func TestAutoApproveOnAdd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	// 9,000 a gift; two fit the monthly budget of 20,000.
	c := w.playbook("gourmet-snack-crate", 20_000, 10_000)
	w.env.TopUp(t, w.owner, 25_000)

	one := w.add(c.ID, "1")
	require.Equal(t, campaign.ApprovalAutoApproved, one.Approval.State)
	require.NotEmpty(t, one.Approval.SendID)
	evs := w.env.GiftEvents(t, one.Approval.SendID)
	require.Len(t, evs, 2)
	require.Equal(t, core.EventSendAutoApproved, evs[1].Type)
	var data map[string]any
	require.NoError(t, json.Unmarshal(evs[1].Data, &data))
	require.Equal(t, true, data["autoApproved"])
	require.Equal(t, 9_000.0, data["totalCents"])

	two := w.add(c.ID, "2")
	require.Equal(t, campaign.ApprovalAutoApproved, two.Approval.State)
	three := w.add(c.ID, "3")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonBudgetCap}, three.Approval)
	require.Equal(t, int64(7_000), w.balance())

	// A person cannot approve past the monthly budget either.
	_, err := app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: three.RecipientID})
	apptest.RequireCode(t, err, core.CodeBudgetCap)

	// Another playbook: the balance of 7,000 cannot cover 9,000.
	c2 := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	low := w.add(c2.ID, "4")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonLowBalance}, low.Approval)
	// Funds do not approve waiting people; adding them again does.
	w.env.TopUp(t, w.owner, 5_000)
	st, _ := w.state(c2.ID, low.RecipientID)
	require.Equal(t, campaign.ApprovalWaiting, st)
	again := w.add(c2.ID, "4")
	require.True(t, again.AlreadyQueued)
	require.Equal(t, campaign.ApprovalAutoApproved, again.Approval.State)
	require.Equal(t, int64(3_000), w.balance())
	require.Len(t, w.events(core.EventSendAutoApproved), 3)

	// Per-gift limit, shipping quotes, and a missing detail.
	over := w.playbook("gourmet-snack-crate", 100_000, 8_999)
	require.Equal(t, campaign.ReasonOverPerGiftLimit, w.add(over.ID, "5").Approval.Reason)
	quoted := w.playbook("artisan-cheese-board", 100_000, 10_000)
	require.Equal(t, campaign.ReasonShippingQuote, w.add(quoted.ID, "6").Approval.Reason)
	noMonthly := w.playbook("gourmet-snack-crate", 0, 10_000)
	require.Equal(t, campaign.ReasonBudgetCap, w.add(noMonthly.ID, "7").Approval.Reason)

	// A waiting person added again takes the fields sent: a missing detail filled is approved.
	w.env.TopUp(t, w.owner, 50_000)
	coffee, err := app.Catalog.Get(ctx, "illustrated-city-print")
	require.NoError(t, err)
	details := w.playbook(coffee.ID, 100_000, 20_000)
	needs := w.add(details.ID, "8")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonDetailsRequired}, needs.Approval)
	in := newPerson("8")
	in.Details = map[string]string{}
	for _, d := range coffee.RecipientDetails {
		if d.Required {
			in.Details[d.Key] = "Austin, TX"
		}
	}
	filled, err := app.Approvals.AddToPlaybook(ctx, w.key, details.ID, approval.PlaybookPersonAdd{Recipient: in})
	require.NoError(t, err)
	require.True(t, filled.AlreadyQueued)
	require.Equal(t, campaign.ApprovalAutoApproved, filled.Approval.State)
	w.requireOneDebitPerGift()
}

func TestSkipAndUnskip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	p := w.add(c.ID, "1")
	skip := approval.QueueSkip{CampaignID: c.ID, RecipientID: p.RecipientID, Reason: "Not a fit this quarter"}

	_, err := app.Approvals.SkipGift(ctx, w.key, skip)
	e := apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	require.Equal(t, p.ApprovalURL, e.URL)
	_, err = app.Approvals.SkipGift(ctx, w.owner, approval.QueueSkip{CampaignID: c.ID, RecipientID: p.RecipientID, Reason: strings.Repeat("x", 201)})
	e = apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"reason"}, e.Fields)
	_, err = app.Approvals.SkipGift(ctx, w.owner, approval.QueueSkip{CampaignID: c.ID, RecipientID: "recipient_nope"})
	apptest.RequireCode(t, err, core.CodeNotFound)

	for range 2 {
		res, err := app.Approvals.SkipGift(ctx, w.owner, skip)
		require.NoError(t, err)
		require.True(t, res.Skipped)
	}
	st, _ := w.state(c.ID, p.RecipientID)
	require.Equal(t, campaign.ApprovalSkipped, st)
	_, err = app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson("1")})
	e = apptest.RequireCode(t, err, core.CodeRecipientSkipped)
	require.Equal(t, p.ApprovalURL, e.URL)
	_, err = app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: p.RecipientID})
	apptest.RequireCode(t, err, core.CodeRecipientSkipped)

	for range 2 {
		res, err := app.Approvals.UnskipGift(ctx, w.owner, approval.QueueUnskip{CampaignID: c.ID, RecipientID: p.RecipientID})
		require.NoError(t, err)
		require.False(t, res.Skipped)
	}
	st, reason := w.state(c.ID, p.RecipientID)
	require.Equal(t, campaign.ApprovalWaiting, st)
	require.Equal(t, campaign.ReasonAutoApproveOff, reason)
	require.Len(t, w.events(core.EventPlaybookPersonWaiting), 2, "unskipped people start waiting again")

	// A person with a gift cannot be skipped.
	w.env.TopUp(t, w.owner, 10_000)
	_, err = app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: p.RecipientID})
	require.NoError(t, err)
	_, err = app.Approvals.SkipGift(ctx, w.owner, skip)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
}

// People added to an active playbook through add_recipients or a
// recipients-only PATCH are scheduled with auto-approve on, waiting without.
func TestBackfillsAreScheduled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	on := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	off := w.playbook("gourmet-snack-crate", 0, 0)
	w.env.TopUp(t, w.owner, 20_000)

	added, err := app.Campaigns.AddRecipients(ctx, w.key, on.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("1"), newPerson("2"), newPerson("3")}})
	require.NoError(t, err)
	for _, id := range added.Added {
		st, _ := w.state(on.ID, id)
		require.Equal(t, campaign.ApprovalScheduled, st)
	}
	cur, err := app.Campaigns.GetCampaign(ctx, w.key, on.ID)
	require.NoError(t, err)
	patch := make([]campaign.RecipientInput, 0, 4)
	for _, r := range cur.Recipients {
		patch = append(patch, campaign.RecipientInput{RecipientID: r.RecipientID})
	}
	patched, err := app.Campaigns.UpdateCampaign(ctx, w.key, on.ID, campaign.CampaignPatch{Recipients: append(patch, newPerson("4"))})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, patched.Status)
	st, _ := w.state(on.ID, patched.Recipients[3].RecipientID)
	require.Equal(t, campaign.ApprovalScheduled, st)

	offAdded, err := app.Campaigns.AddRecipients(ctx, w.key, off.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("5")}})
	require.NoError(t, err)
	st, reason := w.state(off.ID, offAdded.Added[0])
	require.Equal(t, campaign.ApprovalWaiting, st)
	require.Equal(t, campaign.ReasonAutoApproveOff, reason)
	require.Len(t, w.events(core.EventPlaybookPersonWaiting), 1)

	// One approval job for the playbook with auto-approve on, none for the other.
	jobs := apptest.Jobs(t, app, campaign.ScheduledApprovalArgs{}.Kind())
	require.Len(t, jobs, 1)
	require.Contains(t, string(jobs[0].EncodedArgs), on.ID)

	// The job: two fit the balance of 20,000 in queue order, the rest wait.
	n := w.runScheduled()
	require.Equal(t, 4, n)
	var states []campaign.ApprovalState
	var reasons []campaign.ApprovalReason
	for _, id := range append(added.Added, patched.Recipients[3].RecipientID) {
		st, r := w.state(on.ID, id)
		states, reasons = append(states, st), append(reasons, r)
	}
	require.Equal(t, []campaign.ApprovalState{campaign.ApprovalAutoApproved, campaign.ApprovalAutoApproved, campaign.ApprovalWaiting, campaign.ApprovalWaiting}, states)
	require.Equal(t, []campaign.ApprovalReason{"", "", campaign.ReasonLowBalance, campaign.ReasonLowBalance}, reasons)
	require.Len(t, w.events(core.EventSendAutoApproved), 2)
	require.Len(t, w.events(core.EventPlaybookPersonWaiting), 3)
	require.Equal(t, 2, w.requireOneDebitPerGift())
}

// A paused playbook's scheduled people stay scheduled; turned off
// auto-approve makes them wait.
func TestScheduledApprovalsFollowThePlaybook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 50_000)
	added, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{newPerson("1")}})
	require.NoError(t, err)

	paused := campaign.StatusPaused
	cur, err := app.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Status: &paused})
	require.NoError(t, err)
	n := w.runScheduled()
	require.Zero(t, n)
	st, _ := w.state(c.ID, added.Added[0])
	require.Equal(t, campaign.ApprovalScheduled, st)
	_, err = app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.Added[0]})
	apptest.RequireCode(t, err, core.CodePlaybookOff)

	active := campaign.StatusActive
	_, err = app.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Status: &active, ExpectedPolicyVersion: cur.PolicyVersion})
	require.NoError(t, err)
	w.autoApprove(c.ID, 0)
	// Turning the playbook on again queued its approval job.
	n = w.runScheduled()
	require.Equal(t, 1, n)
	st, reason := w.state(c.ID, added.Added[0])
	require.Equal(t, campaign.ApprovalWaiting, st)
	require.Equal(t, campaign.ReasonAutoApproveOff, reason)
}

// Repeats wait for a person; approveRepeat records the review with the gift.
func TestApproveRepeat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	w.env.TopUp(t, w.owner, 50_000)
	first := w.playbook("gourmet-snack-crate", 0, 0)
	p := w.add(first.ID, "1")
	_, err := app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: first.ID, RecipientID: p.RecipientID})
	require.NoError(t, err)

	second := w.playbook("vegan-chocolate-collection", 100_000, 10_000)
	r := w.add(second.ID, "1")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonRepeatReview}, r.Approval)
	_, err = app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: second.ID, RecipientID: r.RecipientID})
	e := apptest.RequireCode(t, err, core.CodeRepeatReviewRequired)
	require.Contains(t, e.Message, "approveRepeat")
	sent, err := app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: second.ID, RecipientID: r.RecipientID, ApproveRepeat: true})
	require.NoError(t, err)
	require.Equal(t, int64(4_800), sent.TotalCents)
	repeats, err := app.Approvals.CampaignRepeats(ctx, w.key, second.ID)
	require.NoError(t, err)
	require.Empty(t, repeats, "a gifted person is no longer a pending repeat")
}

// Live mode: unverified gifts and addresses the recipient would confirm.
func TestApproveInLiveMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	live, liveKey := w.owner, w.key
	live.Mode, liveKey.Mode = core.ModeLive, core.ModeLive

	unverified := w.playbook("small-batch-hot-sauce-trio", 100_000, 10_000)
	res, err := app.Approvals.AddToPlaybook(ctx, liveKey, unverified.ID, approval.PlaybookPersonAdd{Recipient: newPerson("1")})
	require.NoError(t, err)
	require.Equal(t, campaign.ReasonProductUnverified, res.Approval.Reason)
	_, err = app.Approvals.ApproveGift(ctx, live, approval.QueueDecision{CampaignID: unverified.ID, RecipientID: res.RecipientID})
	apptest.RequireCode(t, err, core.CodeProductUnverified)

	verified := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	res, err = app.Approvals.AddToPlaybook(ctx, liveKey, verified.ID, approval.PlaybookPersonAdd{Recipient: newPerson("2")})
	require.NoError(t, err)
	require.Equal(t, campaign.ReasonAddressRequired, res.Approval.Reason)
	_, err = app.Approvals.ApproveGift(ctx, live, approval.QueueDecision{CampaignID: verified.ID, RecipientID: res.RecipientID})
	apptest.RequireCode(t, err, core.CodeLiveAddresslessUnavailable)

	// With an address: test funds never pay for live gifts.
	w.env.TopUp(t, w.owner, 50_000)
	in := newPerson("3")
	in.AddressMode, in.Address, in.City, in.State, in.Zip = gift.AddressKnown, "500 Congress Ave", "Austin", "TX", "78701"
	res, err = app.Approvals.AddToPlaybook(ctx, liveKey, verified.ID, approval.PlaybookPersonAdd{Recipient: in})
	require.NoError(t, err)
	require.Equal(t, campaign.ReasonLowBalance, res.Approval.Reason)
	_, err = app.Approvals.ApproveGift(ctx, live, approval.QueueDecision{CampaignID: verified.ID, RecipientID: res.RecipientID})
	apptest.RequireCode(t, err, core.CodeInsufficientBalance)
}

// A lone add finds a repeat by each identity a gift records (email,
// sourceSystem+externalId, profile), whether the add writes it as stored
// or otherwise (case, spaces): the lookup as the playbook is locked, or
// again by the stored person.
func TestAddFindsARepeatByEachIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	w.env.TopUp(t, w.owner, 200_000)
	first := w.playbook("gourmet-snack-crate", 0, 0)
	gifted := campaign.RecipientInput{Name: "Pat Lee", Company: "Acme", Email: "pat@example.com", SourceSystem: "crm", ExternalID: "pat-1",
		ProfileURL: "https://www.linkedin.com/in/pat-lee"}
	r, err := app.Approvals.AddToPlaybook(ctx, w.key, first.ID, approval.PlaybookPersonAdd{Recipient: gifted})
	require.NoError(t, err)
	_, err = app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: first.ID, RecipientID: r.RecipientID})
	require.NoError(t, err)

	for name, in := range map[string]campaign.RecipientInput{
		"email":          {Name: "P. Lee", Email: "pat@example.com"},
		"email, written": {Name: "P. Lee", Email: "  PAT@Example.com "},
		"source pair":    {Name: "P. Lee", SourceSystem: "crm", ExternalID: "pat-1"},
		"source, spaced": {Name: "P. Lee", SourceSystem: " crm ", ExternalID: " pat-1"},
		"profile":        {Name: "P. Lee", ProfileURL: "https://www.linkedin.com/in/pat-lee"},
		"profile, other": {Name: "P. Lee", ProfileURL: "HTTPS://linkedin.com/in/pat-lee/"},
	} {
		second := w.playbook("vegan-chocolate-collection", 100_000, 10_000)
		got, err := app.Approvals.AddToPlaybook(ctx, w.key, second.ID, approval.PlaybookPersonAdd{Recipient: in})
		require.NoError(t, err, name)
		require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonRepeatReview}, got.Approval, name)
	}
	// Someone never gifted is approved at once.
	third := w.playbook("vegan-chocolate-collection", 100_000, 10_000)
	got, err := app.Approvals.AddToPlaybook(ctx, w.key, third.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Sam Roe", Email: "sam@example.com"}})
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, got.Approval.State)
}
