package approval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/sql/db"
)

// Adding a person to a playbook is queue traffic: many agents add people to
// the same playbook at once. Adds share the playbook's lock, so adds of
// different people run side by side (playbook_add_match.go); a write to the
// campaign itself holds it alone. An add waits for that lock with a short
// lock wait and tries a few times; an add that loses every race is
// PLAYBOOK_BUSY with nothing saved. An add that finds no other approval
// of its balance under way in this process decides its person in its own
// transaction (one commit, no wait). Otherwise auto-approve runs in a
// group commit (group_commit.go): the add commits its person scheduled
// and the workspace's committer decides them with everyone who arrived
// meanwhile, in one transaction that takes the balance once; the add
// answers that decision, or scheduled when the group is slower than
// groupWait.

const (
	// addLockWait is how long one attempt waits for the playbook's lock.
	addLockWait = "250ms"
	// addAttempts is how many times an add tries to get the lock.
	addAttempts = 3
)

// errPlaybookLocked is one attempt's failure to lock the playbook in time.
var errPlaybookLocked = errors.New("playbook locked by other adds")

// errDryRun rolls back a dry run's transaction once its answer is known.
var errDryRun = errors.New("dry run: roll back")

// playbookPath is where add_to_playbook's problems are named (recipient.email).
const playbookPath = "recipient"

// AddToPlaybook adds one person to active playbook campaignID for p and
// runs auto-approve: the answer's approval is auto_approved (paid from the
// balance in p's mode, with sendId), waiting with a reason (nothing
// charged; a playbook.person_waiting event; the answer carries the
// person's queue blockers, and topUpUrl when the balance is low), or
// scheduled (under load: the person's group did not answer within
// groupWait, and decides them moments later).
//
// The call is idempotent: a person already on the playbook (matched by
// SourceSystem+externalId, then recipientId, email or profileUrl; an add
// with none of these by name and company: AddIdentityOf) is
// answered with alreadyQueued and their current state. A matched person who
// still waits takes the non-empty fields sent (details merge key by key),
// and auto-approve runs again when it is on; anyone else is left as they
// are.
//
// With in.DryRun the add runs as it would now, in a transaction that is
// rolled back: nothing is saved, charged, recorded or scheduled, and the
// answer (dryRun, priceCents) carries the approval the add would reach.
//
// It returns NOT_FOUND (the playbook, or a recipientId not on it),
// NOT_ALWAYS_ON (a batch or single), CAMPAIGN_COMPLETED, PLAYBOOK_OFF
// (draft or paused; url: the review page), RECIPIENT_SKIPPED (url: the
// queue page), VALIDATION_ERROR naming recipient.<field> (or recipient for
// a playbook already holding 2000 people), TOO_MANY_ARTWORK_FILES,
// RECIPIENT_IDENTITY_CONFLICT, RECIPIENT_MESSAGE_REQUIRED, PLAYBOOK_BUSY
// (retryAfterMs 250-999; nothing saved), and the codes of Authorize.
func (a *Service) AddToPlaybook(ctx context.Context, p core.Principal, campaignID string, in PlaybookPersonAdd) (AddPersonResult, error) {
	if err := core.Authorize(p, core.ActAddPeople, a.Config.ReviewURL(campaignID)); err != nil {
		return AddPersonResult{}, err
	}
	if n := len(in.Recipient.AssetIDs); n > campaign.MaxAssetIDs {
		return AddPersonResult{}, core.FieldError(core.CodeTooManyArtworkFiles, campaign.FieldAt(playbookPath, "assetIds"),
			"has %d artwork files; a person takes at most %d", n, campaign.MaxAssetIDs)
	}
	if err := a.Campaigns.CheckArtwork(ctx, p.WorkspaceID, nil, []campaign.RecipientInput{in.Recipient}, func(int) string { return playbookPath }); err != nil {
		return AddPersonResult{}, err
	}
	for attempt := range addAttempts {
		if attempt > 0 {
			// Jitter, so that writers that collided do not collide again.
			select {
			case <-ctx.Done():
				return AddPersonResult{}, core.Internal(ctx.Err())
			case <-time.After(time.Duration(10+rand.IntN(40)) * time.Millisecond):
			}
		}
		var out AddPersonResult
		// A lone add decides in its own transaction; others hand their
		// person to the group committer.
		group := !in.DryRun && !a.NoGroupCommit
		key := groupKey{workspaceID: p.WorkspaceID, mode: campaign.ModeOf(p)}
		alone := group && a.claimIdle(key)
		// In a pipeline: the add's plain writes ride with its next read.
		err := core.InPipeline(ctx, a.DB, func(tx pgx.Tx) (err error) {
			out, err = a.addToPlaybook(ctx, tx, p, campaignID, in.Recipient, group && !alone)
			if err == nil && out.Approval.State == campaign.ApprovalWaiting {
				err = a.explainWaiting(ctx, db.New(tx), p, &out)
			}
			if err == nil && in.DryRun {
				err = errDryRun
			}
			return err
		})
		if alone {
			a.releaseIdle(key)
		}
		if errors.Is(err, errPlaybookLocked) {
			continue
		}
		if errors.Is(err, errDryRun) {
			return dryRunAnswer(out), nil
		}
		if full := rosterBoundError(err); full != nil {
			return AddPersonResult{}, full
		}
		if err != nil {
			return AddPersonResult{}, core.AsCoreError(err)
		}
		if out.grouped {
			return a.answerFromGroup(ctx, p, campaignID, out)
		}
		return out, nil
	}
	return AddPersonResult{}, &core.Error{
		Code:         core.CodePlaybookBusy,
		Message:      fmt.Sprintf("others were being added to playbook %s at the same moment and nothing was saved; wait retryAfterMs, then send the same add again", core.Clip(campaignID, 60)),
		RetryAfterMs: 250 + rand.Int64N(750),
	}
}

// addToPlaybook is one attempt of AddToPlaybook inside tx.
//
// With group, a new person who passes every check that needs no money is
// committed scheduled and the answer is marked grouped: AddToPlaybook
// then asks the group committer to decide them (answerFromGroup).
func (a *Service) addToPlaybook(ctx context.Context, tx pgx.Tx, p core.Principal, campaignID string, in campaign.RecipientInput, group bool) (AddPersonResult, error) {
	q := db.New(tx)
	if err := q.TxSetLockTimeout(ctx, addLockWait); err != nil {
		return AddPersonResult{}, core.Internal(err)
	}
	mode := campaign.ModeOf(p)
	k := campaign.AddIdentityOf(in)
	// The playbook's lock reads what a new person needs beside it.
	c, size, err := lockPlaybookForAdd(ctx, q, db.PlaybookLockForAddParams{
		WorkspaceID: p.WorkspaceID, ID: campaignID, Mode: string(mode),
		Email: k.Email, SourceSystem: k.SourceSystem, ExternalID: k.ExternalID, ProfileUrl: k.Profile,
	})
	if isLockNotAvailable(err) {
		return AddPersonResult{}, errPlaybookLocked
	}
	if err != nil {
		return AddPersonResult{}, core.AsCoreError(err)
	}
	// The playbook is ours: later statements wait as usual.
	if err := q.TxSetLockTimeout(ctx, "0"); err != nil {
		return AddPersonResult{}, core.Internal(err)
	}
	if err := playbookOn(a, c); err != nil {
		return AddPersonResult{}, err
	}
	product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
	if err != nil {
		return AddPersonResult{}, err
	}
	var unit int64
	if product != nil {
		unit = product.UnitCents()
	}
	if err := lockIdentities(ctx, q, c.ID, k); err != nil {
		return AddPersonResult{}, err
	}
	roster, err := loadCandidates(ctx, q, c.ID, k)
	if err != nil {
		return AddPersonResult{}, err
	}
	pos, err := matchPlaybookPerson(roster.People, in)
	if err != nil {
		return AddPersonResult{}, err
	}
	rules := campaign.RecipientRules{Product: product}
	res := AddPersonResult{Queued: true, ApprovalURL: a.Config.QueueURL(c.ID), unitCents: unit}
	var pr campaign.Problems
	if pos >= 0 {
		if err := a.Campaigns.CheckoutLock(ctx, q, c); err != nil {
			return AddPersonResult{}, err
		}
		return a.addAgain(ctx, tx, c, product, roster.People[pos], in, mode, res)
	}

	// A new person: the roster's size, the checkout and whether they are a
	// repeat were read with the playbook's lock.
	f := campaign.ApplyRecipient(campaign.NewPersonFields(), in, playbookPath, rules, &pr)
	if err := a.Campaigns.CheckoutLockOf(c, size.CheckoutID, size.CheckoutState, size.CheckoutExpiresAt); err != nil {
		return AddPersonResult{}, err
	}
	if int(size.People) >= core.RecipientsPerPlaybook {
		rosterFull(&pr, int(size.People))
	}
	now := a.Clock.Now()
	np := campaign.Person{PersonFields: f, ID: core.NewID(core.PrefixRecipient), Position: int(size.NextPosition), CreatedAt: now}
	only := []campaign.Person{np}
	pathOf := func(int) string { return playbookPath }
	campaign.CheckRoster(c.Settings, only, pathOf, &pr)
	if err := pr.ErrOnAdd(); err != nil {
		return AddPersonResult{}, err
	}
	if err := campaign.NotesComplete(c.Settings, only, pathOf, only); err != nil {
		return AddPersonResult{}, err
	}
	res.RecipientID = np.ID
	// The prior gift was looked up by the identities as sent; when they
	// are stored otherwise, it is looked up again by the stored person.
	priorKnown := f.Email == k.Email && f.SourceSystem == k.SourceSystem && f.ExternalID == k.ExternalID && f.ProfileURL == k.Profile
	if group {
		prior := size.PriorSendID
		if !priorKnown {
			prior = "" // the group reads it
		}
		return a.addForGroup(ctx, tx, p, c, product, np, mode, now, prior, res)
	}
	// One person: a plain insert, which rides with the next read (a COPY
	// would be a round trip of its own); settleDecision stores their state.
	if err := campaign.InsertQueued(ctx, q, p, c.ID, &only[0], now, campaign.ApprovalWaiting, ""); err != nil {
		return AddPersonResult{}, err
	}
	prior := size.PriorSendID
	if !priorKnown {
		if prior, err = unapprovedPrior(ctx, q, only[0], mode); err != nil {
			return AddPersonResult{}, err
		}
	}
	// The balance's lock is tried now, with every other lock held.
	d, err := a.decideAutoWithPrior(ctx, tx, c, product, only[0], mode, false, prior)
	if err != nil {
		return AddPersonResult{}, err
	}
	if err := a.settleDecision(ctx, tx, c, np.ID, "", "", d, mode); err != nil {
		return AddPersonResult{}, err
	}
	if err := a.scheduleIfScheduled(ctx, tx, c, d); err != nil {
		return AddPersonResult{}, err
	}
	res.Approval, res.decided = d.approval(), true
	return res, nil
}

// addForGroup stores who, a new person of c added by p, in tx for the
// group committer: waiting with the first failing check that needs no
// money (prior is their unapproved prior gift, "" for none; the group
// reads it again), with a playbook.person_waiting event, or scheduled,
// with the answer marked grouped. No approval job is queued: the group
// decides them, a failed group queues the job itself, and a person left by
// a process that stopped is found by the minute's sweep
// (SweepScheduledWorker) or serve's start (RequeueScheduledApprovals).
func (a *Service) addForGroup(ctx context.Context, tx pgx.Tx, p core.Principal, c campaign.Record, product *catalog.Product, who campaign.Person, mode core.Mode, now time.Time, prior string, res AddPersonResult) (AddPersonResult, error) {
	reason := checksWithPrior(c, product, who, prior, mode)
	d := autoDecision{state: campaign.ApprovalWaiting, reason: reason}
	if reason == "" {
		d.state, res.grouped = campaign.ApprovalScheduled, true
	}
	if err := campaign.InsertQueued(ctx, db.New(tx), p, c.ID, &who, now, d.state, d.reason); err != nil {
		return AddPersonResult{}, err
	}
	if d.state == campaign.ApprovalWaiting {
		if err := a.Campaigns.RecordWaiting(ctx, tx, c, who.ID, reason, mode); err != nil {
			return AddPersonResult{}, err
		}
	}
	res.Approval, res.decided = d.approval(), true
	return res, nil
}

// answerFromGroup finishes the answer out of an add whose person was
// committed scheduled for the group committer: it waits for the group's
// decision (askGroup) and, for a person who now waits, reads what the
// answer needs for the next step (explainWaiting).
func (a *Service) answerFromGroup(ctx context.Context, p core.Principal, campaignID string, out AddPersonResult) (AddPersonResult, error) {
	ans := a.askGroup(ctx, groupKey{workspaceID: p.WorkspaceID, mode: campaign.ModeOf(p)}, campaignID, out.RecipientID, campaign.PreparerOf(p))
	out.Approval = ans.decision.approval()
	if out.Approval.State == campaign.ApprovalWaiting {
		if err := a.explainWaiting(ctx, db.New(a.DB), p, &out); err != nil {
			return AddPersonResult{}, err
		}
	}
	return out, nil
}

// addAgain answers an add of cur, who is already on playbook c: their
// current state, after merging the fields sent and running auto-approve
// again while they wait.
func (a *Service) addAgain(ctx context.Context, tx pgx.Tx, c campaign.Record, product *catalog.Product, cur campaign.Person, in campaign.RecipientInput, mode core.Mode, res AddPersonResult) (AddPersonResult, error) {
	q := db.New(tx)
	res.RecipientID, res.AlreadyQueued = cur.ID, true
	// Adds share the playbook: the person's row is locked and read again, so
	// that an add of them by another identifier, or the approval job, which
	// decided them meanwhile, is seen.
	row, err := q.RecipientGetForApprovalLocked(ctx, db.RecipientGetForApprovalLockedParams{CampaignID: c.ID, ID: cur.ID})
	if err != nil {
		return AddPersonResult{}, core.Internal(err)
	}
	if cur, err = campaign.PersonFromRow(row); err != nil {
		return AddPersonResult{}, core.Internal(err)
	}
	// The input is checked as an update of the person, even when it changes nothing.
	var pr campaign.Problems
	merged := cur
	merged.PersonFields = campaign.ApplyRecipient(cur.PersonFields, in, playbookPath, campaign.RecipientRules{Product: product}, &pr)
	if err := pr.ErrOnAdd(); err != nil {
		return AddPersonResult{}, err
	}
	state, reason := campaign.ApprovalState(row.ApprovalState), campaign.ApprovalReason(row.ApprovalReason)
	switch state {
	case campaign.ApprovalSkipped:
		return AddPersonResult{}, &core.Error{Code: core.CodeRecipientSkipped, URL: a.Config.QueueURL(c.ID),
			Message: fmt.Sprintf("%s (%s) was skipped by an owner or admin; do not add them again", cur.ID, cur.DisplayName())}
	case campaign.ApprovalApproved, campaign.ApprovalAutoApproved:
		send, err := q.SendFirstOfRecipient(ctx, cur.ID)
		if err != nil && !core.IsNoRows(err) {
			return AddPersonResult{}, core.Internal(err)
		}
		res.Approval = campaign.PlaybookApproval{State: state, SendID: send}
		return res, nil
	case campaign.ApprovalScheduled:
		res.Approval = campaign.PlaybookApproval{State: state}
		return res, nil
	}

	// Waiting: take what was sent, then run auto-approve again when on.
	if !merged.Same(cur.PersonFields) {
		if err := campaign.NotesComplete(c.Settings, []campaign.Person{merged}, func(int) string { return playbookPath }, []campaign.Person{merged}); err != nil {
			return AddPersonResult{}, err
		}
		params, err := merged.UpdateParams(c.ID, a.Clock.Now())
		if err != nil {
			return AddPersonResult{}, core.Internal(err)
		}
		if _, err := q.RecipientUpdate(ctx, params); err != nil {
			if _, unique := core.ViolatedUnique(err); unique {
				return AddPersonResult{}, core.Errorf(core.CodeInvalidRequestState, "recipient: another person on the playbook has this email or sourceSystem+externalId")
			}
			return AddPersonResult{}, core.Internal(err)
		}
	}
	if !c.AutoApprove.On() {
		if reason == "" {
			// People on the roster before the playbook was turned on.
			reason = campaign.ReasonAutoApproveOff
		}
		res.Approval = campaign.PlaybookApproval{State: campaign.ApprovalWaiting, Reason: reason}
		return res, nil
	}
	d, err := a.decideAuto(ctx, tx, c, product, merged, mode, false)
	if err != nil {
		return AddPersonResult{}, err
	}
	if err := a.settleDecision(ctx, tx, c, cur.ID, campaign.ApprovalWaiting, reason, d, mode); err != nil {
		return AddPersonResult{}, err
	}
	if err := a.scheduleIfScheduled(ctx, tx, c, d); err != nil {
		return AddPersonResult{}, err
	}
	res.Approval, res.decided = d.approval(), true
	return res, nil
}

// dryRunAnswer is a dry run's answer from the rolled-back add's: nothing
// was saved, so a new person has no recipientId and no one has a sendId.
func dryRunAnswer(out AddPersonResult) AddPersonResult {
	out.DryRun, out.PriceCents = true, out.unitCents
	out.Queued = out.AlreadyQueued
	if !out.AlreadyQueued {
		out.RecipientID = ""
	}
	if out.decided {
		out.Approval.SendID = ""
	}
	return out
}

// scheduleIfScheduled inserts playbook c's approval job in tx when d
// scheduled the person.
func (a *Service) scheduleIfScheduled(ctx context.Context, tx pgx.Tx, c campaign.Record, d autoDecision) error {
	if d.state != campaign.ApprovalScheduled {
		return nil
	}
	return a.Campaigns.ScheduleApprovals(ctx, tx, c.WorkspaceID, c.ID)
}

// playbookOn is the error for adding to c when c is not an active playbook:
// NOT_ALWAYS_ON, CAMPAIGN_COMPLETED or PLAYBOOK_OFF (url: the review page).
func playbookOn(a *Service, c campaign.Record) error {
	switch {
	case !c.Mode.Playbook():
		return core.Errorf(core.CodeNotAlwaysOn, "campaign %s is a %s campaign, not a playbook; add people with add_recipients", c.ID, c.Mode)
	case c.Status == campaign.StatusCompleted:
		return campaign.CampaignCompleted(c.ID)
	case c.Status != campaign.StatusActive:
		return &core.Error{Code: core.CodePlaybookOff, URL: a.Config.ReviewURL(c.ID),
			Message: fmt.Sprintf("playbook %s is %s; a signed-in teammate turns it on at the url, then send the same add again", c.ID, c.Status)}
	}
	return nil
}

// matchPlaybookPerson finds the roster person in names: the same
// SourceSystem+externalId, recipientId, email or profileUrl, or for an add
// with none of them the same name and company (-1 for a new person). It
// returns NOT_FOUND for a recipientId not on the roster and
// RECIPIENT_IDENTITY_CONFLICT when the identifiers belong to different
// people, would change the matched person's SourceSystem+externalId, or
// the name and company alone name several people.
func matchPlaybookPerson(people []campaign.Person, in campaign.RecipientInput) (int, error) {
	pos, _, err := campaign.IndexRoster(people).Match(campaign.AddIdentityOf(in), playbookPath)
	return pos, err
}
