package approval_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestQuoteSendThenCommitSend(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	ctx := context.Background()
	app := e.env.App
	c, err := app.Campaigns.CreateCampaign(ctx, e.key, campaign.CampaignInput{
		Name: "Batch", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme",
		BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 10,
		Message: "Thanks, {{firstName}}!", Recipients: []campaign.RecipientInput{newPerson("1"), newPerson("2"), newPerson("3")},
	})
	require.NoError(t, err)
	skipped := c.Recipients[2].RecipientID
	_, err = app.DB.Exec(ctx, `UPDATE recipients SET approval_state = 'skipped', skipped_at = now() WHERE id = $1`, skipped)
	require.NoError(t, err)

	// Playbooks never quote: their gifts come through approval.
	pb := e.playbook("gourmet-snack-crate", campaign.CampaignInput{})
	_, err = app.Approvals.QuoteSend(ctx, e.key, pb.ID)
	apptest.RequireCode(t, err, core.CodeApprovalRequired)

	q, err := app.Approvals.QuoteSend(ctx, e.key, c.ID)
	require.NoError(t, err)
	require.Equal(t, c.ID, q.CampaignID)
	require.Equal(t, []approval.QuoteItem{
		{RecipientID: c.Recipients[0].RecipientID, RecipientName: "Person 1", UnitCents: crateCents},
		{RecipientID: c.Recipients[1].RecipientID, RecipientName: "Person 2", UnitCents: crateCents},
	}, q.Items, "the skipped person is owed nothing")
	require.Equal(t, 2*crateCents, q.TotalCents)
	require.Equal(t, apptest.Epoch.Add(15*time.Minute), q.ExpiresAt.UTC())
	require.True(t, q.DeliveryIncluded)
	require.Empty(t, q.SendIDs)

	// Only a signed-in owner or admin commits, from a balance that covers it.
	_, err = app.Approvals.CommitSend(ctx, e.key, q.ID)
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	_, err = app.Approvals.CommitSend(ctx, e.owner, q.ID)
	apptest.RequireCode(t, err, core.CodeInsufficientBalance)
	e.env.TopUp(t, e.owner, 20_000)
	_, err = app.Approvals.CommitSend(ctx, e.owner, "quo_none")
	apptest.RequireCode(t, err, core.CodeNotFound)

	done, err := app.Approvals.CommitSend(ctx, e.owner, q.ID)
	require.NoError(t, err)
	require.Len(t, done.SendIDs, 2)
	again, err := app.Approvals.CommitSend(ctx, e.owner, q.ID)
	require.NoError(t, err)
	require.Equal(t, done.SendIDs, again.SendIDs, "committing twice makes no second gift")
	for i, id := range done.SendIDs {
		g, err := app.Gifts.Get(ctx, e.key, id)
		require.NoError(t, err)
		require.Equal(t, gift.FundedByBalance, g.FundedBy)
		require.Equal(t, crateCents, g.TotalCents)
		require.Equal(t, c.Recipients[i].RecipientID, g.RecipientID)
	}
	b, err := app.Approvals.Balance(ctx, e.owner)
	require.NoError(t, err)
	require.Equal(t, 20_000-2*crateCents, b.Cents)
	e.env.RequireLedgerConsistent(t, e.owner)

	// Everyone has a gift now; a second quote has nobody to gift.
	_, err = app.Approvals.QuoteSend(ctx, e.key, c.ID)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
}

func TestCommitSendRefusesExpiredAndChangedQuotes(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	ctx := context.Background()
	app := e.env.App
	e.env.TopUp(t, e.owner, 100_000)
	c, err := app.Campaigns.CreateCampaign(ctx, e.key, campaign.CampaignInput{
		Name: "Single", Mode: campaign.ModeSingle, ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme",
		BudgetCents: 10_000, PerPersonCents: 10_000, MaxSends: 1,
		Message: "Thanks, {{firstName}}!", Recipients: []campaign.RecipientInput{newPerson("1")},
	})
	require.NoError(t, err)

	old, err := app.Approvals.QuoteSend(ctx, e.key, c.ID)
	require.NoError(t, err)
	e.env.Clock.Advance(15 * time.Minute)
	_, err = app.Approvals.CommitSend(ctx, e.owner, old.ID)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	q, err := app.Approvals.QuoteSend(ctx, e.key, c.ID)
	require.NoError(t, err)
	name := "Renamed"
	_, err = app.Campaigns.UpdateCampaign(ctx, e.key, c.ID, campaign.CampaignPatch{Name: &name, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	_, err = app.Approvals.CommitSend(ctx, e.owner, q.ID)
	apptest.RequireCode(t, err, core.CodePolicyChanged)
	b, err := app.Approvals.Balance(ctx, e.owner)
	require.NoError(t, err)
	require.Equal(t, int64(100_000), b.Cents, "nothing was charged")
}
