package approval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// crate is the gourmet snack crate's price with delivery.
const crate = 9000

// autoPlaybook creates an active playbook of the snack crate with the
// limits an owner set (budget for 2 gifts, 2 sends, $500 a month) and
// turns auto-approve on up to $100 a gift, as the signed-in owner.
func (e *autoApproveEnv) autoPlaybook(t *testing.T) campaign.Campaign {
	t.Helper()
	ctx := context.Background()
	c, err := e.env.App.Campaigns.CreateCampaign(ctx, e.owner, campaign.CampaignInput{
		Name: "Closed-won thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
		BudgetCents: 2 * crate, MaxSends: 2, MonthlyBudgetCents: 50_000,
	})
	require.NoError(t, err)
	c, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000)})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, c.Status)
	return c
}

func (e *autoApproveEnv) patch(p core.Principal, id string, in campaign.CampaignPatch) (campaign.Campaign, error) {
	return e.env.App.Campaigns.UpdateCampaign(context.Background(), p, id, in)
}

// requireLimits requires that c is still the owner's: on, active, with the
// limits autoPlaybook set, at version.
func (e *autoApproveEnv) requireLimits(t *testing.T, id string, version int64) {
	t.Helper()
	c, err := e.env.App.Campaigns.GetCampaign(context.Background(), e.owner, id)
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, c.Status)
	require.True(t, c.AutoApprove.Enabled)
	require.EqualValues(t, 2*crate, c.BudgetCents)
	require.EqualValues(t, 2, c.MaxSends)
	require.EqualValues(t, crate, c.PerPersonCents)
	require.EqualValues(t, 50_000, *c.MonthlyBudgetCents)
	require.EqualValues(t, 10_000, c.AutoApprove.PerGiftMaxCents)
	require.Equal(t, version, c.PolicyVersion)
}

// TestMemberCannotLiftAutoApproveLimits is hardening finding 1: while
// auto-approve is on, raising any limit that bounds what it may spend needs
// a signed-in owner or admin; lowering is open to every signed-in role.
func TestMemberCannotLiftAutoApproveLimits(t *testing.T) {
	t.Parallel()
	e := newAutoApproveEnv(t)
	c := e.autoPlaybook(t)
	v := c.PolicyVersion

	// The request of the finding.
	_, err := e.patch(e.member, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](100_000_000), MaxSends: apptest.Ptr(2000)})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "budgetCents", "maxSends")
	e.requireLimits(t, c.ID, v)

	// Each limit alone, from a member: refused and named.
	for field, in := range map[string]campaign.CampaignPatch{
		"budgetCents":        {BudgetCents: apptest.Ptr[int64](2*crate + 1)},
		"maxSends":           {MaxSends: apptest.Ptr(3)},
		"perPersonCents":     {PerPersonCents: apptest.Ptr[int64](crate + 1)},
		"monthlyBudgetCents": {MonthlyBudgetCents: apptest.Ptr[int64](50_001)},
	} {
		_, err := e.patch(e.member, c.ID, in)
		requireRefusal(t, err, core.CodeTeamManagerRequired, field)
		require.Contains(t, core.AsError(err).Message, field+": would rise from ")
	}
	_, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_001)})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "perGiftMaxCents")
	_, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: true, MonthlyBudgetCents: apptest.Ptr[int64](50_001)})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "monthlyBudgetCents")
	// A raise hidden among lowerings is still a raise.
	_, err = e.patch(e.member, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](crate), MaxSends: apptest.Ptr(3)})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "maxSends")
	// A new gift that moves the default per-person limit up raises it.
	_, err = e.patch(e.member, c.ID, campaign.CampaignPatch{ProductID: apptest.Ptr("monogram-leather-padfolio")})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "perPersonCents")
	e.requireLimits(t, c.ID, v)

	// A key (the agent) is refused too, with the page where a person does it;
	// the playbook stays on with its limits (no draft, no raise).
	_, err = e.patch(e.key, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](100_000_000), MaxSends: apptest.Ptr(2000), ExpectedPolicyVersion: v})
	ke := apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	require.Equal(t, []string{"budgetCents", "maxSends"}, ke.Fields)
	require.Equal(t, e.env.SiteURL+"/campaigns/"+c.ID+"?review=1", ke.URL)
	e.requireLimits(t, c.ID, v)

	// The spending stays bounded: the third person waits at the send limit.
	e.env.TopUp(t, e.owner, 10*crate)
	for i, want := range []campaign.ApprovalState{campaign.ApprovalAutoApproved, campaign.ApprovalAutoApproved, campaign.ApprovalWaiting} {
		res, err := e.env.App.Approvals.AddToPlaybook(context.Background(), e.key, c.ID, approval.PlaybookPersonAdd{Recipient: newPerson(string(rune('a' + i)))})
		require.NoError(t, err)
		require.Equal(t, want, res.Approval.State, "person %d", i)
		if want == campaign.ApprovalWaiting {
			require.Equal(t, campaign.ReasonSendLimit, res.Approval.Reason)
		}
	}

	// Lowering is open to a member and keeps the playbook on.
	got, err := e.patch(e.member, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](2 * crate), PerPersonCents: apptest.Ptr[int64](crate), MonthlyBudgetCents: apptest.Ptr[int64](40_000)})
	require.NoError(t, err)
	require.EqualValues(t, 40_000, *got.MonthlyBudgetCents)
	require.Equal(t, campaign.StatusActive, got.Status)
	got, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](9_500), ExpectedPolicyVersion: got.PolicyVersion})
	require.NoError(t, err)
	require.EqualValues(t, 9_500, got.AutoApprove.PerGiftMaxCents)

	// An admin and the owner raise them.
	_, adminErr := e.patch(e.admin, c.ID, campaign.CampaignPatch{MaxSends: apptest.Ptr(3)})
	require.NoError(t, adminErr)
	got, err = e.patch(e.owner, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](3 * crate), PerPersonCents: apptest.Ptr[int64](crate + 500)})
	require.NoError(t, err)
	require.EqualValues(t, 3, got.MaxSends)
	require.EqualValues(t, 3*crate, got.BudgetCents)

	// With auto-approve off, a member raises them freely; turning it back
	// on is the owner's or an admin's.
	got, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: false})
	require.NoError(t, err)
	got, err = e.patch(e.member, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](100_000_000), MaxSends: apptest.Ptr(2000)})
	require.NoError(t, err)
	require.EqualValues(t, 2000, got.MaxSends)
	_, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: true})
	requireRefusal(t, err, core.CodeTeamManagerRequired)
}

// TestKeyEditOfAutoApprovingPlaybook: a key's edit that raises no limit
// keeps the spec's path (an active playbook returns to draft); a key's
// lowering returns it to draft too, and a member may turn it on again
// within the lowered limits. A paused playbook stays paused and keeps its
// limits against a key's raise.
func TestKeyEditOfAutoApprovingPlaybook(t *testing.T) {
	t.Parallel()
	e := newAutoApproveEnv(t)
	c := e.autoPlaybook(t)

	got, err := e.patch(e.key, c.ID, campaign.CampaignPatch{BudgetCents: apptest.Ptr[int64](crate), ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusDraft, got.Status)
	require.True(t, got.AutoApprove.Enabled)
	got, err = e.patch(e.member, c.ID, campaign.CampaignPatch{Status: apptest.Ptr(campaign.StatusActive)})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, got.Status)
	require.EqualValues(t, crate, got.BudgetCents)

	// A draft or paused playbook with auto-approve on: a member turns it
	// on again, so its limits are guarded as well.
	got, err = e.patch(e.key, c.ID, campaign.CampaignPatch{Status: apptest.Ptr(campaign.StatusPaused), ExpectedPolicyVersion: got.PolicyVersion})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusPaused, got.Status)
	_, err = e.patch(e.key, c.ID, campaign.CampaignPatch{MaxSends: apptest.Ptr(2000), ExpectedPolicyVersion: got.PolicyVersion})
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	_, err = e.patch(e.member, c.ID, campaign.CampaignPatch{MaxSends: apptest.Ptr(2000)})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "maxSends")
}

// TestBatchDetourCannotLiftAutoApproveLimits: a playbook whose rule is on
// and that a member made a batch cannot grow its limits through the
// roster (a batch's limits expand to fit its people) and come back.
func TestBatchDetourCannotLiftAutoApproveLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newAutoApproveEnv(t)
	c := e.autoPlaybook(t)

	b, err := e.patch(e.member, c.ID, campaign.CampaignPatch{Mode: apptest.Ptr(campaign.ModeBatch), Status: apptest.Ptr(campaign.StatusPaused)})
	require.NoError(t, err)
	require.Equal(t, campaign.ModeBatch, b.Mode)
	people := []campaign.RecipientInput{newPerson("1"), newPerson("2"), newPerson("3")}
	_, err = e.env.App.Campaigns.AddRecipients(ctx, e.member, c.ID, campaign.RecipientsAdd{Recipients: people})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "budgetCents", "maxSends")
	_, err = e.patch(e.member, c.ID, campaign.CampaignPatch{Recipients: people})
	requireRefusal(t, err, core.CodeTeamManagerRequired, "budgetCents", "maxSends")
	// Within the limits the roster grows.
	_, err = e.env.App.Campaigns.AddRecipients(ctx, e.member, c.ID, campaign.RecipientsAdd{Recipients: people[:2]})
	require.NoError(t, err)
	got, err := e.env.App.Campaigns.AddRecipients(ctx, e.owner, c.ID, campaign.RecipientsAdd{Recipients: people})
	require.NoError(t, err)
	require.EqualValues(t, 3, got.MaxSends, "an owner's add expands the batch")
}
