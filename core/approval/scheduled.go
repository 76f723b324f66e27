package approval

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// Auto-approve decides a playbook person in three places: when an agent
// adds them (AddToPlaybook), when the same person is added again while they
// wait, and in the background for scheduled people (RunScheduledApprovals,
// the work of a ScheduledApprovalArgs job inserted with the write that
// scheduled them).
// All three call decideAuto, which reads the one set of approval checks.

// pgLockNotAvailable is PostgreSQL's SQLSTATE for lock_not_available: a
// NOWAIT lock that another transaction holds, or a lock_timeout that ran out.
const pgLockNotAvailable = "55P03"

// isLockNotAvailable reports whether err is (or wraps) lock_not_available.
func isLockNotAvailable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == pgLockNotAvailable
}

// autoDecision is what auto-approve decided for one person.
type autoDecision struct {
	state  campaign.ApprovalState
	reason campaign.ApprovalReason
	gift   gift.Gift
}

// approval is the decision as a PlaybookApproval.
func (d autoDecision) approval() campaign.PlaybookApproval {
	out := campaign.PlaybookApproval{State: d.state, Reason: d.reason}
	if d.state == campaign.ApprovalAutoApproved {
		out.SendID = d.gift.ID
	}
	return out
}

// decideAuto runs auto-approve for person who of playbook c, inside tx,
// which has locked c. It checks, in order, the auto-approve rule
// (AutoApproveChecks), the gift (GiftChecks), the person (PersonChecks,
// with an unapproved repeat blocking) and the limits with the balance
// (LimitChecks); the first failing check's reason makes the person wait.
// When every check passes it pays for the gift from the balance of mode
// (createGift: auto_approved, send.auto_approved). With wait false the
// balance lock is taken without waiting: when another approval holds it,
// the person is scheduled for the playbook's approval job instead. It stores
// nothing but the gift; settleDecision stores the state.
func (a *Service) decideAuto(ctx context.Context, tx pgx.Tx, c campaign.Record, product *catalog.Product, who campaign.Person, mode core.Mode, wait bool) (autoDecision, error) {
	prior, err := unapprovedPrior(ctx, db.New(tx), who, mode)
	if err != nil {
		return autoDecision{}, err
	}
	return a.decideAutoWithPrior(ctx, tx, c, product, who, mode, wait, prior)
}

// decideAutoWithPrior is decideAuto with the person's unapproved prior
// gift already read ("" for none). It takes the balance's lock last, once
// the person's and the identities' are held: the group and the approval
// job take a person's lock before the balance's.
func (a *Service) decideAutoWithPrior(ctx context.Context, tx pgx.Tx, c campaign.Record, product *catalog.Product, who campaign.Person, mode core.Mode, wait bool, prior string) (autoDecision, error) {
	q := db.New(tx)
	var unit int64
	if product != nil {
		unit = product.UnitCents()
	}
	if reason := checksWithPrior(c, product, who, prior, mode); reason != "" {
		return autoDecision{state: campaign.ApprovalWaiting, reason: reason}, nil
	}
	balance, locked, err := a.lockBalanceMaybe(ctx, tx, c.WorkspaceID, mode, wait)
	if err != nil {
		return autoDecision{}, err
	}
	if !locked {
		return autoDecision{state: campaign.ApprovalScheduled}, nil
	}
	// Read under the balance lock: every gift is created under it, and adds
	// to one playbook run side by side (lockPlaybookShared), so commitments
	// read before it could miss a gift committed meanwhile. So could the
	// prior gift: the same person added to another playbook (by another
	// instance, or decided by an approval job) may have been paid for
	// since prior was read.
	if prior == "" && who.RepeatApprovedAt == nil {
		if prior, err = unapprovedPrior(ctx, q, who, mode); err != nil {
			return autoDecision{}, err
		}
		if prior != "" {
			return autoDecision{state: campaign.ApprovalWaiting, reason: checksWithPrior(c, product, who, prior, mode)}, nil
		}
	}
	com, err := a.Campaigns.LoadCommitments(ctx, q, c.ID)
	if err != nil {
		return autoDecision{}, err
	}
	spend := campaign.Spend{SentCount: com.SentCount, SpentCents: com.SpentCents, MonthCents: com.MonthCents, BalanceCents: balance}
	if ks := campaign.LimitChecks(c, unit, spend); len(ks) > 0 {
		return autoDecision{state: campaign.ApprovalWaiting, reason: ks[0].Reason}, nil
	}
	g, err := a.createGift(ctx, tx, giftParams{
		c: c, who: who, unitCents: unit, mode: mode, fundedBy: gift.FundedByBalance, autoApproved: true, lockedBalance: &balance,
	})
	if err != nil {
		return autoDecision{}, err
	}
	return autoDecision{state: campaign.ApprovalAutoApproved, gift: g}, nil
}

// checksWithPrior runs auto-approve's checks for person who of playbook c
// that need neither the balance nor the playbook's spending: the rule
// (AutoApproveChecks), the gift (GiftChecks) and the person (PersonChecks,
// with prior, their unapproved prior gift or "", blocking). It returns the
// first failing check's reason, or "" when all pass.
func checksWithPrior(c campaign.Record, product *catalog.Product, who campaign.Person, prior string, mode core.Mode) campaign.ApprovalReason {
	var unit int64
	if product != nil {
		unit = product.UnitCents()
	}
	checks := campaign.AutoApproveChecks(c.AutoApprove, c, product, unit)
	checks = append(checks, campaign.GiftChecks(c, product, mode)...)
	checks = append(checks, campaign.PersonChecks(c, product, who, prior, mode, false)...)
	if len(checks) > 0 {
		return checks[0].Reason
	}
	return ""
}

// unapprovedPrior is the earlier gift that makes who a repeat not yet
// approved, or "": RepeatsOf's rule for one person, read through indexes.
func unapprovedPrior(ctx context.Context, q *db.Queries, who campaign.Person, mode core.Mode) (string, error) {
	if who.RepeatApprovedAt != nil {
		return "", nil
	}
	found, err := q.SendPriorForRecipients(ctx, db.SendPriorForRecipientsParams{Mode: string(mode), RecipientIds: []string{who.ID}})
	if err != nil {
		return "", core.Internal(err)
	}
	if len(found) == 0 {
		return "", nil
	}
	return found[0].SendID, nil
}

// lockBalanceMaybe locks the balance of workspace in mode for tx and
// returns it. With wait it waits for the lock (lockBalance); without, it
// takes the lock only when no one holds it (SKIP LOCKED, so that a lock
// held elsewhere, locked false, leaves tx usable without a savepoint). A
// workspace without a balance row has nothing to pay with: 0, and nothing
// to lock.
func (a *Service) lockBalanceMaybe(ctx context.Context, tx pgx.Tx, workspaceID string, mode core.Mode, wait bool) (cents int64, locked bool, err error) {
	if wait {
		cents, err := a.Ledger.LockBalance(ctx, db.New(tx), workspaceID, mode)
		return cents, err == nil, err
	}
	row, err := db.New(tx).BalanceTryLock(ctx, db.BalanceTryLockParams{WorkspaceID: workspaceID, Mode: string(mode)})
	if err != nil {
		return 0, false, core.Internal(err)
	}
	switch {
	case !row.Present:
		return 0, true, nil // no balance row: nothing to lock, nothing to pay with
	case row.Cents < 0:
		return 0, false, nil // another transaction holds it
	}
	return row.Cents, true, nil
}

// finishScheduled is an approval run's last look at playbook campaignID,
// once it found no one to claim: under the playbook locked FOR UPDATE,
// which waits for every add in progress (they hold it FOR SHARE), it
// reports whether scheduled people outside skip are left to decide (more:
// the run goes on). When none are, or the playbook is no longer an active
// playbook, the run ends; with clean (no decision failed) it removes the
// playbook's queued-job row, so that the next person scheduled queues a new
// job. A failed run keeps the row: River runs the job again.
func (a *Service) finishScheduled(ctx context.Context, workspaceID, campaignID string, skip []string, clean bool) (more bool, _ error) {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		c, err := campaign.LockRecord(ctx, q, workspaceID, campaignID)
		if err != nil {
			return err
		}
		if c.Mode.Playbook() && c.Status == campaign.StatusActive {
			more, err = q.RecipientScheduledLeft(ctx, db.RecipientScheduledLeftParams{WorkspaceID: workspaceID, CampaignID: c.ID, Skip: skip})
			if err != nil || more {
				return core.AsCoreError(err)
			}
		}
		if !clean {
			return nil
		}
		if err := q.PlaybookApprovalJobDone(ctx, c.ID); err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if core.ErrorCode(err) == core.CodeNotFound {
		return false, nil // the campaign is gone, and its row with it
	}
	return more, core.AsCoreError(err)
}

// ScheduledApprovalWorker works ScheduledApprovalArgs jobs: it decides the
// playbook's scheduled people (RunScheduledApprovals) and records how many
// it decided as the job's output ({"decided": n}).
type ScheduledApprovalWorker struct {
	river.WorkerDefaults[campaign.ScheduledApprovalArgs]
	Approvals *Service
}

var _ river.Worker[campaign.ScheduledApprovalArgs] = (*ScheduledApprovalWorker)(nil)

// ScheduledApprovalOutput is the output a ScheduledApprovalArgs job records.
type ScheduledApprovalOutput struct {
	// Decided is how many scheduled people the job decided.
	Decided int `json:"decided"`
}

// Work decides the job's playbook's scheduled people once. An error (the
// first met; the other people are still tried) makes River retry the job.
func (w *ScheduledApprovalWorker) Work(ctx context.Context, job *river.Job[campaign.ScheduledApprovalArgs]) error {
	n, err := w.Approvals.RunScheduledApprovals(ctx, job.Args.WorkspaceID, job.Args.CampaignID)
	if oerr := river.RecordOutput(ctx, ScheduledApprovalOutput{Decided: n}); oerr != nil {
		w.Approvals.Log.WarnContext(ctx, "scheduled approval: record output", "err", oerr)
	}
	return err
}

// RunScheduledApprovals decides every scheduled person of playbook
// campaignID of workspaceID, oldest queue_seq first, each in its own
// transaction: the playbook is locked shared with adds (waiting for it) and
// the person's row exclusively, and auto-approve
// runs exactly as for an add, in the workspace's current mode, waiting for
// the balance lock. The person is auto_approved (send.auto_approved
// recorded) or starts waiting with the first failing check's reason
// (playbook.person_waiting). The scheduled people of a playbook that is
// not active are left scheduled: turning it on again queues its job. It
// returns how many people it decided and the first error met (the others
// are still tried; a person whose decision failed is not tried again in
// this run). ScheduledApprovalWorker calls it.
//
// Each transaction claims the oldest scheduled person no one else has
// locked (RecipientClaimScheduled, SKIP LOCKED), so that approval jobs of
// one playbook running at once share the people out instead of each
// waiting for, then rereading, the people another has just decided. When
// the only scheduled people left are locked elsewhere, the next
// transaction waits for the oldest of them (RecipientClaimScheduledWait),
// until none is left: a person an add held stays scheduled and is decided
// here. The run ends with a last look under the playbook's exclusive lock
// (finishScheduled), which waits for the adds in progress and decides the
// people they scheduled, since they queued no job of their own.
func (a *Service) RunScheduledApprovals(ctx context.Context, workspaceID, campaignID string) (int, error) {
	var (
		n        int
		firstErr error
		failed   = []string{}
		wait     bool // only people held elsewhere were left
	)
	for ctx.Err() == nil {
		got, err := a.approveNextScheduled(ctx, workspaceID, campaignID, failed, wait)
		wait = false
		if err != nil {
			a.Log.Error("scheduled approval", "campaign", campaignID, "recipient", got.recipientID, "err", err)
			if firstErr == nil {
				firstErr = err
			}
			if got.recipientID == "" {
				return n, firstErr // the playbook or the queue could not be read
			}
			failed = append(failed, got.recipientID)
			continue
		}
		switch {
		case !got.active || (got.recipientID == "" && !got.left):
			more, err := a.finishScheduled(ctx, workspaceID, campaignID, failed, firstErr == nil)
			if err != nil || !more {
				return n, errors.Join(firstErr, err)
			}
		case got.recipientID == "":
			wait = true
		case got.decided:
			n++
		}
	}
	return n, errors.Join(firstErr, ctx.Err())
}

// scheduledTurn is what one approveNextScheduled did.
type scheduledTurn struct {
	// active is false when the playbook is not an active playbook.
	active bool
	// recipientID is the person claimed, or "" when none could be.
	recipientID string
	// decided is true when the person was decided.
	decided bool
	// left is true when no one could be claimed but scheduled people
	// outside skip are left, locked by other transactions.
	left bool
}

// approveNextScheduled claims and decides the oldest scheduled person of
// the playbook that no other transaction holds (with wait, the oldest,
// waiting for whoever holds them), outside skip, in one transaction. On an
// error the turn names the person it was deciding.
func (a *Service) approveNextScheduled(ctx context.Context, workspaceID, campaignID string, skip []string, wait bool) (turn scheduledTurn, _ error) {
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		ws, err := q.WorkspaceGetByID(ctx, workspaceID)
		if err != nil {
			return core.Internal(err)
		}
		// Shared, as adds share it: the approval job runs beside them. The
		// person's row is locked, so that two runs never decide them both.
		c, err := lockPlaybookShared(ctx, q, workspaceID, campaignID)
		if err != nil {
			return core.AsCoreError(err)
		}
		if !c.Mode.Playbook() || c.Status != campaign.StatusActive {
			return nil
		}
		turn.active = true
		claim := db.RecipientClaimScheduledParams{WorkspaceID: workspaceID, CampaignID: c.ID, Skip: skip}
		var row db.Recipient
		if wait {
			row, err = q.RecipientClaimScheduledWait(ctx, db.RecipientClaimScheduledWaitParams(claim))
		} else {
			row, err = q.RecipientClaimScheduled(ctx, claim)
		}
		if core.IsNoRows(err) {
			turn.left, err = q.RecipientScheduledLeft(ctx, db.RecipientScheduledLeftParams{WorkspaceID: workspaceID, CampaignID: c.ID, Skip: skip})
			if err != nil {
				return core.Internal(err)
			}
			return nil
		}
		if err != nil {
			return core.Internal(err)
		}
		turn.recipientID = row.ID
		who, err := campaign.PersonFromRow(row)
		if err != nil {
			return core.Internal(err)
		}
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return err
		}
		mode := core.Mode(ws.Mode)
		d, err := a.decideAuto(ctx, tx, c, product, who, mode, true)
		if err != nil {
			return err
		}
		turn.decided = true
		return a.settleDecision(ctx, tx, c, who.ID, campaign.ApprovalScheduled, "", d, mode)
	})
	if err != nil {
		turn.decided = false
		if turn.recipientID != "" {
			return turn, fmt.Errorf("recipient %s: %w", turn.recipientID, core.AsCoreError(err))
		}
		return turn, core.AsCoreError(err)
	}
	return turn, nil
}

// settleDecision stores decision d for person recipientID of c, who was in
// state from ("" for a person just added): a scheduled or waiting state with
// its reason (createGift already stored an approval), and a
// playbook.person_waiting event in mode when the person starts waiting.
func (a *Service) settleDecision(ctx context.Context, tx pgx.Tx, c campaign.Record, recipientID string, from campaign.ApprovalState, fromReason campaign.ApprovalReason, d autoDecision, mode core.Mode) error {
	if d.state == campaign.ApprovalAutoApproved {
		return nil
	}
	return a.Campaigns.SettleApproval(ctx, tx, c, recipientID, from, fromReason, d.state, d.reason, mode)
}
