package approval

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// A signed-in owner or admin decides a whole group of the queue at once:
// the people of one playbook, or of one reason on it, up to the roster
// bound. The person confirmed how many people and how much; the request
// never decides more people nor spends more than that.

// MaxGroupDecision is the most people one group decision takes: the
// roster bound of a playbook.
const MaxGroupDecision = core.RecipientsPerPlaybook

// groupChunk is how many people one transaction of a group approval
// decides: the playbook and the balance stay locked for one chunk only.
const groupChunk = 50

// GroupDecision is a decision on a group of the queue: the waiting people of
// playbook CampaignID, or only those who wait for Reason, in queue order.
type GroupDecision struct {
	CampaignID string
	// Only narrows the group to the people who wait for it now
	// (QueueItem.WaitsFor; "" is the people nothing stops); nil takes
	// everyone.
	Only *campaign.ApprovalReason
	// People and Cents are what the person confirmed: at most People people
	// and, when approving, at most Cents from the balance.
	People int
	Cents  int64
	// SkipReason is the reason recorded for skipped people.
	SkipReason string
}

// GroupResult is what a group decision did.
type GroupResult struct {
	// CampaignName names the playbook.
	CampaignName string
	// Decided is how many people were approved or skipped.
	Decided int
	// Cents is what the approved gifts took from the balance.
	Cents int64
	// Left are the people of the group still waiting, by why in short words.
	Left []LeftCount
}

// LeftCount is how many people of a group still wait for one cause.
type LeftCount struct {
	Cause  string
	People int
}

// Waiting is how many people of the group still wait.
func (r GroupResult) Waiting() int {
	n := 0
	for _, l := range r.Left {
		n += l.People
	}
	return n
}

// groupOf reads the people group g names, in queue order, at most g.People
// (and MaxGroupDecision). It returns VALIDATION_ERROR naming people when the
// person confirmed nobody, and the codes of Queue.
func (a *Service) groupOf(ctx context.Context, p core.Principal, g GroupDecision) ([]QueueItem, string, error) {
	if g.People < 1 {
		return nil, "", core.Invalid("people", "must be at least 1: confirm how many people to decide")
	}
	if g.CampaignID == "" {
		return nil, "", core.Invalid("campaignId", "is required: the playbook whose people to decide")
	}
	items, err := a.Queue(ctx, p, g.CampaignID)
	if err != nil {
		return nil, "", err
	}
	name := ""
	var out []QueueItem
	for _, it := range items {
		name = it.CampaignName
		if g.Only == nil || it.WaitsFor == *g.Only {
			out = append(out, it)
		}
	}
	return out[:min(len(out), g.People, MaxGroupDecision)], name, nil
}

// ApproveGroup approves the people of group g for p, a signed-in owner or
// admin, in queue order, with the same rules as ApproveGift (each person's
// checks, the playbook's limits, one debit per gift from the balance), one
// transaction per groupChunk people, each person in a savepoint so that one
// who cannot be approved keeps waiting while the others are approved. It
// stops before a gift that would take the total over g.Cents. The people
// left waiting are counted by why, in the queue's short words.
//
// It returns the codes of Authorize and VALIDATION_ERROR naming people;
// what stops one person is counted in Left, not returned.
func (a *Service) ApproveGroup(ctx context.Context, p core.Principal, g GroupDecision) (GroupResult, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.QueueURL(g.CampaignID)); err != nil {
		return GroupResult{}, err
	}
	items, name, err := a.groupOf(ctx, p, g)
	if err != nil {
		return GroupResult{}, err
	}
	res := GroupResult{CampaignName: name}
	left := map[string]int{}
	var causes []string
	wait := func(cause string) {
		if left[cause] == 0 {
			causes = append(causes, cause)
		}
		left[cause]++
	}
	for chunk := range slices.Chunk(items, groupChunk) {
		err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
			for _, it := range chunk {
				if res.Cents+it.PriceCents > g.Cents {
					wait("more than the total you confirmed")
					continue
				}
				err := pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error {
					got, err := a.approveTx(ctx, sp, p, QueueDecision{CampaignID: it.CampaignID, RecipientID: it.RecipientID})
					if err == nil {
						res.Decided++
						res.Cents += got.TotalCents
					}
					return err
				})
				if err != nil {
					if core.ErrorCode(err) == core.CodeInternal {
						return err
					}
					wait(groupCause(err, it))
				}
			}
			return nil
		})
		if err != nil {
			return res, core.AsCoreError(err)
		}
	}
	for _, c := range causes {
		res.Left = append(res.Left, LeftCount{Cause: c, People: left[c]})
	}
	return res, nil
}

// SkipGroup skips the people of group g for p, a signed-in owner or admin,
// in queue order, each as SkipGift does, with g.SkipReason. It returns the
// codes of Authorize and VALIDATION_ERROR naming people or reason.
func (a *Service) SkipGroup(ctx context.Context, p core.Principal, g GroupDecision) (GroupResult, error) {
	if err := core.Authorize(p, core.ActApprove, a.Config.QueueURL(g.CampaignID)); err != nil {
		return GroupResult{}, err
	}
	items, name, err := a.groupOf(ctx, p, g)
	if err != nil {
		return GroupResult{}, err
	}
	res := GroupResult{CampaignName: name}
	for _, it := range items {
		_, err := a.SkipGift(ctx, p, QueueSkip{CampaignID: it.CampaignID, RecipientID: it.RecipientID, Reason: g.SkipReason})
		switch {
		case err == nil:
			res.Decided++
		case core.ErrorCode(err) == core.CodeValidation || core.ErrorCode(err) == core.CodeInternal:
			return res, err
		}
	}
	return res, nil
}

// groupCause is why a person of a group approval still waits, in the
// queue's short words: the blocker their approval met.
func groupCause(err error, it QueueItem) string {
	switch core.ErrorCode(err) {
	case core.CodeInsufficientBalance:
		return "not enough funds"
	case core.CodeBudgetCap:
		return "a budget or send limit is reached"
	case core.CodeRepeatReviewRequired:
		return "gifted before: approve each repeat by hand"
	case core.CodeRecipientMessageRequired:
		return "the note is unfinished"
	case core.CodeRecipientDetailsRequired:
		return "gift details are missing"
	case core.CodeLiveAddresslessUnavailable:
		return "a shipping address is missing"
	case core.CodePersonalizationRequired:
		return "the gift's lettering is unfinished"
	case core.CodePlaybookOff:
		return "the playbook is off"
	}
	if b := it.WaitsFor.Blocker(); b != "" {
		return b
	}
	return "needs a look on its own"
}
