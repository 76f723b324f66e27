package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

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
	Mode        Mode
	Cents       int64
	// ReturnURL is where the payer goes when the payment is done.
	ReturnURL string
}

// ProcessorSession is a payment processor's checkout session.
type ProcessorSession struct {
	ID  string
	URL string
}

// PaymentProcessor takes payments for top-ups. The local sandbox implements
// it here; the billing issue adds Stripe behind the same interface. Its
// confirmation (a webhook, or the sandbox page) calls App.CompleteTopup.
type PaymentProcessor interface {
	// Name identifies the processor in stored top-ups ("sandbox", "stripe").
	Name() string
	// CreateTopupSession opens a payment session for req.
	CreateTopupSession(ctx context.Context, req TopupRequest) (ProcessorSession, error)
}

// SandboxProcessorName is the local sandbox's Name.
const SandboxProcessorName = "sandbox"

// SandboxProcessor is the local test processor: its session is a page of
// Giftwell's own, {site}/sandbox/pay/<session id>, where a signed-in owner
// or admin completes a test payment. No money moves, so it refuses live mode.
type SandboxProcessor struct {
	SiteURL string
}

var _ PaymentProcessor = SandboxProcessor{}

// Name implements PaymentProcessor.
func (SandboxProcessor) Name() string { return SandboxProcessorName }

// CreateTopupSession implements PaymentProcessor. A live top-up is
// INVALID_REQUEST_STATE: test payments never fund live gifts.
func (s SandboxProcessor) CreateTopupSession(_ context.Context, req TopupRequest) (ProcessorSession, error) {
	if req.Mode != ModeTest {
		return ProcessorSession{}, Errorf(CodeInvalidRequestState, "live funds cannot be added yet: only test payments are available")
	}
	id := "sbx_" + RandomHex(12)
	return ProcessorSession{ID: id, URL: SandboxPayURL(s.SiteURL, id)}, nil
}

// SandboxPayURL is the sandbox payment page of a session.
func SandboxPayURL(siteURL, sessionID string) string {
	return strings.TrimRight(siteURL, "/") + "/sandbox/pay/" + sessionID
}

// payments is the configured processor, the sandbox by default.
func (a *App) payments() PaymentProcessor {
	if a.Payments != nil {
		return a.Payments
	}
	return SandboxProcessor{SiteURL: a.Config.SiteURL}
}

// CreateBalanceTopup opens a payment session that adds in.Cents to the
// balance of p's workspace in its current mode once paid. The same
// idempotency key with the same cents returns the same session; with other
// cents (or in the other mode) it is IDEMPOTENCY_CONFLICT.
//
// It returns the codes of Authorize (ActPay: a signed-in owner or admin;
// keys and connections get HUMAN_APPROVAL_REQUIRED with the balance page,
// members TEAM_MANAGER_REQUIRED), VALIDATION_ERROR naming cents or
// idempotencyKey, IDEMPOTENCY_CONFLICT, the processor's errors, or
// INTERNAL_ERROR.
func (a *App) CreateBalanceTopup(ctx context.Context, p Principal, in TopupParams) (TopupSession, error) {
	if err := Authorize(p, ActPay, a.Config.BalanceURL()); err != nil {
		return TopupSession{}, err
	}
	if in.Cents < MinTopupCents || in.Cents > MaxTopupCents {
		return TopupSession{}, Invalid("cents", "must be between %d and %d (USD cents)", MinTopupCents, MaxTopupCents)
	}
	key := strings.TrimSpace(in.IdempotencyKey)
	if n := len([]rune(key)); n < MinIdempotencyKeyLength || n > MaxIdempotencyKeyLength || hasControl(key) {
		return TopupSession{}, Invalid("idempotencyKey", "must be %d-%d characters", MinIdempotencyKeyLength, MaxIdempotencyKeyLength)
	}
	var out TopupSession
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		id := NewID(PrefixTopup)
		_, err := q.TopupInsert(ctx, db.TopupInsertParams{
			ID: id, WorkspaceID: p.WorkspaceID, Mode: string(p.Mode), Cents: in.Cents, IdempotencyKey: key,
			Processor: "pending", ProcessorSessionID: "pending:" + id, ProcessorUrl: "",
			CreatedBy: p.UserID, CreatedAt: a.Clock.Now(),
		})
		if isNoRows(err) {
			t, err := q.TopupGetByIdempotencyKey(ctx, db.TopupGetByIdempotencyKeyParams{WorkspaceID: p.WorkspaceID, IdempotencyKey: key})
			if err != nil {
				return Internal(err)
			}
			if t.Cents != in.Cents || Mode(t.Mode) != p.Mode {
				return fieldError(CodeIdempotencyConflict, "idempotencyKey",
					"was used for a %s top-up of %d cents; use a new key for a new top-up", t.Mode, t.Cents)
			}
			out = TopupSession{URL: t.ProcessorUrl, SessionID: t.ProcessorSessionID}
			return nil
		}
		if err != nil {
			return Internal(err)
		}
		processor := a.payments()
		s, err := processor.CreateTopupSession(ctx, TopupRequest{
			TopupID: id, WorkspaceID: p.WorkspaceID, Mode: p.Mode, Cents: in.Cents, ReturnURL: a.Config.BalanceURL(),
		})
		if err != nil {
			return err
		}
		if s.ID == "" || s.URL == "" {
			return Internal(fmt.Errorf("processor %s returned an empty session", processor.Name()))
		}
		if err := q.TopupSetSession(ctx, db.TopupSetSessionParams{
			ID: id, Processor: processor.Name(), ProcessorSessionID: s.ID, ProcessorUrl: s.URL,
		}); err != nil {
			return Internal(err)
		}
		out = TopupSession{URL: s.URL, SessionID: s.ID}
		return nil
	})
	return out, asCoreError(err)
}

// CompleteTopup records that the processor's session was paid: it credits
// the top-up's balance exactly once however often and however concurrently
// it is called. The top-up row is locked, its state moves created ->
// completed and the topup ledger entry is written in one transaction; a
// completed top-up changes nothing. It is the processor's confirmation
// (the sandbox page, later Stripe's webhook), so it takes no principal.
//
// It returns NOT_FOUND for an unknown session, INVALID_REQUEST_STATE for an
// expired one, or INTERNAL_ERROR.
func (a *App) CompleteTopup(ctx context.Context, processorSessionID string) error {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		t, err := q.TopupGetBySessionForUpdate(ctx, processorSessionID)
		if isNoRows(err) {
			return Errorf(CodeNotFound, "payment session %s does not exist", processorSessionID)
		}
		if err != nil {
			return Internal(err)
		}
		switch TopupState(t.State) {
		case TopupCompleted:
			return nil
		case TopupExpired:
			return Errorf(CodeInvalidRequestState, "payment session %s has expired; start a new top-up", processorSessionID)
		}
		if _, err := a.lockBalance(ctx, q, t.WorkspaceID, Mode(t.Mode)); err != nil {
			return err
		}
		if _, err := a.moveBalance(ctx, q, ledgerMove{
			workspaceID: t.WorkspaceID, mode: Mode(t.Mode), kind: LedgerTopup, cents: t.Cents,
			topupID: t.ID, note: "top-up " + t.ID,
		}); err != nil {
			return err
		}
		now := a.Clock.Now()
		n, err := q.TopupComplete(ctx, db.TopupCompleteParams{ID: t.ID, CompletedAt: &now})
		if err != nil {
			return Internal(err)
		}
		if n != 1 {
			return Internal(errors.New("top-up changed under its lock"))
		}
		return nil
	})
	return asCoreError(err)
}

// SandboxPayment is a sandbox top-up as its test payment page shows it.
type SandboxPayment struct {
	SessionID string
	TopupID   string
	Cents     int64
	Mode      Mode
	State     TopupState
}

// SandboxPayment reads the sandbox top-up with sessionID in p's workspace.
// It returns the codes of Authorize (ActPay: a signed-in owner or admin),
// NOT_FOUND (no sandbox session in the workspace) or INTERNAL_ERROR.
func (a *App) SandboxPayment(ctx context.Context, p Principal, sessionID string) (SandboxPayment, error) {
	if err := Authorize(p, ActPay, a.Config.BalanceURL()); err != nil {
		return SandboxPayment{}, err
	}
	t, err := db.New(a.DB).TopupGetBySession(ctx, sessionID)
	if isNoRows(err) || (err == nil && (t.WorkspaceID != p.WorkspaceID || t.Processor != SandboxProcessorName)) {
		return SandboxPayment{}, Errorf(CodeNotFound, "test payment %s does not exist in this workspace", sessionID)
	}
	if err != nil {
		return SandboxPayment{}, Internal(err)
	}
	return SandboxPayment{SessionID: t.ProcessorSessionID, TopupID: t.ID, Cents: t.Cents, Mode: Mode(t.Mode), State: TopupState(t.State)}, nil
}

// CompleteSandboxPayment completes the test payment of a sandbox top-up of
// p's workspace (the sandbox page's button), crediting the balance once. It
// returns the codes of SandboxPayment and CompleteTopup.
func (a *App) CompleteSandboxPayment(ctx context.Context, p Principal, sessionID string) error {
	if _, err := a.SandboxPayment(ctx, p, sessionID); err != nil {
		return err
	}
	return a.CompleteTopup(ctx, sessionID)
}
