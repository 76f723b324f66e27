package core

import (
	"context"
	"fmt"

	"github.com/giftwell/giftwell/sql/db"
)

// Every ledger insert goes through lockBalance and moveBalance in one
// transaction: the balance row's lock serialises money moves of a workspace
// and mode, the row's CHECK (cents >= 0) refuses a negative balance, and the
// balance row always equals the sum of the ledger entries beside it.

// lockBalance creates the zero balance of workspace in mode when there is
// none and locks it for the transaction; it returns the balance.
func (a *App) lockBalance(ctx context.Context, q *db.Queries, workspaceID string, mode Mode) (int64, error) {
	if err := q.BalanceEnsure(ctx, db.BalanceEnsureParams{WorkspaceID: workspaceID, Mode: string(mode), UpdatedAt: a.Clock.Now()}); err != nil {
		return 0, Internal(err)
	}
	cents, err := q.BalanceGetForUpdate(ctx, db.BalanceGetForUpdateParams{WorkspaceID: workspaceID, Mode: string(mode)})
	if err != nil {
		return 0, Internal(err)
	}
	return cents, nil
}

// ledgerMove is one ledger entry to write against a locked balance.
type ledgerMove struct {
	workspaceID string
	mode        Mode
	kind        LedgerKind
	cents       int64 // signed
	sendID      string
	campaignID  string
	topupID     string
	note        string
}

// moveBalance writes the entry and adds its cents to the balance, which the
// caller has locked with lockBalance. It returns the entry's ID.
func (a *App) moveBalance(ctx context.Context, q *db.Queries, m ledgerMove) (string, error) {
	id := NewID(PrefixLedger)
	if err := q.LedgerEntryInsert(ctx, db.LedgerEntryInsertParams{
		ID: id, WorkspaceID: m.workspaceID, Mode: string(m.mode), Kind: string(m.kind), Cents: m.cents,
		SendID: optional(m.sendID), CampaignID: optional(m.campaignID), TopupID: optional(m.topupID),
		Note: m.note, CreatedAt: a.Clock.Now(),
	}); err != nil {
		if name, ok := violatedUnique(err); ok && name == "ledger_entries_debit_send" {
			return "", Errorf(CodeInvalidRequestState, "gift %s is already paid", m.sendID)
		}
		return "", Internal(err)
	}
	if _, err := q.BalanceAdd(ctx, db.BalanceAddParams{
		Delta: m.cents, UpdatedAt: a.Clock.Now(), WorkspaceID: m.workspaceID, Mode: string(m.mode),
	}); err != nil {
		return "", Internal(err)
	}
	return id, nil
}

// optional is nil for "" and &s otherwise.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// debit pays for one gift from the balance of workspace in mode, inside the
// caller's transaction: it locks the balance, refuses with 402
// INSUFFICIENT_BALANCE (url: the balance page) when the balance cannot cover
// cents, and writes a debit entry of -cents for sendID. A gift is paid once:
// a second debit for sendID is INVALID_REQUEST_STATE (the unique index
// ledger_entries_debit_send enforces it whatever races). It returns the
// entry's ID.
func (a *App) debit(ctx context.Context, q *db.Queries, workspaceID string, mode Mode, cents int64, sendID, campaignID string) (string, error) {
	if cents <= 0 || sendID == "" {
		return "", Internal(fmt.Errorf("debit: %d cents for send %q", cents, sendID))
	}
	balance, err := a.lockBalance(ctx, q, workspaceID, mode)
	if err != nil {
		return "", err
	}
	if _, err := q.LedgerEntryGetDebit(ctx, &sendID); err == nil {
		return "", Errorf(CodeInvalidRequestState, "gift %s is already paid", sendID)
	} else if !isNoRows(err) {
		return "", Internal(err)
	}
	if balance < cents {
		return "", &Error{
			Code: CodeInsufficientBalance, URL: a.Config.BalanceURL(),
			Message: fmt.Sprintf("the %s balance is %s; the gift costs %s. An owner or admin can add funds", mode, Dollars(balance), Dollars(cents)),
		}
	}
	return a.moveBalance(ctx, q, ledgerMove{
		workspaceID: workspaceID, mode: mode, kind: LedgerDebit, cents: -cents,
		sendID: sendID, campaignID: campaignID, note: "gift " + sendID,
	})
}

// credit gives cents of a paid gift back to the balance it was paid from,
// inside the caller's transaction (cancellation before production, a
// declined gift). The gift's debit decides the workspace and mode; credits
// for a gift never add up to more than its debit (INVALID_REQUEST_STATE),
// and a gift without a debit is NOT_FOUND. It returns the entry's ID.
func (a *App) credit(ctx context.Context, q *db.Queries, workspaceID string, mode Mode, cents int64, sendID, campaignID, note string) (string, error) {
	if cents <= 0 || sendID == "" {
		return "", Internal(fmt.Errorf("credit: %d cents for send %q", cents, sendID))
	}
	if _, err := a.lockBalance(ctx, q, workspaceID, mode); err != nil {
		return "", err
	}
	d, err := q.LedgerEntryGetDebit(ctx, &sendID)
	if isNoRows(err) {
		return "", Errorf(CodeNotFound, "gift %s was not paid from the balance", sendID)
	}
	if err != nil {
		return "", Internal(err)
	}
	if d.WorkspaceID != workspaceID || Mode(d.Mode) != mode {
		return "", Errorf(CodeNotFound, "gift %s was not paid from this balance", sendID)
	}
	credited, err := q.LedgerCreditedForSend(ctx, &sendID)
	if err != nil {
		return "", Internal(err)
	}
	if credited+cents > -d.Cents {
		return "", Errorf(CodeInvalidRequestState, "gift %s was paid %s and %s is already back; %s more is too much",
			sendID, Dollars(-d.Cents), Dollars(credited), Dollars(cents))
	}
	if note == "" {
		note = "gift " + sendID + " refunded"
	}
	return a.moveBalance(ctx, q, ledgerMove{
		workspaceID: workspaceID, mode: mode, kind: LedgerCredit, cents: cents,
		sendID: sendID, campaignID: campaignID, note: note,
	})
}
