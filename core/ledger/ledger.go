package ledger

import (
	"context"
	"fmt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Every ledger insert goes through lockBalance and moveBalance in one
// transaction: the balance row's lock serialises money moves of a workspace
// and mode, the row's CHECK (cents >= 0) refuses a negative balance, and the
// balance row always equals the sum of the ledger entries beside it.

// LockBalance creates the zero balance of workspace in mode when there is
// none and locks it for the transaction; it returns the balance. A balance
// that exists (every one but a workspace's first in a mode) is locked and
// read in one statement; only a missing one is created first.
func (a *Service) LockBalance(ctx context.Context, q *db.Queries, workspaceID string, mode core.Mode) (int64, error) {
	lock := db.BalanceGetForUpdateParams{WorkspaceID: workspaceID, Mode: string(mode)}
	cents, err := q.BalanceGetForUpdate(ctx, lock)
	if err == nil {
		return cents, nil
	}
	if !core.IsNoRows(err) {
		return 0, core.Internal(err)
	}
	if err := q.BalanceEnsure(ctx, db.BalanceEnsureParams{WorkspaceID: workspaceID, Mode: string(mode), UpdatedAt: a.Clock.Now()}); err != nil {
		return 0, core.Internal(err)
	}
	cents, err = q.BalanceGetForUpdate(ctx, lock)
	if err != nil {
		return 0, core.Internal(err)
	}
	return cents, nil
}

// LedgerMove is one ledger entry to write against a locked balance.
type LedgerMove struct {
	WorkspaceID string
	Mode        core.Mode
	Kind        LedgerKind
	Cents       int64 // signed
	sendID      string
	campaignID  string
	topupID     string
	Note        string
}

// MoveBalance writes the entry and adds its cents to the balance, which the
// caller has locked with lockBalance. It returns the entry's ID.
func (a *Service) MoveBalance(ctx context.Context, q *db.Queries, m LedgerMove) (string, error) {
	id := core.NewID(core.PrefixLedger)
	if err := q.LedgerEntryInsert(ctx, db.LedgerEntryInsertParams{
		ID: id, WorkspaceID: m.WorkspaceID, Mode: string(m.Mode), Kind: string(m.Kind), Cents: m.Cents,
		SendID: optional(m.sendID), CampaignID: optional(m.campaignID), TopupID: optional(m.topupID),
		Note: m.Note, CreatedAt: a.Clock.Now(),
	}); err != nil {
		if name, ok := core.ViolatedUnique(err); ok && name == "ledger_entries_debit_send" {
			return "", core.Errorf(core.CodeInvalidRequestState, "gift %s is already paid", m.sendID)
		}
		return "", core.Internal(err)
	}
	if _, err := q.BalanceAdd(ctx, db.BalanceAddParams{
		Delta: m.Cents, UpdatedAt: a.Clock.Now(), WorkspaceID: m.WorkspaceID, Mode: string(m.Mode),
	}); err != nil {
		return "", core.Internal(err)
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

// Debit pays for one gift from the balance of workspace in mode, inside the
// caller's transaction: it locks the balance, refuses with 402
// INSUFFICIENT_BALANCE (url: the balance page) when the balance cannot cover
// cents, and writes a debit entry of -cents for sendID. A gift is paid once:
// a second debit for sendID is INVALID_REQUEST_STATE (the unique index
// ledger_entries_debit_send enforces it whatever races). It returns the
// entry's ID.
func (a *Service) Debit(ctx context.Context, q *db.Queries, workspaceID string, mode core.Mode, cents int64, sendID, campaignID string) (string, error) {
	if cents <= 0 || sendID == "" {
		return "", core.Internal(fmt.Errorf("debit: %d cents for send %q", cents, sendID))
	}
	balance, err := a.LockBalance(ctx, q, workspaceID, mode)
	if err != nil {
		return "", err
	}
	if _, err := q.LedgerEntryGetDebit(ctx, &sendID); err == nil {
		return "", core.Errorf(core.CodeInvalidRequestState, "gift %s is already paid", sendID)
	} else if !core.IsNoRows(err) {
		return "", core.Internal(err)
	}
	if balance < cents {
		return "", a.insufficient(mode, balance, cents, 1)
	}
	return a.MoveBalance(ctx, q, LedgerMove{
		WorkspaceID: workspaceID, Mode: mode, Kind: LedgerDebit, Cents: -cents,
		sendID: sendID, campaignID: campaignID, Note: "gift " + sendID,
	})
}

// Credit gives cents of a paid gift back to the balance it was paid from,
// inside the caller's transaction (cancellation before production, a
// declined gift). The gift's debit decides the workspace and mode; credits
// for a gift never add up to more than its debit (INVALID_REQUEST_STATE),
// and a gift without a debit is NOT_FOUND. It returns the entry's ID.
func (a *Service) Credit(ctx context.Context, q *db.Queries, workspaceID string, mode core.Mode, cents int64, sendID, campaignID, note string) (string, error) {
	if cents <= 0 || sendID == "" {
		return "", core.Internal(fmt.Errorf("credit: %d cents for send %q", cents, sendID))
	}
	if _, err := a.LockBalance(ctx, q, workspaceID, mode); err != nil {
		return "", err
	}
	d, err := q.LedgerEntryGetDebit(ctx, &sendID)
	if core.IsNoRows(err) {
		return "", core.Errorf(core.CodeNotFound, "gift %s was not paid from the balance", sendID)
	}
	if err != nil {
		return "", core.Internal(err)
	}
	if d.WorkspaceID != workspaceID || core.Mode(d.Mode) != mode {
		return "", core.Errorf(core.CodeNotFound, "gift %s was not paid from this balance", sendID)
	}
	credited, err := q.LedgerCreditedForSend(ctx, &sendID)
	if err != nil {
		return "", core.Internal(err)
	}
	if credited+cents > -d.Cents {
		return "", core.Errorf(core.CodeInvalidRequestState, "gift %s was paid %s and %s is already back; %s more is too much",
			sendID, core.Dollars(-d.Cents), core.Dollars(credited), core.Dollars(cents))
	}
	if note == "" {
		note = "gift " + sendID + " refunded"
	}
	return a.MoveBalance(ctx, q, LedgerMove{
		WorkspaceID: workspaceID, Mode: mode, Kind: LedgerCredit, Cents: cents,
		sendID: sendID, campaignID: campaignID, Note: note,
	})
}

// insufficient is 402 INSUFFICIENT_BALANCE for gifts gifts costing cents
// together, which a balance of mode holding balance cannot pay.
func (a *Service) insufficient(mode core.Mode, balance, cents int64, gifts int) *core.Error {
	cost := fmt.Sprintf("the gift costs %s", core.Dollars(cents))
	if gifts > 1 {
		cost = fmt.Sprintf("the %d gifts cost %s", gifts, core.Dollars(cents))
	}
	return &core.Error{
		Code: core.CodeInsufficientBalance, URL: a.Config.BalanceURL(),
		Message: fmt.Sprintf("the %s balance is %s; %s. An owner or admin can add funds", mode, core.Dollars(balance), cost),
	}
}
