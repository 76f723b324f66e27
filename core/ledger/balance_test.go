package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

func TestCreateBalanceTopupBounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)

	for _, cents := range []int64{0, -1, 2_499, 2_000_001} {
		_, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: cents, IdempotencyKey: "key-" + core.RandomHex(4)})
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{"cents"}, e.Fields, "cents %d", cents)
		require.True(t, strings.HasPrefix(e.Message, "cents: "), e.Message)
	}
	for _, key := range []string{"", "1234567", strings.Repeat("k", 151), "abc\x00defgh"} {
		_, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 2_500, IdempotencyKey: key})
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{"idempotencyKey"}, e.Fields, "key %q", key)
	}
	for _, in := range []ledger.TopupParams{
		{Cents: 2_500, IdempotencyKey: "12345678"},
		{Cents: 2_000_000, IdempotencyKey: strings.Repeat("k", 150)},
	} {
		s, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, in)
		require.NoError(t, err)
		require.Equal(t, env.SiteURL+"/sandbox/pay/"+s.SessionID, s.URL)
	}
}

func TestCreateBalanceTopupAccessAndIdempotency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	admin := env.AddPerson(t, core.RoleAdmin)
	member := env.AddPerson(t, core.RoleMember)
	_, asAdmin := env.SignIn(t, admin.Email)
	_, asMember := env.SignIn(t, member.Email)
	ownerKey, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	in := ledger.TopupParams{Cents: 5_000, IdempotencyKey: "order-2026-0001"}

	e := apptest.RequireCode(t, func() error { _, err := env.App.Ledger.CreateBalanceTopup(ctx, ownerKey, in); return err }(), core.CodeHumanApprovalRequired)
	require.Equal(t, env.SiteURL+"/balance", e.URL)
	apptest.RequireCode(t, func() error { _, err := env.App.Ledger.CreateBalanceTopup(ctx, asMember, in); return err }(), core.CodeTeamManagerRequired)

	first, err := env.App.Ledger.CreateBalanceTopup(ctx, asAdmin, in)
	require.NoError(t, err)
	again, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: " order-2026-0001 "})
	require.NoError(t, err)
	require.Equal(t, first, again, "the same key and cents give the same session")
	e = apptest.RequireCode(t, func() error {
		_, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 5_001, IdempotencyKey: in.IdempotencyKey})
		return err
	}(), core.CodeIdempotencyConflict)
	require.Equal(t, []string{"idempotencyKey"}, e.Fields)
	other, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: "order-2026-0002"})
	require.NoError(t, err)
	require.NotEqual(t, first.SessionID, other.SessionID)

	// Concurrent first uses of one key make one session.
	var wg sync.WaitGroup
	sessions := make([]ledger.TopupSession, 8)
	errs := make([]error, 8)
	for i := range sessions {
		wg.Go(func() {
			sessions[i], errs[i] = env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 7_500, IdempotencyKey: "concurrent-key"})
		})
	}
	wg.Wait()
	for i := range sessions {
		require.NoError(t, errs[i])
		require.Equal(t, sessions[0], sessions[i])
	}

	// Paying twice credits once; the same key afterwards is still the same session.
	require.NoError(t, env.App.Ledger.CompleteTopup(ctx, first.SessionID))
	require.NoError(t, env.App.Ledger.CompleteTopup(ctx, first.SessionID))
	b, err := env.App.Approvals.Balance(ctx, asMember)
	require.NoError(t, err)
	require.Equal(t, int64(5_000), b.Cents)
	again, err = env.App.Ledger.CreateBalanceTopup(ctx, owner, in)
	require.NoError(t, err)
	require.Equal(t, first, again)
	apptest.RequireCode(t, env.App.Ledger.CompleteTopup(ctx, "sbx_nope"), core.CodeNotFound)
}

func TestBalanceModesAreSeparate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	require.Equal(t, core.ModeTest, owner.Mode)
	env.TopUp(t, owner, 10_000)

	live := owner
	live.Mode = core.ModeLive
	b, err := env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, ledger.Balance{Cents: 10_000, Mode: core.ModeTest, TopUpURL: env.SiteURL + "/balance"}, b)
	b, err = env.App.Approvals.Balance(ctx, live)
	require.NoError(t, err)
	require.Equal(t, int64(0), b.Cents, "test funds never show in live")
	require.Equal(t, core.ModeLive, b.Mode)
	entries, err := env.App.Ledger.Ledger(ctx, live, ledger.DefaultLedgerLimit)
	require.NoError(t, err)
	require.Empty(t, entries)

	// Test funds never pay for a live gift.
	_, err = env.App.Ledger.DebitForTest(ctx, env.WorkspaceID, core.ModeLive, 100, "send_live1", "")
	e := apptest.RequireCode(t, err, core.CodeInsufficientBalance)
	require.Equal(t, env.SiteURL+"/balance", e.URL)
	// The sandbox never takes a live top-up.
	_, err = env.App.Ledger.CreateBalanceTopup(ctx, live, ledger.TopupParams{Cents: 2_500, IdempotencyKey: "live-key-1"})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	// Another workspace sees nothing of it.
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	otherKey, err := env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	b, err = env.App.Approvals.Balance(ctx, otherKey)
	require.NoError(t, err)
	require.Equal(t, int64(0), b.Cents)
}

func TestLedgerNewestFirstAndLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	env.TopUp(t, owner, 3_000)
	_, err := env.App.Ledger.DebitForTest(ctx, env.WorkspaceID, core.ModeTest, 1_200, "send_a", "cmp_a")
	require.NoError(t, err)
	_, err = env.App.Ledger.CreditForTest(ctx, env.WorkspaceID, core.ModeTest, 200, "send_a", "cmp_a")
	require.NoError(t, err)

	entries := env.RequireLedgerConsistent(t, owner)
	kinds := []ledger.LedgerKind{}
	cents := []int64{}
	for _, e := range entries {
		kinds, cents = append(kinds, e.Kind), append(cents, e.Cents)
	}
	require.Equal(t, []ledger.LedgerKind{ledger.LedgerCredit, ledger.LedgerDebit, ledger.LedgerTopup}, kinds)
	require.Equal(t, []int64{200, -1_200, 3_000}, cents)
	require.Equal(t, "send_a", *entries[1].SendID)
	require.Equal(t, "cmp_a", *entries[1].CampaignID)
	require.Nil(t, entries[2].SendID)

	two, err := env.App.Ledger.Ledger(ctx, owner, 2)
	require.NoError(t, err)
	require.Equal(t, entries[:2], two)
	for _, limit := range []int{-1, 0, 201} {
		_, err := env.App.Ledger.Ledger(ctx, owner, limit)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{"limit"}, e.Fields)
	}

	// A gift is paid once, credited at most what it cost, and a gift never paid cannot be credited.
	_, err = env.App.Ledger.DebitForTest(ctx, env.WorkspaceID, core.ModeTest, 100, "send_a", "cmp_a")
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	_, err = env.App.Ledger.CreditForTest(ctx, env.WorkspaceID, core.ModeTest, 1_001, "send_a", "cmp_a")
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	_, err = env.App.Ledger.CreditForTest(ctx, env.WorkspaceID, core.ModeTest, 100, "send_never", "")
	apptest.RequireCode(t, err, core.CodeNotFound)
	_, err = env.App.Ledger.CreditForTest(ctx, env.WorkspaceID, core.ModeLive, 100, "send_a", "cmp_a")
	apptest.RequireCode(t, err, core.CodeNotFound)
	b, err := env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, int64(2_000), b.Cents, "refused moves change nothing")
}

// TestBalanceConcurrency races top-up confirmations, debits and credits on
// one balance near zero.
func TestBalanceConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	const topups, writers = 2, 12
	sessions := make([]ledger.TopupSession, topups)
	for i := range sessions {
		s, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 2_500, IdempotencyKey: fmt.Sprintf("race-topup-%d", i)})
		require.NoError(t, err)
		sessions[i] = s
	}

	var (
		mu       sync.Mutex
		debited  = map[string]int{} // successful debits per send
		codes    = map[core.Code]int{}
		wg       sync.WaitGroup
		start    = make(chan struct{})
		unexpect []error
	)
	record := func(sendID string, err error, allowed ...core.Code) {
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			if sendID != "" {
				debited[sendID]++
			}
			return
		}
		c := core.ErrorCode(err)
		codes[c]++
		if !slices.Contains(allowed, c) {
			unexpect = append(unexpect, err)
		}
	}
	for w := range writers {
		wg.Go(func() {
			<-start
			for i := range 10 {
				// Debits of 1,000 on 8 sends, each tried by several writers;
				// the first ones find the balance still empty.
				send := fmt.Sprintf("send_race%d", (w+i)%8)
				_, err := env.App.Ledger.DebitForTest(ctx, env.WorkspaceID, core.ModeTest, 1_000, send, "cmp_race")
				record(send, err, core.CodeInsufficientBalance, core.CodeInvalidRequestState)
				// Credits of 100 back on some send, which may not be paid yet.
				_, err = env.App.Ledger.CreditForTest(ctx, env.WorkspaceID, core.ModeTest, 100, fmt.Sprintf("send_race%d", (w*3+i)%8), "cmp_race")
				record("", err, core.CodeNotFound, core.CodeInvalidRequestState)
				// Every writer confirms every top-up, again and again.
				record("", env.App.Ledger.CompleteTopup(ctx, sessions[(w+i)%topups].SessionID))
			}
		})
	}
	close(start)
	wg.Wait()
	require.Empty(t, unexpect)

	entries := env.RequireLedgerConsistent(t, owner)
	topupEntries, debits, credits := 0, map[string]int{}, map[string]int64{}
	for _, e := range entries {
		switch e.Kind {
		case ledger.LedgerTopup:
			topupEntries++
			require.Equal(t, int64(2_500), e.Cents)
		case ledger.LedgerDebit:
			debits[*e.SendID]++
			require.Equal(t, int64(-1_000), e.Cents)
		case ledger.LedgerCredit:
			credits[*e.SendID] += e.Cents
		}
	}
	require.Equal(t, topups, topupEntries, "exactly one credit per completed top-up")
	require.Equal(t, debited, debits, "every successful debit has exactly one entry")
	for send, n := range debits {
		require.Equal(t, 1, n, "one debit per send %s", send)
	}
	for send, c := range credits {
		require.Equal(t, 1, debits[send], "credit without debit for %s", send)
		require.LessOrEqual(t, c, int64(1_000), "credits for %s exceed its debit", send)
	}
	require.NotEmpty(t, debits, "some debits went through")
	require.Positive(t, codes[core.CodeInsufficientBalance], "the first debits found the balance empty")
	t.Logf("debits %d, credits %d, refusals %v", len(debits), len(credits), codes)
}

func TestLowBalance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	product, err := env.App.Catalog.Get(ctx, "gourmet-snack-crate")
	require.NoError(t, err)
	price := product.PriceCents + product.ShippingCents

	b, err := env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.False(t, b.LowBalance, "no active playbook needs funds")

	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Playbook", Mode: campaign.ModeAlwaysOn, ProductID: product.ID, SenderName: "S", SenderCompany: "A", MonthlyBudgetCents: 500_000,
	})
	require.NoError(t, err)
	b, err = env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.False(t, b.LowBalance, "a draft playbook needs nothing")

	active := campaign.StatusActive
	_, err = env.App.Campaigns.UpdateCampaign(ctx, owner, c.ID, campaign.CampaignPatch{Status: &active, ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	b, err = env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.True(t, b.LowBalance, "an empty balance cannot pay an active playbook's gift")

	// Exactly one gift's price is enough; one cent less is not.
	_, err = env.App.Ledger.DebitForTest(ctx, env.WorkspaceID, core.ModeTest, 1, "send_x", "")
	apptest.RequireCode(t, err, core.CodeInsufficientBalance)
	env.TopUp(t, owner, 2_500+price)
	_, err = env.App.Ledger.DebitForTest(ctx, env.WorkspaceID, core.ModeTest, 2_500, "send_trim", c.ID)
	require.NoError(t, err)
	b, err = env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, price, b.Cents)
	require.False(t, b.LowBalance)

	// With auto-approve on, the measure is max(per-gift limit, price).
	rule, err := json.Marshal(campaign.AutoApprove{Enabled: true, PerGiftMaxCents: price + 1, EnabledBy: env.OwnerID})
	require.NoError(t, err)
	_, err = db.New(env.App.DB).CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: apptest.Epoch, WorkspaceID: env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	b, err = env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.True(t, b.LowBalance, "auto-approve may spend up to its per-gift limit")

	rule, err = json.Marshal(campaign.AutoApprove{Enabled: true, PerGiftMaxCents: 100, EnabledBy: env.OwnerID})
	require.NoError(t, err)
	_, err = db.New(env.App.DB).CampaignSetAutoApprove(ctx, db.CampaignSetAutoApproveParams{AutoApprove: rule, UpdatedAt: apptest.Epoch, WorkspaceID: env.WorkspaceID, ID: c.ID})
	require.NoError(t, err)
	b, err = env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.False(t, b.LowBalance, "a limit below the price still needs the price")
}
