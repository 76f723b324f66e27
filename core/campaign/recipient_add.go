package campaign

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RecipientsAdd is what add_recipients takes besides the campaign.
type RecipientsAdd struct {
	Recipients []RecipientInput `json:"recipients" jsonschema:"people already on the roster (same recipientId, sourceSystem+externalId, email or profileUrl; else same name and company) are skipped; another person's identifiers, or a new sourceSystem+externalId, are RECIPIENT_IDENTITY_CONFLICT" schema:"type=array,minItems=1,maxItems=500"`
	// ExpectedPolicyVersion is required except on an active playbook.
	ExpectedPolicyVersion int64 `json:"expectedPolicyVersion,omitempty" jsonschema:"the policyVersion last read; not for an active playbook" schema:"minimum=1,maximum=9007199254740991"`
	// imported marks a source import's add (AddImported), which carries
	// no policy version.
	imported bool
}

// SkippedRecipient is a person of an add who was already on the roster.
type SkippedRecipient struct {
	Index       int    `json:"index" jsonschema:"the person's position in the request's recipients"`
	RecipientID string `json:"recipientId" jsonschema:"the roster person they matched"`
	Reason      string `json:"reason" jsonschema:"why they match"`
}

// RecipientsAdded is add_recipients' answer: the campaign after the add,
// with which people were added and which were skipped.
type RecipientsAdded struct {
	Campaign
	Added   []string           `json:"added" jsonschema:"recipientIds of the people added, in request order"`
	Skipped []SkippedRecipient `json:"skipped" jsonschema:"people already on the roster, left as they are"`
}

// AddRecipients adds 1-500 people to campaign id's roster for p. People
// already on the roster (same recipientId, SourceSystem+externalId, email
// or profileUrl: RosterIndex.match; for a person sent with none of these,
// the same name and company: AddIdentityOf) are skipped. An active playbook needs no expectedPolicyVersion,
// stays on and keeps its version, and every person added needs a complete
// note (RECIPIENT_MESSAGE_REQUIRED). Any other campaign needs the current
// version from keys and connections, gets a new version, returns to draft
// when it was an active batch or single (a paused one stays paused), and a
// batch or single's maxSends and budgetCents expand to fit (the answer's
// statusChange says when the status moved). An add that adds nobody
// changes nothing.
//
// It returns NOT_FOUND, CAMPAIGN_COMPLETED, VALIDATION_ERROR (each field
// by path, a missing version, a roster over 500 or 2000 people),
// POLICY_CHANGED, TEAM_MANAGER_REQUIRED or HUMAN_APPROVAL_REQUIRED (limits
// expanded to fit while an auto-approve rule is on: AuthorizeSpendLimits),
// TOO_MANY_ARTWORK_FILES, DUPLICATE_RECIPIENT (the same
// person twice in the request), RECIPIENT_IDENTITY_CONFLICT (identifiers of
// different people, or another SourceSystem+externalId than the matched
// person has), RECIPIENT_MESSAGE_REQUIRED, and the place of
// CHECKOUT_LOCKED.
func (a *Service) AddRecipients(ctx context.Context, p core.Principal, id string, in RecipientsAdd) (RecipientsAdded, error) {
	if err := core.Authorize(p, core.ActAddPeople, a.Config.ReviewURL(id)); err != nil {
		return RecipientsAdded{}, err
	}
	switch n := len(in.Recipients); {
	case n == 0:
		return RecipientsAdded{}, core.Invalid("recipients", "must have at least 1 person")
	case n > PeoplePerAddCall:
		return RecipientsAdded{}, core.Invalid("recipients", "must have at most %d people per call", PeoplePerAddCall)
	}
	var out RecipientsAdded
	err := a.EditRoster(ctx, p, id, in.Recipients, func(tx pgx.Tx, q *db.Queries, c Record, roster Roster) (err error) {
		out, err = a.addRecipients(ctx, tx, q, p, c, roster, in)
		a.withStatusChange(c.Status, &out.Campaign)
		return err
	})
	if err != nil {
		return RecipientsAdded{}, err
	}
	return out, nil
}

func (a *Service) addRecipients(ctx context.Context, tx pgx.Tx, q *db.Queries, p core.Principal, c Record, roster Roster, in RecipientsAdd) (RecipientsAdded, error) {
	product, err := a.StoredProduct(ctx, c.ProductID)
	if err != nil {
		return RecipientsAdded{}, err
	}
	keepsOn := c.Mode.Playbook() && c.Status == StatusActive
	if err := CheckVersion(p, c, in.ExpectedPolicyVersion, keepsOn || in.imported); err != nil {
		return RecipientsAdded{}, err
	}
	if err := a.CheckoutLock(ctx, q, c); err != nil {
		return RecipientsAdded{}, err
	}

	var pr Problems
	ix := IndexRoster(roster.People)
	now := a.Clock.Now()
	next := 0
	for _, cur := range roster.People {
		next = max(next, cur.Position+1)
	}
	res := RecipientsAdded{Added: []string{}, Skipped: []SkippedRecipient{}}
	final := append([]Person(nil), roster.People...)
	paths := make([]string, 0, len(final)+len(in.Recipients))
	for _, cur := range roster.People {
		paths = append(paths, "recipient "+cur.ID)
	}
	var added []Person
	for i, item := range in.Recipients {
		path := fmt.Sprintf("recipients[%d]", i)
		pos, by, err := ix.Match(AddIdentityOf(item), path)
		if err != nil {
			return RecipientsAdded{}, err
		}
		if pos >= 0 {
			// Checked as an update of the person they match, then skipped.
			_ = ApplyRecipient(ix.people[pos].PersonFields, item, path, RecipientRules{Product: product}, &pr)
			res.Skipped = append(res.Skipped, SkippedRecipient{Index: i, RecipientID: ix.people[pos].ID,
				Reason: "already on the roster (same " + by + ")"})
			continue
		}
		f := ApplyRecipient(NewPersonFields(), item, path, RecipientRules{Product: product}, &pr)
		np := Person{PersonFields: f, ID: core.NewID(core.PrefixRecipient), Position: next, CreatedAt: now}
		next++
		// A name-only person sent twice in this request is added once.
		ix.addNamed(np)
		added = append(added, np)
		final = append(final, np)
		paths = append(paths, path)
		res.Added = append(res.Added, np.ID)
	}

	s := c.Settings.Clone()
	expandToFit(&s, len(final))
	checkBatchFits(s, len(final), &pr)
	CheckRoster(s, final, func(i int) string { return paths[i] }, &pr)
	if err := pr.ErrOnAdd(); err != nil {
		return RecipientsAdded{}, err
	}
	// A batch or single that grew to fit raised its limits: a playbook
	// turned batch keeps its auto-approve rule, so it is a raise like any.
	if err := a.AuthorizeSpendLimits(p, c.ID, SpendLimitsOf(c.Settings, c.AutoApprove), SpendLimitsOf(s, c.AutoApprove)); err != nil {
		return RecipientsAdded{}, err
	}
	if keepsOn {
		if err := NotesComplete(s, added, func(i int) string { return paths[i] }, final); err != nil {
			return RecipientsAdded{}, err
		}
	}
	if len(added) > 0 {
		version := c.PolicyVersion + 1
		if keepsOn {
			version = c.PolicyVersion
		} else if c.Status == StatusActive {
			// An active batch or single returns to draft for review.
			s.Status = StatusDraft
		}
		if err := writeCampaign(ctx, q, c, s, version, now); err != nil {
			return RecipientsAdded{}, err
		}
		if err := InsertPeople(ctx, q, p, c.ID, added, now); err != nil {
			return RecipientsAdded{}, err
		}
		if keepsOn {
			if err := a.queueAdded(ctx, tx, p, c, added); err != nil {
				return RecipientsAdded{}, err
			}
		}
	}
	res.Campaign, err = a.CampaignTx(ctx, q, c.WorkspaceID, c.ID)
	return res, err
}
