package approval_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// autoApproveEnv is an Env with a draft playbook and signed-in principals.
type autoApproveEnv struct {
	env                  *apptest.Env
	key                  core.Principal
	owner, admin, member core.Principal
	adminID, memberID    string
}

func newAutoApproveEnv(t *testing.T) *autoApproveEnv {
	t.Helper()
	ctx := context.Background()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	_, owner := env.SignIn(t, env.OwnerEmail)
	admin := env.AddPerson(t, core.RoleAdmin)
	member := env.AddPerson(t, core.RoleMember)
	_, adminP := env.SignIn(t, admin.Email)
	_, memberP := env.SignIn(t, member.Email)
	return &autoApproveEnv{env: env, key: key, owner: owner, admin: adminP, member: memberP, adminID: admin.UserID, memberID: member.UserID}
}

// playbook creates a draft playbook with the monthly budget (0: none).
func (e *autoApproveEnv) playbook(t *testing.T, monthly int64) campaign.Campaign {
	t.Helper()
	c, err := e.env.App.Campaigns.CreateCampaign(context.Background(), e.key, campaign.CampaignInput{
		Name: "Auto", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A", MonthlyBudgetCents: monthly,
	})
	require.NoError(t, err)
	return c
}

func (e *autoApproveEnv) set(p core.Principal, id string, in approval.AutoApproveSettings) (campaign.Campaign, error) {
	return e.env.App.Approvals.SetAutoApprove(context.Background(), p, id, in)
}

// requireRefusal is requireCode, and the fields the error names.
func requireRefusal(t *testing.T, err error, code core.Code, fields ...string) {
	t.Helper()
	e := apptest.RequireCode(t, err, code)
	if len(fields) > 0 {
		require.Equal(t, fields, e.Fields, e.Message)
		require.Contains(t, e.Message, fields[0])
	}
}

func TestAutoApproveRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newAutoApproveEnv(t)
	c := e.playbook(t, 0)
	require.Nil(t, c.AutoApprove)
	require.EqualValues(t, 1, c.PolicyVersion)

	// Bounds, named by field.
	for _, tc := range []struct {
		in    approval.AutoApproveSettings
		field string
	}{
		{approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](99), MonthlyBudgetCents: apptest.Ptr[int64](50_000)}, "perGiftMaxCents"},
		{approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](100_001), MonthlyBudgetCents: apptest.Ptr[int64](500_000)}, "perGiftMaxCents"},
		{approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](100), MonthlyBudgetCents: apptest.Ptr[int64](99)}, "monthlyBudgetCents"},
		{approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](100), MonthlyBudgetCents: apptest.Ptr[int64](100_000_001)}, "monthlyBudgetCents"},
		{approval.AutoApproveSettings{Enabled: false, PerGiftMaxCents: apptest.Ptr[int64](0)}, "perGiftMaxCents"},
	} {
		_, err := e.set(e.owner, c.ID, tc.in)
		requireRefusal(t, err, core.CodeValidation, tc.field)
	}
	// The bounds themselves are accepted.
	_, err := e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: false, PerGiftMaxCents: apptest.Ptr[int64](100_000), MonthlyBudgetCents: apptest.Ptr[int64](100_000_000)})
	require.NoError(t, err)
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: false, PerGiftMaxCents: apptest.Ptr[int64](100), MonthlyBudgetCents: apptest.Ptr[int64](100)})
	require.NoError(t, err)

	// A fresh playbook without a monthly budget: turning on needs one, then a per-gift limit at most the budget.
	c = e.playbook(t, 0)
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000)})
	requireRefusal(t, err, core.CodeMonthlyBudgetRequired, "monthlyBudgetCents")
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, MonthlyBudgetCents: apptest.Ptr[int64](50_000)})
	requireRefusal(t, err, core.CodeValidation, "perGiftMaxCents")
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](50_001), MonthlyBudgetCents: apptest.Ptr[int64](50_000)})
	requireRefusal(t, err, core.CodeValidation, "perGiftMaxCents")
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000), MonthlyBudgetCents: apptest.Ptr[int64](50_000), ExpectedPolicyVersion: 2})
	requireRefusal(t, err, core.CodePolicyChanged, "expectedPolicyVersion")
	got, err := e.env.App.Campaigns.GetCampaign(ctx, e.key, c.ID)
	require.NoError(t, err)
	require.Nil(t, got.AutoApprove, "nothing was stored by the refusals")
	require.Nil(t, got.MonthlyBudgetCents)
	require.EqualValues(t, 1, got.PolicyVersion)

	// Turning it on records who and when, and bumps the version.
	on, err := e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000), MonthlyBudgetCents: apptest.Ptr[int64](50_000), ExpectedPolicyVersion: 1})
	require.NoError(t, err)
	require.EqualValues(t, 2, on.PolicyVersion)
	require.Equal(t, &campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: e.env.OwnerID, EnabledAt: apptest.Ptr(apptest.Epoch)}, on.AutoApprove)
	require.EqualValues(t, 50_000, *on.MonthlyBudgetCents)
	got, err = e.env.App.Campaigns.GetCampaign(ctx, e.key, c.ID)
	require.NoError(t, err)
	require.Equal(t, on.AutoApprove, got.AutoApprove, "stored as returned")
	require.Equal(t, campaign.StatusDraft, got.Status, "the rule does not change the status")

	// The same settings again change nothing.
	same, err := e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000)})
	require.NoError(t, err)
	require.EqualValues(t, 2, same.PolicyVersion)

	// Turning it off keeps the limits (and who last turned it on).
	e.env.Clock.Advance(time.Hour)
	off, err := e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: false, ExpectedPolicyVersion: 2})
	require.NoError(t, err)
	require.EqualValues(t, 3, off.PolicyVersion)
	require.Equal(t, &campaign.AutoApprove{Enabled: false, PerGiftMaxCents: 10_000, EnabledBy: e.env.OwnerID, EnabledAt: apptest.Ptr(apptest.Epoch)}, off.AutoApprove)
	require.EqualValues(t, 50_000, *off.MonthlyBudgetCents)

	// Turning it on again uses the kept limits; the admin who does it is recorded.
	again, err := e.set(e.admin, c.ID, approval.AutoApproveSettings{Enabled: true})
	require.NoError(t, err)
	require.EqualValues(t, 4, again.PolicyVersion)
	require.Equal(t, &campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 10_000, EnabledBy: e.adminID, EnabledAt: apptest.Ptr(apptest.Epoch.Add(time.Hour))}, again.AutoApprove)

	// A limit change while on keeps who turned it on.
	e.env.Clock.Advance(time.Hour)
	lowered, err := e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](9_000)})
	require.NoError(t, err)
	require.Equal(t, &campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 9_000, EnabledBy: e.adminID, EnabledAt: apptest.Ptr(apptest.Epoch.Add(time.Hour))}, lowered.AutoApprove)
	// A per-gift limit above the stored budget is refused while on.
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, MonthlyBudgetCents: apptest.Ptr[int64](8_000)})
	requireRefusal(t, err, core.CodeValidation, "perGiftMaxCents")

	// A playbook created with a monthly budget needs only the per-gift limit.
	withBudget := e.playbook(t, 40_000)
	on, err = e.set(e.owner, withBudget.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000)})
	require.NoError(t, err)
	require.True(t, on.AutoApprove.Enabled)
	require.EqualValues(t, 40_000, *on.MonthlyBudgetCents)

	// Turning off a playbook that never had a rule changes nothing.
	fresh := e.playbook(t, 0)
	unchanged, err := e.set(e.member, fresh.ID, approval.AutoApproveSettings{Enabled: false})
	require.NoError(t, err)
	require.Nil(t, unchanged.AutoApprove)
	require.EqualValues(t, 1, unchanged.PolicyVersion)
}

func TestAutoApproveRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newAutoApproveEnv(t)
	turnOn := approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000), MonthlyBudgetCents: apptest.Ptr[int64](50_000)}

	batch, err := e.env.App.Campaigns.CreateCampaign(ctx, e.key, campaign.CampaignInput{Name: "B", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "S", SenderCompany: "A", BudgetCents: 100_000, PerPersonCents: 9_000, MaxSends: 10})
	require.NoError(t, err)
	_, err = e.set(e.owner, batch.ID, turnOn)
	requireRefusal(t, err, core.CodeNotAlwaysOn)
	_, err = e.set(e.owner, batch.ID, approval.AutoApproveSettings{Enabled: false})
	requireRefusal(t, err, core.CodeNotAlwaysOn)

	done := e.playbook(t, 0)
	_, err = e.env.App.Campaigns.UpdateCampaign(ctx, e.key, done.ID, campaign.CampaignPatch{Status: apptest.Ptr(campaign.StatusCompleted), ExpectedPolicyVersion: 1})
	require.NoError(t, err)
	_, err = e.set(e.owner, done.ID, turnOn)
	requireRefusal(t, err, core.CodeCampaignCompleted)

	_, err = e.set(e.owner, "cmp_nope", turnOn)
	requireRefusal(t, err, core.CodeNotFound, "id")
	other := apptest.NewWorkspace(t, e.env.App, apptest.WorkspaceOptions{})
	otherKey, err := e.env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	foreign, err := e.env.App.Campaigns.CreateCampaign(ctx, otherKey, campaign.CampaignInput{Name: "F", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A"})
	require.NoError(t, err)
	_, err = e.set(e.owner, foreign.ID, turnOn)
	requireRefusal(t, err, core.CodeNotFound, "id")

	_, err = e.set(core.Principal{}, e.playbook(t, 0).ID, turnOn)
	requireRefusal(t, err, core.CodeAuthRequired)
}

func TestAutoApproveRoleMatrix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newAutoApproveEnv(t)
	c := e.playbook(t, 0)
	turnOn := approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](10_000), MonthlyBudgetCents: apptest.Ptr[int64](50_000)}
	version := func() int64 {
		got, err := e.env.App.Campaigns.GetCampaign(ctx, e.key, c.ID)
		require.NoError(t, err)
		return got.PolicyVersion
	}

	// Keys and connections never, whatever the change: the url is the review page.
	connection := core.Principal{WorkspaceID: e.env.WorkspaceID, UserID: e.env.OwnerID, Role: core.RoleOwner, Via: core.ViaConnection, Scopes: core.AllScopes, Mode: core.ModeTest}
	for _, p := range []core.Principal{e.key, connection} {
		for _, in := range []approval.AutoApproveSettings{turnOn, {Enabled: false}} {
			_, err := e.set(p, c.ID, in)
			requireRefusal(t, err, core.CodeHumanApprovalRequired)
			require.Equal(t, e.env.SiteURL+"/campaigns/"+c.ID+"?review=1", core.AsError(err).URL)
		}
	}
	// A member may not turn it on.
	_, err := e.set(e.member, c.ID, turnOn)
	requireRefusal(t, err, core.CodeTeamManagerRequired)
	require.EqualValues(t, 1, version())

	// The owner and the admin may.
	_, err = e.set(e.owner, c.ID, turnOn)
	require.NoError(t, err)
	_, err = e.set(e.admin, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](12_000), MonthlyBudgetCents: apptest.Ptr[int64](60_000)})
	require.NoError(t, err, "an admin raises both limits")
	require.EqualValues(t, 3, version())

	// While it is on a member raises neither limit ...
	for _, in := range []approval.AutoApproveSettings{
		{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](12_001)},
		{Enabled: true, MonthlyBudgetCents: apptest.Ptr[int64](60_001)},
		{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](1_000), MonthlyBudgetCents: apptest.Ptr[int64](60_001)},
	} {
		_, err = e.set(e.member, c.ID, in)
		requireRefusal(t, err, core.CodeTeamManagerRequired)
	}
	require.EqualValues(t, 3, version())
	// ... but lowers both ...
	got, err := e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](8_000), MonthlyBudgetCents: apptest.Ptr[int64](40_000)})
	require.NoError(t, err)
	require.EqualValues(t, 8_000, got.AutoApprove.PerGiftMaxCents)
	require.EqualValues(t, 40_000, *got.MonthlyBudgetCents)
	require.Equal(t, e.env.OwnerID, got.AutoApprove.EnabledBy, "lowering keeps who turned it on")
	// ... and turns it off.
	got, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: false})
	require.NoError(t, err)
	require.False(t, got.AutoApprove.Enabled)
	// Off, a member may set limits (nothing is approved by them) but not turn it back on.
	_, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: false, PerGiftMaxCents: apptest.Ptr[int64](9_000)})
	require.NoError(t, err)
	_, err = e.set(e.member, c.ID, approval.AutoApproveSettings{Enabled: true})
	requireRefusal(t, err, core.CodeTeamManagerRequired)
	got, err = e.env.App.Campaigns.GetCampaign(ctx, e.key, c.ID)
	require.NoError(t, err)
	require.False(t, got.AutoApprove.Enabled)
	require.EqualValues(t, 9_000, got.AutoApprove.PerGiftMaxCents)
}

// TestAutoApproveConcurrentWriters: two writes on one version; exactly one lands.
func TestAutoApproveConcurrentWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newAutoApproveEnv(t)
	c := e.playbook(t, 50_000)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []core.Principal{e.owner, e.admin} {
		wg.Go(func() {
			_, errs[i] = e.set(p, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr(int64(1_000 * (i + 1))), ExpectedPolicyVersion: 1})
		})
	}
	wg.Wait()
	landed := 0
	for _, err := range errs {
		if err == nil {
			landed++
			continue
		}
		requireRefusal(t, err, core.CodePolicyChanged)
	}
	require.Equal(t, 1, landed, "errors: %v", errs)
	got, err := e.env.App.Campaigns.GetCampaign(ctx, e.key, c.ID)
	require.NoError(t, err)
	require.EqualValues(t, 2, got.PolicyVersion)
	winner := 0
	if errs[0] != nil {
		winner = 1
	}
	require.EqualValues(t, 1_000*(winner+1), got.AutoApprove.PerGiftMaxCents)
	require.Equal(t, []string{e.env.OwnerID, e.adminID}[winner], got.AutoApprove.EnabledBy)
}

// TestAutoApproveMonthlyBudgetBelowCommitments: the budget is the
// campaign's own, so it follows PATCH's rule about committed spend.
func TestAutoApproveMonthlyBudgetBelowCommitments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newAutoApproveEnv(t)
	c, err := e.env.App.Campaigns.CreateCampaign(ctx, e.key, campaign.CampaignInput{
		Name: "Auto", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A", MonthlyBudgetCents: 50_000,
		Message: "Hello {{firstName}}", Recipients: []campaign.RecipientInput{{Name: "Ada Lovelace", Email: "ada@example.com"}},
	})
	require.NoError(t, err)
	_, err = e.env.App.Approvals.InsertSend(ctx, e.key, approval.SendParams{CampaignID: c.ID, RecipientID: c.Recipients[0].RecipientID, TotalCents: 9_000})
	require.NoError(t, err)
	_, err = e.set(e.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: apptest.Ptr[int64](1_000), MonthlyBudgetCents: apptest.Ptr[int64](8_000)})
	requireRefusal(t, err, core.CodeLimitsBelowCommitments, "monthlyBudgetCents")
}
