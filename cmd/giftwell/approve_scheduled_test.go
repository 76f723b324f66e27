package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// A backfill to a playbook with auto-approve on is scheduled, and the River
// client serve starts works the approval job the backfill inserted.
func TestJobsApproveScheduledPeople(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: 100_000})
	require.NoError(t, err)
	rule, err := json.Marshal(campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: env.OwnerID})
	require.NoError(t, err)
	q := db.New(env.App.DB)
	_, err = q.CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: apptest.Epoch, WorkspaceID: env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	s, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 10_000, IdempotencyKey: "job-topup-1"})
	require.NoError(t, err)
	require.NoError(t, env.App.Ledger.CompleteTopup(ctx, s.SessionID))
	added, err := env.App.Campaigns.AddRecipients(ctx, owner, c.ID, campaign.RecipientsAdd{Recipients: []campaign.RecipientInput{{Name: "Ana", SourceSystem: "crm", ExternalID: "1"}}})
	require.NoError(t, err)

	startJobs(t, env, &outbox{})
	require.Eventually(t, func() bool {
		r, err := q.RecipientGetForApproval(ctx, db.RecipientGetForApprovalParams{CampaignID: c.ID, ID: added.Added[0]})
		return err == nil && r.ApprovalState == string(campaign.ApprovalAutoApproved)
	}, 20*time.Second, 50*time.Millisecond, "the backfill's approval job ran and approved the scheduled person")
}
