package campaign_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestMonthlyBudgetRaiseWhileAutoApproveIsOn: PATCH rule 4.
func TestMonthlyBudgetRaiseWhileAutoApproveIsOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	c, err := env.App.Campaigns.CreateCampaign(ctx, key, campaign.CampaignInput{
		Name: "Auto", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A", MonthlyBudgetCents: 50000,
	})
	require.NoError(t, err)
	rule, err := json.Marshal(campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10000, EnabledBy: env.OwnerID, EnabledAt: apptest.Ptr(apptest.Epoch)})
	require.NoError(t, err)
	n, err := db.New(env.App.DB).CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: apptest.Epoch, WorkspaceID: env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)

	got, err := env.App.Campaigns.GetCampaign(ctx, key, c.ID)
	require.NoError(t, err)
	require.NotNil(t, got.AutoApprove)
	require.True(t, got.AutoApprove.Enabled)

	// A key may lower it, never raise it.
	_, err = env.App.Campaigns.UpdateCampaign(ctx, key, c.ID, campaign.CampaignPatch{MonthlyBudgetCents: apptest.Ptr[int64](60000), ExpectedPolicyVersion: 1})
	e := core.AsError(err)
	require.Equal(t, core.CodeHumanApprovalRequired, e.Code)
	require.Equal(t, []string{"monthlyBudgetCents"}, e.Fields)
	require.Equal(t, env.SiteURL+"/campaigns/"+c.ID+"?review=1", e.URL)
	// A signed-in member may not either.
	_, memberKey := env.AddMember(t, core.RoleMember)
	member, err := env.App.Connect.Authenticate(ctx, memberKey)
	require.NoError(t, err)
	member.Via = core.ViaSession
	_, err = env.App.Campaigns.UpdateCampaign(ctx, member, c.ID, campaign.CampaignPatch{MonthlyBudgetCents: apptest.Ptr[int64](60000)})
	require.Equal(t, core.CodeTeamManagerRequired, core.ErrorCode(err))
	got, err = env.App.Campaigns.GetCampaign(ctx, key, c.ID)
	require.NoError(t, err)
	require.EqualValues(t, 50000, *got.MonthlyBudgetCents)
	require.EqualValues(t, 1, got.PolicyVersion)

	got, err = env.App.Campaigns.UpdateCampaign(ctx, key, c.ID, campaign.CampaignPatch{MonthlyBudgetCents: apptest.Ptr[int64](40000), ExpectedPolicyVersion: 1})
	require.NoError(t, err)
	require.EqualValues(t, 40000, *got.MonthlyBudgetCents)
	owner := key
	owner.Via = core.ViaSession
	got, err = env.App.Campaigns.UpdateCampaign(ctx, owner, c.ID, campaign.CampaignPatch{MonthlyBudgetCents: apptest.Ptr[int64](90000)})
	require.NoError(t, err)
	require.EqualValues(t, 90000, *got.MonthlyBudgetCents)
}
