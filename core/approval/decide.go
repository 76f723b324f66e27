package approval

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// A signed-in owner or admin decides waiting people: approve (the gift is
// created and the balance charged), skip, or unskip. Agents never do.

// MaxSkipReason is the longest skip reason, in characters.
const MaxSkipReason = 200

// queuePerson is a playbook person locked for a decision.
type queuePerson struct {
	c      campaign.Record
	who    campaign.Person
	state  campaign.ApprovalState
	reason campaign.ApprovalReason
}

// lockQueuePerson locks playbook campaignID of p's workspace in tx and reads
// person recipientID on it. It returns VALIDATION_ERROR for empty IDs,
// NOT_FOUND naming campaignId or recipientId, NOT_ALWAYS_ON and
// CAMPAIGN_COMPLETED.
func lockQueuePerson(ctx context.Context, q *db.Queries, p core.Principal, campaignID, recipientID string) (queuePerson, error) {
	campaignID, recipientID = strings.TrimSpace(campaignID), strings.TrimSpace(recipientID)
	var pr campaign.Problems
	if campaignID == "" {
		pr.Add("campaignId", "is required: the playbook's ID (cmp_...)")
	}
	if recipientID == "" {
		pr.Add("recipientId", "is required: the waiting person's ID (recipient_...)")
	}
	if err := pr.Err(); err != nil {
		return queuePerson{}, err
	}
	c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, campaignID)
	if err != nil {
		if core.ErrorCode(err) == core.CodeNotFound {
			return queuePerson{}, core.FieldError(core.CodeNotFound, "campaignId", "no campaign %s in this workspace; list_queue shows the waiting people with their playbooks", core.Clip(campaignID, 60))
		}
		return queuePerson{}, err
	}
	switch {
	case !c.Mode.Playbook():
		return queuePerson{}, core.Errorf(core.CodeNotAlwaysOn, "campaign %s is a %s campaign, not a playbook: it has no approval queue", c.ID, c.Mode)
	case c.Status == campaign.StatusCompleted:
		return queuePerson{}, campaign.CampaignCompleted(c.ID)
	}
	row, err := q.RecipientGetForApproval(ctx, db.RecipientGetForApprovalParams{CampaignID: c.ID, ID: recipientID})
	if core.IsNoRows(err) {
		return queuePerson{}, core.FieldError(core.CodeNotFound, "recipientId", "%s is not on playbook %s", core.Clip(recipientID, 60), c.ID)
	}
	if err != nil {
		return queuePerson{}, core.Internal(err)
	}
	who, err := campaign.PersonFromRow(row)
	if err != nil {
		return queuePerson{}, core.Internal(err)
	}
	return queuePerson{c: c, who: who, state: campaign.ApprovalState(row.ApprovalState), reason: campaign.ApprovalReason(row.ApprovalReason)}, nil
}

// ApproveGift approves a waiting (or scheduled) person of a playbook for
// p, a signed-in owner or admin: the gift is created and paid from the
// balance of p's mode in one transaction (send.created). A manual approval
// does not wait for the people ahead in the queue, and the per-gift limit
// and shipping quote, which only stop auto-approve, do not apply. A person
// already approved returns their gift unchanged (nothing is charged again).
//
// It returns the codes of Authorize (HUMAN_APPROVAL_REQUIRED with the queue
// page for keys and connections, TEAM_MANAGER_REQUIRED for members),
// NOT_FOUND, NOT_ALWAYS_ON, CAMPAIGN_COMPLETED, PLAYBOOK_OFF (a draft or
// paused playbook), RECIPIENT_SKIPPED, then the first failing check:
// GIFT_UNAVAILABLE (or GIFT_RETIRED, PRICE_QUOTE_REQUIRED),
// PRODUCT_UNVERIFIED, PERSONALIZATION_REQUIRED, RECIPIENT_MESSAGE_REQUIRED,
// RECIPIENT_DETAILS_REQUIRED, REPEAT_REVIEW_REQUIRED (unless approveRepeat,
// which records the repeat's approval), LIVE_ADDRESSLESS_UNAVAILABLE,
// BUDGET_CAP (send limit, playbook budget or monthly budget) and 402
// INSUFFICIENT_BALANCE (url: the balance page).
func (a *Service) ApproveGift(ctx context.Context, p core.Principal, in QueueDecision) (gift.Gift, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.QueueURL(in.CampaignID)); err != nil {
		return gift.Gift{}, err
	}
	var out gift.Gift
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) (err error) {
		out, err = a.approveTx(ctx, tx, p, in)
		return err
	})
	if err != nil {
		return gift.Gift{}, core.AsCoreError(err)
	}
	return out, nil
}

// approveTx is ApproveGift's decision inside tx, for p already authorized.
func (a *Service) approveTx(ctx context.Context, tx pgx.Tx, p core.Principal, in QueueDecision) (out gift.Gift, _ error) {
	err := func() error {
		q := db.New(tx)
		qp, err := lockQueuePerson(ctx, q, p, in.CampaignID, in.RecipientID)
		if err != nil {
			return err
		}
		c, who := qp.c, qp.who
		if c.Status != campaign.StatusActive {
			return &core.Error{Code: core.CodePlaybookOff, URL: a.Config.ReviewURL(c.ID),
				Message: fmt.Sprintf("playbook %s is %s and sends nothing; turn it on at the url, then approve", c.ID, c.Status)}
		}
		switch qp.state {
		case campaign.ApprovalSkipped:
			return &core.Error{Code: core.CodeRecipientSkipped, URL: a.Config.QueueURL(c.ID),
				Message: fmt.Sprintf("%s (%s) was skipped; unskip them first to approve", who.ID, who.DisplayName())}
		case campaign.ApprovalApproved, campaign.ApprovalAutoApproved:
			row, err := q.SendGetByRecipient(ctx, who.ID)
			if err != nil {
				return core.Internal(err)
			}
			out, err = gift.FromRow(row)
			return err
		}
		mode := campaign.ModeOf(p)
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return err
		}
		if ks := campaign.GiftChecks(c, product, mode); len(ks) > 0 {
			return a.Campaigns.ApprovalError(ks[0], c.ID, product)
		}
		// The balance's lock is taken before the prior gift is read: every
		// gift is created under it, so a gift another playbook just paid for
		// the same person is seen.
		balance, err := a.Ledger.LockBalance(ctx, q, p.WorkspaceID, mode)
		if err != nil {
			return err
		}
		prior, err := unapprovedPrior(ctx, q, who, mode)
		if err != nil {
			return err
		}
		if ks := campaign.PersonChecks(c, product, who, prior, mode, false); len(ks) > 0 {
			k := ks[0]
			if k.Reason != campaign.ReasonRepeatReview || !in.ApproveRepeat {
				return a.Campaigns.ApprovalError(k, c.ID, product)
			}
			// The repeat is approved with the gift, as approve_campaign_repeats records it.
			if _, err := q.RecipientApproveRepeats(ctx, db.RecipientApproveRepeatsParams{
				ApprovedBy: p.UserID, Now: a.Clock.Now(), CampaignID: c.ID, Ids: []string{who.ID},
			}); err != nil {
				return core.Internal(err)
			}
			if ks := campaign.PersonChecks(c, product, who, "", mode, false); len(ks) > 0 {
				return a.Campaigns.ApprovalError(ks[0], c.ID, product)
			}
		}
		unit := product.UnitCents()
		com, err := a.Campaigns.LoadCommitments(ctx, q, c.ID)
		if err != nil {
			return err
		}
		// The balance is checked by the debit itself (402 INSUFFICIENT_BALANCE).
		spend := campaign.Spend{SentCount: com.SentCount, SpentCents: com.SpentCents, MonthCents: com.MonthCents, BalanceCents: unit}
		if ks := campaign.LimitChecks(c, unit, spend); len(ks) > 0 {
			return a.Campaigns.ApprovalError(ks[0], c.ID, product)
		}
		out, err = a.createGift(ctx, tx, giftParams{
			c: c, who: who, unitCents: unit, mode: mode, fundedBy: gift.FundedByBalance, approvedBy: p.UserID, lockedBalance: &balance,
		})
		return err
	}()
	return out, err
}

// SkipGift sets a waiting or scheduled person of a playbook aside for p, a
// signed-in owner or admin, with an optional reason of up to 200
// characters. Skipping a skipped person changes nothing. A skipped person
// cannot be added again (RECIPIENT_SKIPPED) until unskipped.
//
// It returns the codes of Authorize, VALIDATION_ERROR naming reason,
// NOT_FOUND, NOT_ALWAYS_ON, CAMPAIGN_COMPLETED and INVALID_REQUEST (409)
// for a person who already has a gift.
func (a *Service) SkipGift(ctx context.Context, p core.Principal, in QueueSkip) (SkipResult, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.QueueURL(in.CampaignID)); err != nil {
		return SkipResult{}, err
	}
	reason := strings.TrimSpace(in.Reason)
	switch {
	case utf8.RuneCountInString(reason) > MaxSkipReason:
		return SkipResult{}, core.Invalid("reason", "must be at most %d characters", MaxSkipReason)
	case core.HasControl(reason):
		return SkipResult{}, core.Invalid("reason", "must not contain control characters or line breaks")
	}
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		qp, err := lockQueuePerson(ctx, q, p, in.CampaignID, in.RecipientID)
		if err != nil {
			return err
		}
		switch qp.state {
		case campaign.ApprovalSkipped:
			return nil
		case campaign.ApprovalApproved, campaign.ApprovalAutoApproved:
			return core.FieldError(core.CodeInvalidRequestState, "recipientId", "%s (%s) already has a gift and cannot be skipped", qp.who.ID, qp.who.DisplayName())
		}
		now := a.Clock.Now()
		if _, err := q.RecipientSkip(ctx, db.RecipientSkipParams{
			SkipReason: reason, SkippedBy: p.UserID, SkippedAt: &now, CampaignID: qp.c.ID, ID: qp.who.ID,
		}); err != nil {
			return core.Internal(err)
		}
		return a.RecordActivity(ctx, tx, p, core.ActivityRecord{
			Kind: core.ActivitySkipped, Mode: campaign.ModeOf(p), CampaignID: qp.c.ID, RecipientID: qp.who.ID, Subject: reason,
		})
	})
	if err != nil {
		return SkipResult{}, core.AsCoreError(err)
	}
	return SkipResult{Skipped: true}, nil
}

// UnskipGift clears the skip of a playbook person for p, a signed-in owner
// or admin: the person waits again for a person to approve them (reason
// auto_approve_off without an auto-approve rule, needs_review with one).
// Auto-approve does not run; adding the same person again runs it.
// Unskipping a person who is not skipped changes nothing ({skipped: false}).
//
// It returns the codes of Authorize, NOT_FOUND, NOT_ALWAYS_ON and
// CAMPAIGN_COMPLETED.
func (a *Service) UnskipGift(ctx context.Context, p core.Principal, in QueueUnskip) (SkipResult, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.QueueURL(in.CampaignID)); err != nil {
		return SkipResult{}, err
	}
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		qp, err := lockQueuePerson(ctx, q, p, in.CampaignID, in.RecipientID)
		if err != nil {
			return err
		}
		if qp.state != campaign.ApprovalSkipped {
			return nil
		}
		reason := campaign.ReasonAutoApproveOff
		if qp.c.AutoApprove.On() {
			reason = campaign.ReasonNeedsReview
		}
		if _, err := q.RecipientUnskip(ctx, db.RecipientUnskipParams{
			ApprovalReason: string(reason), UpdatedAt: a.Clock.Now(), CampaignID: qp.c.ID, ID: qp.who.ID,
		}); err != nil {
			return core.Internal(err)
		}
		if err := a.Campaigns.RecordWaiting(ctx, tx, qp.c, qp.who.ID, reason, campaign.ModeOf(p)); err != nil {
			return err
		}
		return a.RecordActivity(ctx, tx, p, core.ActivityRecord{
			Kind: core.ActivityUnskipped, Mode: campaign.ModeOf(p), CampaignID: qp.c.ID, RecipientID: qp.who.ID,
		})
	})
	if err != nil {
		return SkipResult{}, core.AsCoreError(err)
	}
	return SkipResult{Skipped: false}, nil
}
