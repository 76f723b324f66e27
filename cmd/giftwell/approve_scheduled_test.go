package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
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
	c, err := env.App.CreateCampaign(ctx, owner, core.CampaignInput{Name: "Closed-won", Mode: core.ModeAlwaysOn, Status: core.StatusActive,
		ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: 100_000})
	require.NoError(t, err)
	rule, err := json.Marshal(core.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: env.OwnerID})
	require.NoError(t, err)
	q := db.New(env.App.DB)
	_, err = q.CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: apptest.Epoch, WorkspaceID: env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	s, err := env.App.CreateBalanceTopup(ctx, owner, core.TopupParams{Cents: 10_000, IdempotencyKey: "job-topup-1"})
	require.NoError(t, err)
	require.NoError(t, env.App.CompleteTopup(ctx, s.SessionID))
	added, err := env.App.AddRecipients(ctx, owner, c.ID, core.RecipientsAdd{Recipients: []core.RecipientInput{{Name: "Ana", SourceSystem: "crm", ExternalID: "1"}}})
	require.NoError(t, err)

	j, err := newJobs(env.App.DB, slog.New(slog.DiscardHandler), env.App, &outbox{})
	require.NoError(t, err)
	require.NoError(t, j.Start(ctx))
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, j.Stop(stopCtx))
	})
	require.Eventually(t, func() bool {
		r, err := q.RecipientGetForApproval(ctx, db.RecipientGetForApprovalParams{CampaignID: c.ID, ID: added.Added[0]})
		return err == nil && r.ApprovalState == string(core.ApprovalAutoApproved)
	}, 20*time.Second, 50*time.Millisecond, "the backfill's approval job ran and approved the scheduled person")
}
