package campaign

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// People join the queue of an active playbook in the write that adds them
// (queueAdded): waiting, or scheduled for the playbook's approval job. What
// decides them is core/approval's.

// SettleApproval stores state for person recipientID of c, who was in
// state from with fromReason ("" for a person just added): the reason only
// for waiting (a waiting person who waits for the same reason again is left
// as is), and a playbook.person_waiting event in mode when the person starts
// waiting. An approval stores its state with the gift instead
// (approval.createGift).
func (a *Service) SettleApproval(ctx context.Context, tx pgx.Tx, c Record, recipientID string, from ApprovalState, fromReason ApprovalReason, state ApprovalState, reason ApprovalReason, mode core.Mode) error {
	if state != ApprovalWaiting {
		reason = ""
	} else if from == ApprovalWaiting && fromReason == reason {
		return nil
	}
	if _, err := db.New(tx).RecipientSetApproval(ctx, db.RecipientSetApprovalParams{
		ApprovalState: string(state), ApprovalReason: string(reason), UpdatedAt: a.Clock.Now(), CampaignID: c.ID, ID: recipientID,
	}); err != nil {
		return core.Internal(err)
	}
	if state == ApprovalWaiting && from != ApprovalWaiting {
		return a.RecordWaiting(ctx, tx, c, recipientID, reason, mode)
	}
	return nil
}

// RecordWaiting records playbook.person_waiting for a person of c who
// starts waiting with reason: IDs and the reason only, never an email,
// address or note.
func (a *Service) RecordWaiting(ctx context.Context, tx pgx.Tx, c Record, recipientID string, reason ApprovalReason, mode core.Mode) error {
	return a.RecordEvent(ctx, tx, core.EventRecord{
		WorkspaceID: c.WorkspaceID, Type: core.EventPlaybookPersonWaiting, Mode: mode, CampaignID: c.ID, RecipientID: recipientID,
		Data: map[string]any{"campaignId": c.ID, "recipientId": recipientID, "reason": reason, "approvalUrl": a.Config.QueueURL(c.ID)},
	})
}

// queueAdded puts people just added to active playbook c by a roster write
// (add_recipients, a recipients-only PATCH) into the queue, in tx:
// scheduled, with the playbook's approval job inserted, when auto-approve
// is on; else waiting with auto_approve_off and a playbook.person_waiting
// event each.
func (a *Service) queueAdded(ctx context.Context, tx pgx.Tx, p core.Principal, c Record, added []Person) error {
	on := c.AutoApprove.On()
	state, reason := ApprovalScheduled, ApprovalReason("")
	if !on {
		state, reason = ApprovalWaiting, ReasonAutoApproveOff
	}
	for _, who := range added {
		if err := a.SettleApproval(ctx, tx, c, who.ID, "", "", state, reason, ModeOf(p)); err != nil {
			return err
		}
	}
	if on && len(added) > 0 {
		return a.ScheduleApprovals(ctx, tx, c.WorkspaceID, c.ID)
	}
	return nil
}

// ScheduledApprovalArgs is the River job that decides the scheduled people
// of one playbook (RunScheduledApprovals). A write that schedules someone
// inserts it in its own transaction; one unfinished job per playbook is
// enough, as the job decides everyone scheduled when it runs.
type ScheduledApprovalArgs struct {
	WorkspaceID string `json:"workspace_id" river:"unique"`
	CampaignID  string `json:"campaign_id" river:"unique"`
}

// Kind names the job.
func (ScheduledApprovalArgs) Kind() string { return "approve_scheduled" }

// ScheduledApprovalOpts are the insert options of a ScheduledApprovalArgs
// job: one unfinished job per playbook.
func ScheduledApprovalOpts() *river.InsertOpts {
	return &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: core.UnfinishedJobStates()}}
}

// ScheduleApprovals queues, in tx, the approval job of playbook campaignID
// for a person tx schedules, unless a job is queued that has not yet taken
// its last look at the queue (playbook_approval_jobs): that job's last look
// locks the playbook FOR UPDATE and so waits for tx, which holds it (FOR
// SHARE at least; every caller does), and then decides tx's people. Adds
// that find such a job read one row and take no lock, so that they do not
// wait for each other's commits on the job's row. Otherwise it records the
// claim and inserts the job, unless one that has not started yet is queued
// (River's unique insert); a job already running may have listed the
// scheduled people before tx commits: then a second job follows it.
func (a *Service) ScheduleApprovals(ctx context.Context, tx pgx.Tx, workspaceID, campaignID string) error {
	q := db.New(tx)
	queued, err := q.PlaybookApprovalJobQueued(ctx, campaignID)
	if err != nil {
		return core.Internal(err)
	}
	if queued {
		return nil
	}
	if _, err := q.PlaybookApprovalJobClaim(ctx, campaignID); core.IsNoRows(err) {
		return nil // another transaction has just queued it
	} else if err != nil {
		return core.Internal(err)
	}
	args := ScheduledApprovalArgs{WorkspaceID: workspaceID, CampaignID: campaignID}
	res, err := a.InsertJob(ctx, tx, args, ScheduledApprovalOpts())
	if err != nil {
		return err
	}
	// The unique insert returned the queued job locked until tx commits, so
	// it cannot start meanwhile: only one already running can miss tx's people.
	if res.UniqueSkippedAsDuplicate && res.Job != nil && res.Job.State == rivertype.JobStateRunning {
		_, err = a.InsertJob(ctx, tx, args, nil)
	}
	return err
}
