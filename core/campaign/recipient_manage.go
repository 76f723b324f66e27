package campaign

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RecipientAction is what manage_recipients does to the people it selects.
type RecipientAction string

// The bulk actions.
const (
	// ActionMessage sets (or, with an empty message, clears) each person's
	// own note.
	ActionMessage RecipientAction = "message"
	// ActionRemove takes the people off the roster.
	ActionRemove RecipientAction = "remove"
)

// MaxBulkPeople is the most people one bulk action selects.
const MaxBulkPeople = 500

// RecipientsManage is what manage_recipients takes besides the campaign:
// an action for 1-500 unsent people, chosen by recipientIds, emails or both.
type RecipientsManage struct {
	Action       RecipientAction `json:"action" jsonschema:"message: set each person's own note to message (empty clears it, so the campaign's message applies); remove: take them off the roster" schema:"enum=message|remove"`
	RecipientIDs []string        `json:"recipientIds,omitempty" jsonschema:"roster IDs of the people (recipient_...)" schema:"type=array,maxItems=500,items.maxLength=100"`
	Emails       []string        `json:"emails,omitempty" jsonschema:"emails of the people, as another way to choose them" schema:"type=array,maxItems=500,items.maxLength=254"`
	// ExpectedPolicyVersion is required for keys and connections.
	ExpectedPolicyVersion int64  `json:"expectedPolicyVersion,omitempty" jsonschema:"the policyVersion you last read; required for keys" schema:"minimum=1,maximum=9007199254740991"`
	Message               string `json:"message,omitempty" jsonschema:"with action message: the note template for these people; at most 500 characters after personalization" schema:"maxLength=1000"`
}

// RecipientsManaged is manage_recipients' answer: the campaign after the
// action and the people it changed.
type RecipientsManaged struct {
	Campaign
	Action       RecipientAction `json:"action" jsonschema:"the action done" schema:"enum=message|remove"`
	RecipientIDs []string        `json:"recipientIds" jsonschema:"the people it was done to"`
}

// ManageRecipients sets the note of, or removes, 1-500 people of campaign
// id who have no gift yet. It is an edit: keys and connections send the
// current expectedPolicyVersion, the version increases, and a key's edit
// returns an active campaign to draft (connections edit drafts only).
//
// It returns NOT_FOUND (the campaign, or a recipientId or email not on its
// roster, naming recipientIds[i] or emails[i]), VALIDATION_ERROR,
// DUPLICATE_RECIPIENT (a person chosen twice), INVALID_REQUEST (a person
// with a gift), POLICY_CHANGED, CAMPAIGN_COMPLETED,
// HUMAN_APPROVAL_REQUIRED, and the place of CHECKOUT_LOCKED.
func (a *Service) ManageRecipients(ctx context.Context, p core.Principal, id string, in RecipientsManage) (RecipientsManaged, error) {
	if err := core.Authorize(p, core.ActEditDrafts, a.Config.ReviewURL(id)); err != nil {
		return RecipientsManaged{}, err
	}
	var pr Problems
	switch in.Action {
	case ActionMessage:
		if m := strings.TrimSpace(in.Message); m != "" {
			if problem := CheckTemplate(m, NotePlaceholders, core.GiftMessageCharacters); problem != "" {
				pr.Add("message", "%s", problem)
			}
		}
	case ActionRemove:
		if in.Message != "" {
			pr.Add("message", "is only for action message")
		}
	default:
		pr.Add("action", "must be one of message, remove")
	}
	switch n := len(in.RecipientIDs) + len(in.Emails); {
	case n == 0:
		pr.Add("recipientIds", "choose 1-%d people by recipientIds or emails", MaxBulkPeople)
	case n > MaxBulkPeople:
		pr.Add("recipientIds", "choose at most %d people in one call (recipientIds and emails together)", MaxBulkPeople)
	}
	if err := pr.Err(); err != nil {
		return RecipientsManaged{}, err
	}
	var out RecipientsManaged
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		c, err := LockRecord(ctx, q, p.WorkspaceID, id)
		if err != nil {
			return err
		}
		if c.Status == StatusCompleted {
			return CampaignCompleted(c.ID)
		}
		if err := a.connectionDraftsOnly(p, c); err != nil {
			return err
		}
		if err := CheckVersion(p, c, in.ExpectedPolicyVersion, false); err != nil {
			return err
		}
		if err := a.CheckoutLock(ctx, q, c); err != nil {
			return err
		}
		roster, err := LoadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		chosen, err := choosePeople(roster, in)
		if err != nil {
			return err
		}
		out, err = a.manageRecipients(ctx, q, p, c, roster, chosen, in)
		a.withStatusChange(c.Status, &out.Campaign)
		return err
	})
	if err != nil {
		return RecipientsManaged{}, core.AsCoreError(err)
	}
	return out, nil
}

// choosePeople finds the roster positions a bulk action names. Every one
// must be on the roster (NOT_FOUND), chosen once (DUPLICATE_RECIPIENT) and
// without a gift (INVALID_REQUEST).
func choosePeople(roster Roster, in RecipientsManage) ([]int, error) {
	ix := IndexRoster(roster.People)
	picked := map[int]string{}
	var chosen []int
	pick := func(pos int, field string) error {
		if prev, dup := picked[pos]; dup {
			return core.FieldError(core.CodeDuplicateRecipient, field, "chooses %s again (as %s); choose each person once", roster.People[pos].ID, prev)
		}
		if send := roster.SendOf[roster.People[pos].ID]; send != "" {
			return core.FieldError(core.CodeInvalidRequestState, field, "%s has a gift (%s); only people without a gift can change", roster.People[pos].ID, send)
		}
		picked[pos] = field
		chosen = append(chosen, pos)
		return nil
	}
	for i, rid := range in.RecipientIDs {
		field := fmt.Sprintf("recipientIds[%d]", i)
		pos, ok := ix.byID[strings.TrimSpace(rid)]
		if !ok {
			return nil, core.FieldError(core.CodeNotFound, field, "%s is not on this campaign's roster", core.Clip(rid, 60))
		}
		if err := pick(pos, field); err != nil {
			return nil, err
		}
	}
	for i, e := range in.Emails {
		field := fmt.Sprintf("emails[%d]", i)
		pos, ok := ix.byEmail[core.NormalizeEmail(e)]
		if !ok {
			return nil, core.FieldError(core.CodeNotFound, field, "nobody on this campaign's roster has the email %s", core.Clip(e, 60))
		}
		if err := pick(pos, field); err != nil {
			return nil, err
		}
	}
	return chosen, nil
}

func (a *Service) manageRecipients(ctx context.Context, q *db.Queries, p core.Principal, c Record, roster Roster, chosen []int, in RecipientsManage) (RecipientsManaged, error) {
	now := a.Clock.Now()
	ids := make([]string, len(chosen))
	for i, pos := range chosen {
		ids[i] = roster.People[pos].ID
	}
	s := c.Settings.Clone()
	if in.Action == ActionMessage {
		message := strings.TrimSpace(in.Message)
		var pr Problems
		for _, pos := range chosen {
			cur := roster.People[pos]
			if note := PersonNote(s.Message, message, cur.NoteValues()); note.tooLong {
				pr.Add("message", "for %s (%s): %s", cur.ID, cur.DisplayName(), note.problem)
			}
		}
		if err := pr.Err(); err != nil {
			return RecipientsManaged{}, err
		}
		if _, err := q.RecipientSetMessage(ctx, db.RecipientSetMessageParams{Message: message, UpdatedAt: now, CampaignID: c.ID, Ids: ids}); err != nil {
			return RecipientsManaged{}, core.Internal(err)
		}
	} else {
		if _, err := q.RecipientDeleteMany(ctx, db.RecipientDeleteManyParams{CampaignID: c.ID, Ids: ids}); err != nil {
			return RecipientsManaged{}, core.Internal(err)
		}
	}
	status, err := nextStatus(p, c, s.Mode, nil, true, false)
	if err != nil {
		return RecipientsManaged{}, err
	}
	s.Status = status
	if err := writeCampaign(ctx, q, c, s, c.PolicyVersion+1, now); err != nil {
		return RecipientsManaged{}, err
	}
	campaign, err := a.CampaignTx(ctx, q, c.WorkspaceID, c.ID)
	if err != nil {
		return RecipientsManaged{}, err
	}
	return RecipientsManaged{Campaign: campaign, Action: in.Action, RecipientIDs: ids}, nil
}
