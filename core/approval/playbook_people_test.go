package approval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A person added by name only, again and again, is one person: never two
// gifts silently.
func TestNameOnlyAddIsOnePerson(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	add := func(in campaign.RecipientInput) (approval.AddPersonResult, error) {
		return app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: in})
	}

	first, err := add(campaign.RecipientInput{Name: "Priya Raman"})
	require.NoError(t, err)
	require.False(t, first.AlreadyQueued)
	for _, again := range []campaign.RecipientInput{
		{Name: "Priya Raman"},
		{Name: "  priya   RAMAN "},
		{Name: "Priya Raman", Title: "VP Sales"},
	} {
		res, err := add(again)
		require.NoError(t, err)
		require.True(t, res.AlreadyQueued, "%+v", again)
		require.Equal(t, first.RecipientID, res.RecipientID)
		require.Equal(t, campaign.ApprovalWaiting, res.Approval.State)
	}
	got, err := app.Campaigns.GetCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Len(t, got.Recipients, 1)
	require.Equal(t, "VP Sales", got.Recipients[0].Title, "a waiting person takes the fields sent")
	require.Len(t, w.events(core.EventPlaybookPersonWaiting), 1)

	// Another company, or one where none was given, is another person.
	other, err := add(campaign.RecipientInput{Name: "Priya Raman", Company: "Globex"})
	require.NoError(t, err)
	require.False(t, other.AlreadyQueued)
	same, err := add(campaign.RecipientInput{Name: "priya raman", Company: " GLOBEX"})
	require.NoError(t, err)
	require.True(t, same.AlreadyQueued)
	require.Equal(t, other.RecipientID, same.RecipientID)

	// An identifier is an identity: it never matches by name.
	withEmail, err := add(campaign.RecipientInput{Name: "Priya Raman", Email: "priya@initech.example"})
	require.NoError(t, err)
	require.False(t, withEmail.AlreadyQueued)
	// Now the name alone names two people: the add says so.
	_, err = add(campaign.RecipientInput{Name: "Priya Raman"})
	e := apptest.RequireCode(t, err, core.CodeRecipientIdentityConflict)
	require.Contains(t, e.Message, first.RecipientID)
	require.Contains(t, e.Message, withEmail.RecipientID)
	require.Contains(t, e.Message, "recipientId")

	// A gifted person sent again by name is that person, with their gift.
	w.env.TopUp(t, w.owner, 100_00)
	sent, err := app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: other.RecipientID})
	require.NoError(t, err)
	res, err := add(campaign.RecipientInput{Name: "Priya Raman", Company: "Globex"})
	require.NoError(t, err)
	require.True(t, res.AlreadyQueued)
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalApproved, SendID: sent.ID}, res.Approval)

	// A skipped person sent again by name stays skipped.
	_, err = add(campaign.RecipientInput{Name: "Ada Byron", Company: "Engines"})
	require.NoError(t, err)
	ada, err := add(campaign.RecipientInput{Name: "ada byron", Company: "engines"})
	require.NoError(t, err)
	_, err = app.Approvals.SkipGift(ctx, w.owner, approval.QueueSkip{CampaignID: c.ID, RecipientID: ada.RecipientID})
	require.NoError(t, err)
	_, err = add(campaign.RecipientInput{Name: "Ada Byron", Company: "Engines"})
	apptest.RequireCode(t, err, core.CodeRecipientSkipped)
	require.Equal(t, 1, w.requireOneDebitPerGift())
}

// add_recipients matches name-only people the same way, within one request
// as against the roster.
func TestAddRecipientsNameOnlyIsOnePerson(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	people := []campaign.RecipientInput{{Name: "Priya Raman", Company: "Acme"}, {Name: "Bo Chen"}, {Name: "priya raman", Company: "ACME "}}
	res, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: people})
	require.NoError(t, err)
	require.Len(t, res.Added, 2)
	require.Equal(t, []campaign.SkippedRecipient{{Index: 2, RecipientID: res.Added[0], Reason: "already on the roster (same name and company)"}}, res.Skipped)

	again, err := app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: people[:2]})
	require.NoError(t, err)
	require.Empty(t, again.Added)
	require.Len(t, again.Skipped, 2)
	require.Equal(t, 2, again.RecipientCount)
	require.Nil(t, again.StatusChange, "an add to an active playbook keeps it on")
}

// Every note problem on an add is RECIPIENT_MESSAGE_REQUIRED, as the spec's
// table says; other problems keep VALIDATION_ERROR.
func TestAddNoteProblemsAreMessageRequired(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	for _, note := range []string{strings.Repeat("x", 600), "Hi {{nickname}}", strings.Repeat("y", 1001)} {
		_, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Nia", Message: note}})
		e := apptest.RequireCode(t, err, core.CodeRecipientMessageRequired)
		require.Contains(t, e.Fields, "recipient.message")
		_, err = app.Campaigns.AddRecipients(ctx, w.key, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{{Name: "Nia", Message: note}}})
		e = apptest.RequireCode(t, err, core.CodeRecipientMessageRequired)
		require.Contains(t, e.Fields, "recipients[0].message")
	}
	// A note's problem beside another field's is one VALIDATION_ERROR naming both.
	_, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: "Nia", Email: "not an email", Message: strings.Repeat("x", 600)}})
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.ElementsMatch(t, []string{"recipient.email", "recipient.message"}, e.Fields)
	got, err := app.Campaigns.GetCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Empty(t, got.Recipients)
}

// A key's content edit returns a live playbook to draft, and says so.
func TestEditSaysStatusChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	name := "Closed-won thanks (v2)"
	out, err := app.Campaigns.UpdateCampaign(ctx, w.key, c.ID, campaign.CampaignPatch{Name: &name, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusDraft, out.Status)
	require.NotNil(t, out.StatusChange)
	require.Equal(t, campaign.StatusActive, out.StatusChange.From)
	require.Equal(t, campaign.StatusDraft, out.StatusChange.To)
	require.Equal(t, out.ReviewURL, out.StatusChange.ReviewURL)
	require.Contains(t, out.StatusChange.Message, "PLAYBOOK_OFF")
	_, err = app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson("1")})
	apptest.RequireCode(t, err, core.CodePlaybookOff)

	// A write that keeps the status says nothing; reads never carry it.
	name = "Closed-won thanks (v3)"
	out, err = app.Campaigns.UpdateCampaign(ctx, w.key, c.ID, campaign.CampaignPatch{Name: &name, ExpectedPolicyVersion: out.PolicyVersion})
	require.NoError(t, err)
	require.Nil(t, out.StatusChange)
	got, err := app.Campaigns.GetCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Nil(t, got.StatusChange)

	// add_recipients to an active batch returns it to draft: the answer says so.
	b, err := app.Campaigns.CreateCampaign(ctx, w.owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 5,
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks {{firstName}}", Recipients: []campaign.RecipientInput{{Name: "Al"}},
	})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusDraft, b.Status)
	added, err := app.Campaigns.AddRecipients(ctx, w.key, b.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{{Name: "Bea"}}, ExpectedPolicyVersion: b.PolicyVersion})
	require.NoError(t, err)
	require.Nil(t, added.StatusChange, "a draft stays a draft")
}

// A waiting add carries the person's queue blockers, and topUpUrl when the
// balance cannot cover the gift.
func TestWaitingAddCarriesBlockersAndTopUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)

	res := w.add(c.ID, "1")
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonAutoApproveOff}, res.Approval)
	require.Equal(t, []string{campaign.ReasonLowBalance.Blocker()}, res.Blockers, "a zero balance blocks too")
	require.Equal(t, w.env.SiteURL+"/balance", res.TopUpURL)
	items, err := app.Approvals.Queue(ctx, w.owner, c.ID)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, items[0].Blockers, res.Blockers, "the queue's own texts")

	// Funded: nothing blocks an owner's approval, and no top-up is asked.
	w.env.TopUp(t, w.owner, 1_000_00)
	res = w.add(c.ID, "2")
	require.Equal(t, campaign.ApprovalWaiting, res.Approval.State)
	require.NotNil(t, res.Blockers)
	require.Empty(t, res.Blockers)
	require.Empty(t, res.TopUpURL)

	// A person's own blocker shows as the queue shows it.
	res, err = app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson("1")})
	require.NoError(t, err)
	require.True(t, res.AlreadyQueued)
	require.Empty(t, res.Blockers, "the balance now covers the first person")
}

// Skipped people are never counted as owed.
func TestPreviewDoesNotOweSkippedPeople(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	c := w.playbook("gourmet-snack-crate", 0, 0)
	var ids []string
	for _, n := range []string{"1", "2", "3", "4"} {
		ids = append(ids, w.add(c.ID, n).RecipientID)
	}
	w.env.TopUp(t, w.owner, 1_000_00)
	_, err := app.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: ids[0]})
	require.NoError(t, err)
	for _, id := range ids[1:3] {
		_, err = app.Approvals.SkipGift(ctx, w.owner, approval.QueueSkip{CampaignID: c.ID, RecipientID: id})
		require.NoError(t, err)
	}
	pv, err := app.Campaigns.PreviewCampaign(ctx, w.key, c.ID)
	require.NoError(t, err)
	require.Equal(t, 4, pv.RecipientCount)
	require.Equal(t, 1, pv.AlreadySent)
	require.Equal(t, 2, pv.Skipped)
	require.Equal(t, 1, pv.ToSend)
	require.Equal(t, pv.UnitCents, pv.TotalCents, "one person owed")
	for _, b := range pv.Blockers {
		require.NotContains(t, ids[1:3], b.RecipientID, "a skipped person blocks nothing")
	}
}
