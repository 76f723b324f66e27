package approval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// get_balance reads the balance, the playbooks and the people waiting in
// one statement: lowBalance still sets aside the waiting people's gifts and
// counts an auto-approving playbook's next gift at its per-gift limit.
func TestBalanceLowCountsAutoApproveLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newQueueEnv(t)
	require.False(t, e.lowBalance(), "no balance row, no playbook: nothing needs funds")
	a := e.playbook("gourmet-snack-crate", campaign.CampaignInput{MonthlyBudgetCents: 100 * crateCents})
	e.fund(core.ModeTest, 2*crateCents)
	b, err := e.env.App.Approvals.Balance(ctx, e.key)
	require.NoError(t, err)
	require.Equal(t, 2*crateCents, b.Cents)
	require.False(t, b.LowBalance, "2 gifts cover one more")

	limit := 3 * crateCents
	_, err = e.env.App.Approvals.SetAutoApprove(ctx, e.owner, a.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: &limit})
	require.NoError(t, err)
	require.True(t, e.lowBalance(), "auto-approve may spend up to its 3-gift limit")

	_, err = e.env.App.Approvals.SetAutoApprove(ctx, e.owner, a.ID, approval.AutoApproveSettings{Enabled: false})
	require.NoError(t, err)
	require.False(t, e.lowBalance(), "a rule turned off counts the gift's price")
	e.add(a.ID, queued("Ann"))
	require.False(t, e.lowBalance(), "2 gifts cover Ann and one more")
	e.add(a.ID, queued("Ben"))
	require.True(t, e.lowBalance(), "2 gifts cover Ann and Ben, not one more")
}
