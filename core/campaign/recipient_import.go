package campaign

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// ImportProblem is why one person of an import was left out.
type ImportProblem struct {
	// Index is the person's position in AddImported's people.
	Index int
	// Code is the code add_recipients would have refused them with.
	Code core.Code
	// Fields are the person's fields at fault, relative to the person
	// (zip, photo.assetId), or empty for the person as a whole.
	Fields []string
	// Message says what is wrong, each problem starting with its field.
	Message string
	// whole is set when a problem is about the person as a whole (no
	// identity), which leaves them out whatever their fields.
	whole bool
}

// ImportedPeople is what AddImported did with each person of an import.
type ImportedPeople struct {
	// RecipientIDs holds, for each person, the roster person they became
	// or matched; "" for a person left out with a problem.
	RecipientIDs []string
	// Added are the indices of the people added.
	Added []int
	// Skipped are the people already on the roster (Index into people).
	Skipped []SkippedRecipient
	// Problems are the people left out, in order.
	Problems []ImportProblem
	// Notices are the people added without an optional field whose value
	// the rules refused (a LinkedIn URL that is not a profile, an email
	// that is not an address), in order: Fields and Message say which and
	// why. A person with a required field at fault is a problem instead,
	// with every one of their problems.
	Notices []ImportProblem
}

// refusalsPerPerson are the codes with which add_recipients refuses one
// person of a request (recipients[i]); an import leaves that person out.
var refusalsPerPerson = []core.Code{core.CodeValidation, core.CodeRecipientMessageRequired, core.CodeDuplicateRecipient,
	core.CodeRecipientIdentityConflict, core.CodeTooManyArtworkFiles, core.CodeArtworkUnavailable}

// personPath matches the path of a person of a request: recipients[3], and
// what follows it.
var personPath = regexp.MustCompile(`^recipients\[(\d+)\]\.?(.*)$`)

// otherPerson matches a mention of a person of a request in a message.
var otherPerson = regexp.MustCompile(`recipients\[(\d+)\]`)

// AddImported adds the people of a source import (up to 500) to campaign
// id's roster through add_recipients' rules (AddRecipients), in one write
// that joins the caller's transaction (core.BeginTx) when ctx carries one.
// Unlike add_recipients it needs no expectedPolicyVersion, and a person
// those rules refuse on their own (a field, a duplicate, another person's
// identifiers, an asset that is not a ready file of the workspace) is left
// out with the problem instead of refusing the import; the rest are added.
// A person whose only problems are optional fields (optionalOnImport: a bad
// LinkedIn URL, email, company or title, a gift detail) is added without
// those fields, and listed in Notices. It returns NOT_FOUND, CAMPAIGN_COMPLETED,
// VALIDATION_ERROR about the import as a whole (more than 500 people, a
// roster or limits that cannot grow to fit), TEAM_MANAGER_REQUIRED or
// HUMAN_APPROVAL_REQUIRED (limits expanded to fit while auto-approve is
// on), the place of CHECKOUT_LOCKED, or the codes of Authorize
// (ActAddPeople).
func (a *Service) AddImported(ctx context.Context, p core.Principal, id string, people []RecipientInput) (ImportedPeople, error) {
	if err := core.Authorize(p, core.ActAddPeople, a.Config.ReviewURL(id)); err != nil {
		return ImportedPeople{}, err
	}
	if len(people) > PeoplePerAddCall {
		return ImportedPeople{}, core.Invalid("rows", "must have at most %d people per import", PeoplePerAddCall)
	}
	people = slices.Clone(people) // a person's refused optional fields are dropped from this copy
	out := ImportedPeople{RecipientIDs: make([]string, len(people)), Added: []int{}, Skipped: []SkippedRecipient{}, Problems: []ImportProblem{}, Notices: []ImportProblem{}}
	left := make([]int, len(people))
	for i := range left {
		left[i] = i
	}
	for {
		batch := make([]RecipientInput, len(left))
		for j, i := range left {
			batch[j] = people[i]
		}
		var res RecipientsAdded
		err := a.EditRoster(ctx, p, id, batch, func(tx pgx.Tx, q *db.Queries, c Record, roster Roster) (err error) {
			res, err = a.addRecipients(ctx, tx, q, p, c, roster, RecipientsAdd{Recipients: batch, imported: true})
			return err
		})
		if err == nil {
			skipped := map[int]SkippedRecipient{}
			for _, s := range res.Skipped {
				skipped[s.Index] = s
			}
			added := res.Added
			for j, i := range left {
				if s, ok := skipped[j]; ok {
					out.RecipientIDs[i] = s.RecipientID
					out.Skipped = append(out.Skipped, SkippedRecipient{Index: i, RecipientID: s.RecipientID, Reason: s.Reason})
					continue
				}
				out.RecipientIDs[i], added = added[0], added[1:]
				out.Added = append(out.Added, i)
			}
			out.Problems, out.Notices = foldNotices(out.Problems, out.Notices)
			return out, nil
		}
		refused := refusedPeople(err)
		if len(refused) == 0 {
			return ImportedPeople{}, err
		}
		for j, pr := range refused {
			pr.Index = left[j]
			// Another person a message names is named by their index in people.
			pr.Message = otherPerson.ReplaceAllStringFunc(pr.Message, func(m string) string {
				k, _ := strconv.Atoi(otherPerson.FindStringSubmatch(m)[1])
				if k < len(left) {
					return "recipients[" + strconv.Itoa(left[k]) + "]"
				}
				return m
			})
			if pr.Code == core.CodeValidation && !pr.whole && len(pr.Fields) > 0 && !slices.ContainsFunc(pr.Fields, requiredOnImport) {
				// Only optional fields: the person is added without them.
				people[pr.Index] = withoutFields(people[pr.Index], pr.Fields)
				out.Notices = addNotice(out.Notices, pr)
				continue
			}
			out.Problems = append(out.Problems, pr)
		}
		left = slices.DeleteFunc(left, func(i int) bool {
			return slices.ContainsFunc(out.Problems, func(pr ImportProblem) bool { return pr.Index == i })
		})
	}
}

// refusedPeople reads the people an add's refusal names (recipients[j]),
// keyed by j, each with their part of the message; none when the refusal
// is about the request as a whole.
func refusedPeople(err error) map[int]ImportProblem {
	var ce *core.Error
	if !errors.As(err, &ce) || !slices.Contains(refusalsPerPerson, ce.Code) {
		return nil
	}
	out := map[int]ImportProblem{}
	for _, f := range ce.Fields {
		m := personPath.FindStringSubmatch(f)
		if m == nil {
			return nil // a problem of the roster or campaign: the whole import is refused
		}
		j, _ := strconv.Atoi(m[1])
		pr := out[j]
		pr.Code = ce.Code
		if m[2] != "" {
			pr.Fields = append(pr.Fields, m[2])
		} else {
			pr.whole = true
		}
		out[j] = pr
	}
	parts := strings.Split(ce.Message, "; ")
	if len(ce.Fields) == 1 {
		parts = []string{ce.Message} // one problem: its message may hold "; " itself
	}
	last := -1 // the person of the part before: a part naming nobody is the rest of its problem
	for _, part := range parts {
		text := part
		j := last
		if m := personPath.FindStringSubmatch(part); m != nil {
			j, _ = strconv.Atoi(m[1])
			text = strings.TrimPrefix(m[2], ": ")
		}
		last = j
		if pr, ok := out[j]; ok {
			pr.Message = strings.TrimPrefix(strings.Join(append(nonEmpty(pr.Message), text), "; "), "; ")
			out[j] = pr
		}
	}
	for j, pr := range out {
		if pr.Message == "" {
			pr.Message = ce.Message
			out[j] = pr
		}
	}
	return out
}

// nonEmpty is s as a list of one, or none when s is empty.
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
