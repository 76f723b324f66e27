package ledger_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// processorFunc is a PaymentProcessor named "test" that runs a function.
type processorFunc func(ctx context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error)

var _ ledger.PaymentProcessor = processorFunc(nil)

func (processorFunc) Name() string { return "test" }

func (f processorFunc) CreateTopupSession(ctx context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error) {
	return f(ctx, req)
}

func (processorFunc) CreateCheckoutSession(context.Context, ledger.CheckoutRequest) (ledger.ProcessorSession, error) {
	return ledger.ProcessorSession{}, errors.New("processorFunc opens top-ups only")
}

func (processorFunc) RetrieveSession(context.Context, string) (ledger.SessionResult, error) {
	return ledger.SessionResult{State: ledger.SessionLocal}, nil
}

func (processorFunc) ExpireSession(context.Context, string) (ledger.SessionResult, error) {
	return ledger.SessionResult{State: ledger.SessionLocal}, nil
}

func (processorFunc) Refund(context.Context, ledger.RefundRequest) (ledger.RefundResult, error) {
	return ledger.RefundResult{}, errors.New("processorFunc refunds nothing")
}

// heldProcessor opens a session per call, numbered, but first tells the
// test it was called (entered) and waits until the test calls release (or
// ends: its App's connections are then given back).
func heldProcessor(t *testing.T, entered chan<- ledger.TopupRequest) (p ledger.PaymentProcessor, calls *atomic.Int32, release func()) {
	calls = new(atomic.Int32)
	released := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(released) }) }
	t.Cleanup(release)
	p = processorFunc(func(ctx context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error) {
		n := calls.Add(1)
		entered <- req
		select {
		case <-released:
		case <-ctx.Done():
			return ledger.ProcessorSession{}, ctx.Err()
		}
		id := req.TopupID + "-" + string(rune('a'+n-1))
		return ledger.ProcessorSession{ID: "tst_" + id, URL: "https://pay.example.com/" + id}, nil
	})
	return p, calls, release
}

// receive waits for the processor to be called.
func receive(t *testing.T, entered <-chan ledger.TopupRequest) ledger.TopupRequest {
	t.Helper()
	select {
	case req := <-entered:
		return req
	case <-time.After(20 * time.Second):
		t.Fatal("the processor was not called")
	}
	panic("unreachable")
}

// No network inside a transaction: while the processor opens the session,
// the top-up is committed, nobody holds its row, and the App holds no
// transaction open.
func TestTopupProcessorCalledOutsideATransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	entered := make(chan ledger.TopupRequest, 1)
	processor, _, release := heldProcessor(t, entered)
	env.App.Ledger.Payments = processor

	type result struct {
		s   ledger.TopupSession
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 5_000, IdempotencyKey: "no-tx-topup-1"})
		done <- result{s, err}
	}()
	req := receive(t, entered)
	require.Equal(t, ledger.TopupRequest{TopupID: req.TopupID, WorkspaceID: env.WorkspaceID, Mode: core.ModeTest, Cents: 5_000, ReturnURL: env.SiteURL + "/balance"}, req)
	require.NoError(t, env.RequireNoTransaction(ctx, func(tx pgx.Tx) error {
		var id string
		if err := tx.QueryRow(ctx, "SELECT id FROM topups WHERE id = $1 FOR UPDATE NOWAIT", req.TopupID).Scan(&id); err != nil {
			return err
		}
		require.Equal(t, req.TopupID, id)
		return nil
	}))
	release()
	res := <-done
	require.NoError(t, res.err)
	require.Equal(t, ledger.TopupSession{SessionID: "tst_" + req.TopupID + "-a", URL: "https://pay.example.com/" + req.TopupID + "-a"}, res.s)
	row, err := db.New(env.App.DB).TopupGetBySession(ctx, res.s.SessionID)
	require.NoError(t, err)
	require.Equal(t, req.TopupID, row.ID)
	require.Equal(t, "test", row.Processor)
}

// Concurrent first uses of one key both reach the processor with the same
// top-up ID; the session recorded first is both answers.
func TestTopupConcurrentSameKeyOneSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	entered := make(chan ledger.TopupRequest, 2)
	processor, calls, release := heldProcessor(t, entered)
	env.App.Ledger.Payments = processor

	var wg sync.WaitGroup
	sessions := make([]ledger.TopupSession, 2)
	errs := make([]error, 2)
	for i := range sessions {
		wg.Go(func() {
			sessions[i], errs[i] = env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 7_500, IdempotencyKey: "same-key-twice"})
		})
	}
	a, b := receive(t, entered), receive(t, entered)
	require.Equal(t, a.TopupID, b.TopupID, "one top-up, one idempotency key at the processor")
	release()
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	require.Equal(t, sessions[0], sessions[1])
	require.EqualValues(t, 2, calls.Load())
	row, err := db.New(env.App.DB).TopupGetBySession(ctx, sessions[0].SessionID)
	require.NoError(t, err)
	require.Equal(t, a.TopupID, row.ID)
}

// A processor that failed (or a process that stopped) leaves the top-up
// without a session: the same key calls the processor again with the same
// top-up ID. The intent is no payable session meanwhile.
func TestTopupRetriedAfterProcessorFailure(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	var reqs []ledger.TopupRequest
	fail := true
	env.App.Ledger.Payments = processorFunc(func(_ context.Context, req ledger.TopupRequest) (ledger.ProcessorSession, error) {
		reqs = append(reqs, req)
		if fail {
			return ledger.ProcessorSession{}, errors.New("connection reset by peer")
		}
		return ledger.ProcessorSession{ID: "tst_" + req.TopupID, URL: "https://pay.example.com/" + req.TopupID}, nil
	})
	in := ledger.TopupParams{Cents: 5_000, IdempotencyKey: "retry-topup-1"}

	_, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, in)
	apptest.RequireCode(t, err, core.CodeInternal)
	pending, err := db.New(env.App.DB).TopupGetByIdempotencyKey(ctx, db.TopupGetByIdempotencyKeyParams{WorkspaceID: env.WorkspaceID, IdempotencyKey: in.IdempotencyKey})
	require.NoError(t, err)
	apptest.RequireCode(t, env.App.Ledger.CompleteTopup(ctx, pending.ProcessorSessionID), core.CodeNotFound)
	_, err = env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 5_001, IdempotencyKey: in.IdempotencyKey})
	apptest.RequireCode(t, err, core.CodeIdempotencyConflict)

	fail = false
	s, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, in)
	require.NoError(t, err)
	require.Len(t, reqs, 2)
	require.Equal(t, reqs[0], reqs[1], "the same top-up ID again")
	require.Equal(t, "tst_"+reqs[0].TopupID, s.SessionID)
	again, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, in)
	require.NoError(t, err)
	require.Equal(t, s, again)
	require.Len(t, reqs, 2, "a recorded session is answered without the processor")
	require.NoError(t, env.App.Ledger.CompleteTopup(ctx, s.SessionID))
	b, err := env.App.Approvals.Balance(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, int64(5_000), b.Cents)
}

// A processor's refusal leaves nothing behind: the key is unused.
func TestTopupRefusedLeavesTheKeyUnused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	live := owner
	live.Mode = core.ModeLive
	_, err := env.App.Ledger.CreateBalanceTopup(ctx, live, ledger.TopupParams{Cents: 2_500, IdempotencyKey: "refused-key-1"})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	s, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 3_000, IdempotencyKey: "refused-key-1"})
	require.NoError(t, err)
	require.NotEmpty(t, s.SessionID)
}

// An App without a payment processor is a wiring error, never a silent sandbox.
func TestTopupWithoutProcessorIsInternal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	env.App.Ledger.Payments = nil
	_, err := env.App.Ledger.CreateBalanceTopup(ctx, owner, ledger.TopupParams{Cents: 2_500, IdempotencyKey: "no-processor-1"})
	apptest.RequireCode(t, err, core.CodeInternal)
	_, err = db.New(env.App.DB).TopupGetByIdempotencyKey(ctx, db.TopupGetByIdempotencyKeyParams{WorkspaceID: env.WorkspaceID, IdempotencyKey: "no-processor-1"})
	require.ErrorIs(t, err, pgx.ErrNoRows, "nothing stored")
}
