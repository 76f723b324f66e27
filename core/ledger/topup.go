package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of a top-up (the spec's create_balance_topup).
const (
	MinTopupCents = 2_500
	MaxTopupCents = 2_000_000
)

// PrefixTopup starts top-up IDs.
const PrefixTopup = "top_"

// TopupState is where a top-up is: created -> completed | expired.
type TopupState string

// The top-up states.
const (
	TopupCreated   TopupState = "created"
	TopupCompleted TopupState = "completed"
	TopupExpired   TopupState = "expired"
)

// TopupParams is what create_balance_topup takes.
type TopupParams struct {
	// Cents is the amount to add, 2,500-2,000,000.
	Cents int64
	// IdempotencyKey is 8-150 characters; the same key and cents return the
	// same session.
	IdempotencyKey string
}

// TopupSession is the payment page a person opens to pay for a top-up.
type TopupSession struct {
	URL       string `json:"url" jsonschema:"the payment page; hand it to the signed-in owner or admin who pays"`
	SessionID string `json:"sessionId" jsonschema:"the payment processor's session ID"`
}

// TopupRequest is what a PaymentProcessor needs to open a top-up session.
type TopupRequest struct {
	// TopupID is Giftwell's top-up ID; processors use it as their own
	// idempotency key, so a retried request gives the same session.
	TopupID     string
	WorkspaceID string
	Mode        core.Mode
	Cents       int64
	// ReturnURL is where the payer goes when the payment is done.
	ReturnURL string
}

// ProcessorSession is a payment processor's checkout session.
type ProcessorSession struct {
	ID  string
	URL string
}

// PaymentProcessor takes payments for top-ups and checkouts, and refunds
// them. internal/payments holds the local sandbox and Stripe. Its
// confirmation (Stripe's webhook, a reconcile, or the sandbox page) calls
// Service.CompleteTopup or core/billing's checkout methods.
// core calls it with no transaction open and no row locked.
type PaymentProcessor interface {
	// Name identifies the processor in stored top-ups ("sandbox", "stripe").
	Name() string
	// CreateTopupSession opens a payment session for req. The same
	// req.TopupID may come again (a retry after a failure or a crash, or a
	// concurrent request with the same idempotency key): a processor that
	// can, uses it as its own idempotency key. A *core.Error means the
	// processor refused and opened no session; any other error is an
	// unknown outcome.
	CreateTopupSession(ctx context.Context, req TopupRequest) (ProcessorSession, error)
	// CreateCheckoutSession opens a card payment session for a campaign's
	// checkout (Stripe: a Checkout Session in payment mode), with
	// req.CheckoutID as its idempotency key. Errors as CreateTopupSession.
	CreateCheckoutSession(ctx context.Context, req CheckoutRequest) (ProcessorSession, error)
	// RetrieveSession reads a session's state at the processor (reconcile).
	RetrieveSession(ctx context.Context, sessionID string) (SessionResult, error)
	// ExpireSession closes an unpaid session so it can no longer be paid,
	// and returns its state: SessionPaid when it was paid first.
	ExpireSession(ctx context.Context, sessionID string) (SessionResult, error)
	// Refund gives cents of a payment back to the card, with req.RefundID
	// as its idempotency key.
	Refund(ctx context.Context, req RefundRequest) (RefundResult, error)
}

// SandboxProcessorName is the Name of the local sandbox processor
// (internal/payments), whose payment page is Giftwell's own
// (SandboxPayment, CompleteSandboxPayment).
const SandboxProcessorName = "sandbox"

// topupPending is the processor of a top-up whose session is not recorded
// yet: the intent row, committed before the processor is called.
const topupPending = "pending"

// errNoPaymentProcessor is the wiring error of a Service without Payments.
var errNoPaymentProcessor = errors.New("core: App.Payments is nil: the App was built without a payment processor")

// CreateBalanceTopup opens a payment session that adds in.Cents to the
// balance of p's workspace in its current mode once paid. The same
// idempotency key with the same cents returns the same session; with other
// cents (or in the other mode) it is IDEMPOTENCY_CONFLICT.
//
// No transaction is open while the processor is called. A first
// transaction commits the top-up (its intent, or finds the one of the
// key); the processor is then called with the top-up's ID as its
// idempotency key; a second statement records the session only while the
// top-up has none, so that of concurrent requests with one key the first
// session recorded is every request's answer. A top-up left without a
// session (the processor failed, or the process stopped) gets one on the
// next request with its key. A processor's refusal removes the intent: the
// key is unused, as if the request had not been made.
//
// It returns the codes of Authorize (ActPay: a signed-in owner or admin;
// keys and connections get HUMAN_APPROVAL_REQUIRED with the balance page,
// members TEAM_MANAGER_REQUIRED), VALIDATION_ERROR naming cents or
// idempotencyKey, IDEMPOTENCY_CONFLICT, the processor's errors, or
// INTERNAL_ERROR (also when no processor is configured).
func (a *Service) CreateBalanceTopup(ctx context.Context, p core.Principal, in TopupParams) (TopupSession, error) {
	if err := core.Authorize(p, core.ActPay, a.Config.BalanceURL()); err != nil {
		return TopupSession{}, err
	}
	if in.Cents < MinTopupCents || in.Cents > MaxTopupCents {
		return TopupSession{}, core.Invalid("cents", "must be between %d and %d (USD cents)", MinTopupCents, MaxTopupCents)
	}
	key, err := core.IdempotencyKey(in.IdempotencyKey)
	if err != nil {
		return TopupSession{}, err
	}
	processor := a.Payments
	if processor == nil {
		return TopupSession{}, core.Internal(errNoPaymentProcessor)
	}
	t, err := a.topupIntent(ctx, p, in.Cents, key)
	if err != nil {
		return TopupSession{}, err
	}
	if t.Processor != topupPending {
		return TopupSession{URL: t.ProcessorUrl, SessionID: t.ProcessorSessionID}, nil
	}
	s, err := processor.CreateTopupSession(ctx, TopupRequest{
		TopupID: t.ID, WorkspaceID: t.WorkspaceID, Mode: core.Mode(t.Mode), Cents: t.Cents, ReturnURL: a.Config.BalanceURL(),
	})
	var refused *core.Error
	if errors.As(err, &refused) {
		if _, derr := db.New(a.DB).TopupDeletePending(ctx, t.ID); derr != nil {
			a.Log.ErrorContext(ctx, "top-up refused by the processor: remove its intent", "topup", t.ID, "err", derr)
		}
		return TopupSession{}, refused
	}
	if err != nil {
		return TopupSession{}, core.Internal(fmt.Errorf("processor %s, top-up %s: %w", processor.Name(), t.ID, err))
	}
	if s.ID == "" || s.URL == "" {
		return TopupSession{}, core.Internal(fmt.Errorf("processor %s returned an empty session for top-up %s", processor.Name(), t.ID))
	}
	return a.recordTopupSession(ctx, t, processor.Name(), s)
}

// topupIntent commits the top-up of key in p's workspace, or finds the one
// already made with it: IDEMPOTENCY_CONFLICT when that one has other cents
// or another mode. A new top-up is pending (no session yet). A concurrent
// first use of key waits for the other transaction and then finds its top-up.
func (a *Service) topupIntent(ctx context.Context, p core.Principal, cents int64, key string) (db.Topup, error) {
	var out db.Topup
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		id := core.NewID(PrefixTopup)
		_, err := q.TopupInsert(ctx, db.TopupInsertParams{
			ID: id, WorkspaceID: p.WorkspaceID, Mode: string(p.Mode), Cents: cents, IdempotencyKey: key,
			Processor: topupPending, ProcessorSessionID: topupPending + ":" + id, ProcessorUrl: "",
			CreatedBy: p.UserID, CreatedAt: a.Clock.Now(),
		})
		if err != nil && !core.IsNoRows(err) {
			return core.Internal(err)
		}
		t, err := q.TopupGetByIdempotencyKey(ctx, db.TopupGetByIdempotencyKeyParams{WorkspaceID: p.WorkspaceID, IdempotencyKey: key})
		if err != nil {
			return core.Internal(err)
		}
		if t.Cents != cents || core.Mode(t.Mode) != p.Mode {
			return core.FieldError(core.CodeIdempotencyConflict, "idempotencyKey",
				"was used for a %s top-up of %d cents; use a new key for a new top-up", t.Mode, t.Cents)
		}
		out = t
		return nil
	})
	return out, core.AsCoreError(err)
}

// recordTopupSession records session s of processor on pending top-up t
// and returns it; when another request recorded one first, it returns that
// one (s is then never shown, and never paid).
func (a *Service) recordTopupSession(ctx context.Context, t db.Topup, processor string, s ProcessorSession) (TopupSession, error) {
	q := db.New(a.DB)
	n, err := q.TopupSetSession(ctx, db.TopupSetSessionParams{
		ID: t.ID, Processor: processor, ProcessorSessionID: s.ID, ProcessorUrl: s.URL,
	})
	if err != nil {
		return TopupSession{}, core.Internal(err)
	}
	if n == 1 {
		return TopupSession{URL: s.URL, SessionID: s.ID}, nil
	}
	cur, err := q.TopupGetByIdempotencyKey(ctx, db.TopupGetByIdempotencyKeyParams{WorkspaceID: t.WorkspaceID, IdempotencyKey: t.IdempotencyKey})
	if err != nil {
		return TopupSession{}, core.Internal(fmt.Errorf("top-up %s: read the session another request recorded: %w", t.ID, err))
	}
	if cur.ID != t.ID || cur.Processor == topupPending {
		return TopupSession{}, core.Internal(fmt.Errorf("top-up %s changed while its session was opened", t.ID))
	}
	return TopupSession{URL: cur.ProcessorUrl, SessionID: cur.ProcessorSessionID}, nil
}

// CompleteTopup records that the processor's session was paid: it credits
// the top-up's balance exactly once however often and however concurrently
// it is called. The top-up row is locked, its state moves created ->
// completed and the topup ledger entry is written in one transaction, with
// the job that decides again the people who waited for funds
// (FundsArrivedArgs); a completed top-up changes nothing. It is the processor's confirmation
// (the sandbox page, later Stripe's webhook), so it takes no principal.
//
// It returns NOT_FOUND for an unknown session, INVALID_REQUEST_STATE for an
// expired one, or INTERNAL_ERROR.
func (a *Service) CompleteTopup(ctx context.Context, processorSessionID string) error {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		t, err := q.TopupGetBySessionForUpdate(ctx, processorSessionID)
		if core.IsNoRows(err) {
			return core.Errorf(core.CodeNotFound, "payment session %s does not exist", processorSessionID)
		}
		if err != nil {
			return core.Internal(err)
		}
		if t.Processor == topupPending {
			// An intent, whose "session" no processor made.
			return core.Errorf(core.CodeNotFound, "payment session %s does not exist", processorSessionID)
		}
		switch TopupState(t.State) {
		case TopupCompleted:
			return nil
		case TopupExpired:
			return core.Errorf(core.CodeInvalidRequestState, "payment session %s has expired; start a new top-up", processorSessionID)
		}
		if _, err := a.LockBalance(ctx, q, t.WorkspaceID, core.Mode(t.Mode)); err != nil {
			return err
		}
		if _, err := a.MoveBalance(ctx, q, LedgerMove{
			WorkspaceID: t.WorkspaceID, Mode: core.Mode(t.Mode), Kind: LedgerTopup, Cents: t.Cents,
			topupID: t.ID, Note: "top-up " + t.ID,
		}); err != nil {
			return err
		}
		if err := a.fundsArrived(ctx, tx, t.WorkspaceID, core.Mode(t.Mode)); err != nil {
			return err
		}
		now := a.Clock.Now()
		n, err := q.TopupComplete(ctx, db.TopupCompleteParams{ID: t.ID, CompletedAt: &now})
		if err != nil {
			return core.Internal(err)
		}
		if n != 1 {
			return core.Internal(errors.New("top-up changed under its lock"))
		}
		// The processor confirmed it; the person who started it paid.
		payer := core.Principal{WorkspaceID: t.WorkspaceID, UserID: t.CreatedBy, Via: core.ViaSession}
		return a.RecordActivity(ctx, tx, payer, core.ActivityRecord{Kind: core.ActivityTopupPaid, Mode: core.Mode(t.Mode), AmountCents: t.Cents})
	})
	return core.AsCoreError(err)
}

// SandboxPayment is a sandbox top-up as its test payment page shows it.
type SandboxPayment struct {
	SessionID string
	TopupID   string
	Cents     int64
	Mode      core.Mode
	State     TopupState
}

// ExpireTopup closes the top-up of processorSessionID when its session
// expired unpaid at the processor: created -> expired; a completed or
// expired top-up (or none) changes nothing. Like CompleteTopup it is the
// processor's word, so it takes no principal. It returns INTERNAL_ERROR.
func (a *Service) ExpireTopup(ctx context.Context, processorSessionID string) error {
	if _, err := db.New(a.DB).TopupExpire(ctx, processorSessionID); err != nil {
		return core.Internal(err)
	}
	return nil
}

// SandboxPayment reads the sandbox top-up with sessionID in p's workspace.
// It returns the codes of Authorize (ActPay: a signed-in owner or admin),
// NOT_FOUND (no sandbox session in the workspace) or INTERNAL_ERROR.
func (a *Service) SandboxPayment(ctx context.Context, p core.Principal, sessionID string) (SandboxPayment, error) {
	if err := core.Authorize(p, core.ActPay, a.Config.BalanceURL()); err != nil {
		return SandboxPayment{}, err
	}
	t, err := db.New(a.DB).TopupGetBySession(ctx, sessionID)
	if core.IsNoRows(err) || (err == nil && (t.WorkspaceID != p.WorkspaceID || t.Processor != SandboxProcessorName)) {
		return SandboxPayment{}, core.Errorf(core.CodeNotFound, "test payment %s does not exist in this workspace", sessionID)
	}
	if err != nil {
		return SandboxPayment{}, core.Internal(err)
	}
	return SandboxPayment{SessionID: t.ProcessorSessionID, TopupID: t.ID, Cents: t.Cents, Mode: core.Mode(t.Mode), State: TopupState(t.State)}, nil
}

// CompleteSandboxPayment completes the test payment of a sandbox top-up of
// p's workspace (the sandbox page's button), crediting the balance once. It
// returns the codes of SandboxPayment and CompleteTopup.
func (a *Service) CompleteSandboxPayment(ctx context.Context, p core.Principal, sessionID string) error {
	if _, err := a.SandboxPayment(ctx, p, sessionID); err != nil {
		return err
	}
	return a.CompleteTopup(ctx, sessionID)
}
