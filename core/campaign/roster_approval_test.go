package campaign_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A playbook's roster says where each person stands in the queue: waiting
// with its reason, approved with its gift, skipped; a batch's says nothing.
func TestRosterShowsApprovalStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	env.TopUp(t, owner, 100_000)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "States", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	ids := map[string]string{}
	for _, n := range []string{"Ana Waits", "Ben Gifted", "Cy Skipped"} {
		res, err := env.App.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: n}})
		require.NoError(t, err)
		ids[n] = res.RecipientID
	}
	sent, err := env.App.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: ids["Ben Gifted"]})
	require.NoError(t, err)
	_, err = env.App.Approvals.SkipGift(ctx, owner, approval.QueueSkip{CampaignID: c.ID, RecipientID: ids["Cy Skipped"]})
	require.NoError(t, err)

	got, err := env.App.Campaigns.GetCampaign(ctx, key, c.ID)
	require.NoError(t, err)
	states := map[string]campaign.PlaybookApproval{}
	for _, r := range got.Recipients {
		require.NotNil(t, r.Approval, r.Name)
		states[r.Name] = *r.Approval
	}
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: campaign.ReasonAutoApproveOff}, states["Ana Waits"])
	require.Equal(t, campaign.PlaybookApproval{State: campaign.ApprovalApproved, SendID: sent.ID}, states["Ben Gifted"])
	require.Equal(t, campaign.ApprovalSkipped, states["Cy Skipped"].State)
	require.Empty(t, states["Cy Skipped"].Reason)

	batch, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Batch", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme",
		Message: "Thanks, {{firstName}}!", BudgetCents: 100_000, PerPersonCents: 10_000, MaxSends: 5,
		Recipients: []campaign.RecipientInput{{Name: "Dee Batch"}},
	})
	require.NoError(t, err)
	require.Nil(t, batch.Recipients[0].Approval, "only playbooks queue people")
}
