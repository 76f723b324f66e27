package campaign

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// UpdateCampaign changes the supplied fields of campaign id for p, in one
// transaction with a compare-and-swap on policyVersion, and returns the
// campaign with its new version (and statusChange when the write moved its
// status: withStatusChange). It follows the spec's Campaign status
// table (see campaign_status.go):
//
//   - keys and connections send expectedPolicyVersion (missing:
//     VALIDATION_ERROR naming it; stale: POLICY_CHANGED); a signed-in person
//     may leave it out;
//   - a key's content edit returns an active campaign to draft (not a
//     paused one); connections edit drafts only;
//   - status paused or completed: any key or person; active: a signed-in
//     person only (HUMAN_APPROVAL_REQUIRED with the review URL otherwise),
//     for a playbook or a paused campaign (a draft batch or single is
//     INVALID_REQUEST: checkout activates it);
//   - an active playbook accepts a recipients-only change that keeps every
//     current person unchanged and appends, without a version; it stays on
//     and its policyVersion stays;
//   - recipients, when supplied, is the whole roster (see CampaignPatch);
//     a batch or single that gains people expands maxSends and budgetCents
//     to fit unless the same write sets them;
//   - a completed campaign refuses everything (CAMPAIGN_COMPLETED).
//
// A write that changes nothing returns the campaign as it is. Other codes:
// NOT_FOUND, VALIDATION_ERROR naming each field, TOO_MANY_ARTWORK_FILES,
// DUPLICATE_RECIPIENT, RECIPIENT_IDENTITY_CONFLICT, RECIPIENT_MESSAGE_REQUIRED
// (a person appended to an active playbook without a complete note),
// GIFT_RETIRED, GIFT_UNAVAILABLE, PRICE_QUOTE_REQUIRED (a new productId),
// LIMITS_BELOW_COMMITMENTS, INVALID_REQUEST (removing or changing a person
// who has a gift), TEAM_MANAGER_REQUIRED or HUMAN_APPROVAL_REQUIRED naming
// each limit raised (raising budgetCents, maxSends, perPersonCents or
// monthlyBudgetCents while auto-approve is on, also when a new productId
// moves a default perPersonCents: see AuthorizeSpendLimits), and the places
// of CHECKOUT_LOCKED and MODE_LOCKED.
func (a *Service) UpdateCampaign(ctx context.Context, p core.Principal, id string, in CampaignPatch) (Campaign, error) {
	if err := core.Authorize(p, core.ActEditDrafts, a.Config.ReviewURL(id)); err != nil {
		return Campaign{}, err
	}
	if err := a.CheckArtwork(ctx, p.WorkspaceID, in.Customization, nil, recipientsPath); err != nil {
		return Campaign{}, err
	}
	var out Campaign
	err := a.EditRoster(ctx, p, id, in.Recipients, func(tx pgx.Tx, q *db.Queries, c Record, roster Roster) (err error) {
		out, err = a.updateCampaign(ctx, tx, q, p, c, roster, in, nil)
		a.withStatusChange(c.Status, &out)
		return err
	})
	if err != nil {
		return Campaign{}, err
	}
	return out, nil
}

// EditRoster runs f in one transaction (a savepoint of the caller's when
// ctx carries one: core.BeginTx) on campaign id of p's workspace, locked, with its roster, after the checks that need only the request's
// recipients (TOO_MANY_ARTWORK_FILES, DUPLICATE_RECIPIENT). It returns
// NOT_FOUND for another workspace's campaign and CAMPAIGN_COMPLETED for a
// completed one; f's error otherwise.
func (a *Service) EditRoster(ctx context.Context, p core.Principal, id string, recipients []RecipientInput, f func(tx pgx.Tx, q *db.Queries, c Record, roster Roster) error) error {
	if err := tooManyAssets(recipients); err != nil {
		return err
	}
	if err := duplicateInRequest(recipients); err != nil {
		return err
	}
	if err := a.CheckArtwork(ctx, p.WorkspaceID, nil, recipients, recipientsPath); err != nil {
		return err
	}
	return core.AsCoreError(a.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		c, err := LockRecord(ctx, q, p.WorkspaceID, id)
		if err != nil {
			return err
		}
		if c.Status == StatusCompleted {
			return CampaignCompleted(c.ID)
		}
		roster, err := LoadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		return f(tx, q, c, roster)
	}))
}

// updateCampaign makes the edit in tx; with dry set it also records there
// what the edit changes (see UpdateCampaignDryRun).
func (a *Service) updateCampaign(ctx context.Context, tx pgx.Tx, q *db.Queries, p core.Principal, c Record, roster Roster, in CampaignPatch, dry *UpdateDryRun) (Campaign, error) {
	var pr Problems
	next := c.Settings.Clone()
	onlyRecipients := in.Recipients != nil && reflect.DeepEqual(in, CampaignPatch{Recipients: in.Recipients, ExpectedPolicyVersion: in.ExpectedPolicyVersion})

	// The gift: a new productId must be a current catalog gift.
	product, err := a.StoredProduct(ctx, c.ProductID)
	if err != nil {
		return Campaign{}, err
	}
	if in.ProductID != nil && strings.TrimSpace(*in.ProductID) != c.ProductID {
		np, err := a.selectableProduct(ctx, strings.TrimSpace(*in.ProductID))
		if err != nil {
			return Campaign{}, err
		}
		// A playbook's per-person limit that was the old gift's price (its
		// default) follows the new gift's price.
		if in.PerPersonCents == nil && c.Mode.Playbook() && product != nil && c.PerPersonCents == playbookPerPerson(*product) {
			next.PerPersonCents = playbookPerPerson(np)
		}
		next.ProductID, product = np.ID, &np
	}
	applyPatch(&next, in)

	// The roster.
	plan, err := planRoster(roster, in.Recipients, RecipientRules{Product: product}, a.Clock.Now(), &pr)
	if err != nil {
		return Campaign{}, err
	}
	keepsOn := onlyRecipients && c.Mode.Playbook() && c.Status == StatusActive && plan.appendOnly()

	// Who may do this, and on which version.
	if in.Status != nil {
		if err := a.authorizeStatus(p, c, *in.Status); err != nil {
			return Campaign{}, err
		}
	}
	contentChanged := !sameContent(next, c.Settings) || plan.changed()
	if contentChanged && !keepsOn {
		if err := a.connectionDraftsOnly(p, c); err != nil {
			return Campaign{}, err
		}
	}
	if err := CheckVersion(p, c, in.ExpectedPolicyVersion, keepsOn); err != nil {
		return Campaign{}, err
	}
	if err := a.CheckoutLock(ctx, q, c); err != nil {
		return Campaign{}, err
	}
	if next.Mode.Playbook() && !c.Mode.Playbook() {
		if err := a.modeLock(ctx, q, c); err != nil {
			return Campaign{}, err
		}
	}

	// The result must be valid as a whole.
	if len(plan.added) > 0 {
		fit := next
		expandToFit(&fit, len(plan.final))
		if in.MaxSends == nil {
			next.MaxSends = fit.MaxSends
		}
		if in.BudgetCents == nil {
			next.BudgetCents = fit.BudgetCents
		}
	}
	checkCampaign(next, product, &pr)
	checkBatchFits(next, len(plan.final), &pr)
	CheckRoster(next, plan.final, plan.pathOf, &pr)
	if err := pr.Err(); err != nil {
		return Campaign{}, err
	}
	status, err := nextStatus(p, c, next.Mode, in.Status, contentChanged, keepsOn)
	if err != nil {
		return Campaign{}, err
	}
	next.Status = status
	if next.Status == StatusActive && c.Status != StatusActive {
		// Turning a campaign on orders its gift: it must still be current.
		if product == nil {
			return Campaign{}, core.FieldError(core.CodeGiftUnavailable, "productId", "%s is no longer in the catalog; choose a current gift before turning the campaign on", next.ProductID)
		}
		if err := product.Selectable(); err != nil {
			return Campaign{}, err
		}
	}
	if next.Mode.Playbook() && next.Status == StatusActive {
		if err := NotesComplete(next, plan.added, plan.pathOf, plan.final); err != nil {
			return Campaign{}, err
		}
	}
	if err := a.AuthorizeSpendLimits(p, c.ID, SpendLimitsOf(c.Settings, c.AutoApprove), SpendLimitsOf(next, c.AutoApprove)); err != nil {
		return Campaign{}, err
	}
	if limitsChanged(c.Settings, next) {
		com, err := a.LoadCommitments(ctx, q, c.ID)
		if err != nil {
			return Campaign{}, err
		}
		if err := CheckCommitments(next, com); err != nil {
			return Campaign{}, err
		}
	}

	if sameContent(next, c.Settings) && next.Status == c.Status && !plan.changed() {
		if dry != nil {
			dry.note(c.Settings, next, plan, c.PolicyVersion)
		}
		return a.CampaignTx(ctx, q, c.WorkspaceID, c.ID)
	}
	version := c.PolicyVersion + 1
	if keepsOn {
		version = c.PolicyVersion
	}
	if dry != nil {
		dry.note(c.Settings, next, plan, version)
	}
	now := a.Clock.Now()
	if err := writeCampaign(ctx, q, c, next, version, now); err != nil {
		return Campaign{}, err
	}
	if err := plan.write(ctx, q, p, c.ID, now); err != nil {
		return Campaign{}, err
	}
	if limitsChanged(c.Settings, next) || c.PerPersonCents != next.PerPersonCents {
		if err := a.RecordActivity(ctx, tx, p, core.ActivityRecord{
			Kind: core.ActivityLimitsChanged, CampaignID: c.ID, Subject: limitsWords(next, version),
		}); err != nil {
			return Campaign{}, err
		}
	}
	if keepsOn {
		if err := a.queueAdded(ctx, tx, p, c, plan.added); err != nil {
			return Campaign{}, err
		}
	}
	if next.Mode.Playbook() && next.Status == StatusActive && c.Status != StatusActive {
		// A playbook turned on again: its approval job decides the people
		// scheduled before it was paused.
		if err := a.ScheduleApprovals(ctx, tx, c.WorkspaceID, c.ID); err != nil {
			return Campaign{}, err
		}
	}
	return a.CampaignTx(ctx, q, c.WorkspaceID, c.ID)
}

// applyPatch sets the supplied fields of in on s (the productId is applied
// by the caller, which checks it against the catalog).
func applyPatch(s *Settings, in CampaignPatch) {
	str := func(dst *string, v *string) {
		if v != nil {
			*dst = strings.TrimSpace(*v)
		}
	}
	str(&s.Name, in.Name)
	str(&s.Description, in.Description)
	str(&s.SenderName, in.SenderName)
	str(&s.SenderCompany, in.SenderCompany)
	str(&s.Message, in.Message)
	str(&s.MeetingURL, in.MeetingURL)
	if in.Mode != nil {
		s.Mode = *in.Mode
	}
	if in.BudgetCents != nil {
		s.BudgetCents = *in.BudgetCents
	}
	if in.PerPersonCents != nil {
		s.PerPersonCents = *in.PerPersonCents
	}
	if in.MaxSends != nil {
		s.MaxSends = *in.MaxSends
	}
	if in.MonthlyBudgetCents != nil {
		v := *in.MonthlyBudgetCents
		s.MonthlyBudgetCents = &v
	}
	if in.RecipientSource != nil {
		s.RecipientSource = *in.RecipientSource
	}
	if in.Customization != nil {
		s.Customization = in.Customization
	}
	if in.Attribution != nil {
		s.Attribution = *in.Attribution
	}
}

// sameContent reports whether two states differ in nothing but status.
func sameContent(a, b Settings) bool {
	a.Status, b.Status = "", ""
	norm := func(s *Settings) {
		if len(s.Customization) == 0 {
			s.Customization = nil
		}
		if len(s.Attribution.Metadata) == 0 {
			s.Attribution.Metadata = nil
		}
	}
	norm(&a)
	norm(&b)
	return reflect.DeepEqual(a, b)
}

// limitsWords says a campaign's spend limits in plain words, for the
// Activity page.
func limitsWords(s Settings, version int64) string {
	out := fmt.Sprintf("budget %s, up to %d gifts, %s a person", core.Dollars(s.BudgetCents), s.MaxSends, core.Dollars(s.PerPersonCents))
	if s.MonthlyBudgetCents != nil {
		out += ", " + core.Dollars(*s.MonthlyBudgetCents) + " a month"
	}
	return fmt.Sprintf("%s (version %d)", out, version)
}

// limitsChanged reports whether a write changes a limit that commitments bound.
func limitsChanged(before, after Settings) bool {
	return before.BudgetCents != after.BudgetCents || before.MaxSends != after.MaxSends ||
		!reflect.DeepEqual(before.MonthlyBudgetCents, after.MonthlyBudgetCents)
}

// NotesComplete is RECIPIENT_MESSAGE_REQUIRED for the first person added
// to an active playbook whose note is missing, too long or has a
// placeholder without a value: a playbook add needs a complete note.
func NotesComplete(s Settings, added []Person, pathOf func(int) string, final []Person) error {
	for _, p := range added {
		note := PersonNote(s.Message, p.Message, p.NoteValues())
		if note.problem == "" {
			continue
		}
		path := "recipients"
		for i := range final {
			if final[i].ID == p.ID {
				path = pathOf(i)
			}
		}
		return core.FieldError(core.CodeRecipientMessageRequired, FieldAt(path, "message"), "%s; an active playbook needs a complete note of at most %d characters for every person added", note.problem, core.GiftMessageCharacters)
	}
	return nil
}

// rosterPlan is how a write changes a roster.
type rosterPlan struct {
	// final is the roster after the write, in order: kept people (updated)
	// then added ones.
	final []Person
	// paths names each final person: their path in the request, or their ID.
	paths   []string
	added   []Person
	updated []Person
	removed []Person
}

func (pl rosterPlan) pathOf(i int) string { return pl.paths[i] }

// changed reports whether the roster changes at all.
func (pl rosterPlan) changed() bool {
	return len(pl.added)+len(pl.updated)+len(pl.removed) > 0
}

// appendOnly reports whether the plan keeps every current person unchanged
// (and perhaps appends).
func (pl rosterPlan) appendOnly() bool { return len(pl.updated) == 0 && len(pl.removed) == 0 }

// planRoster plans a roster replacement: items matched to a current person
// (recipientId, SourceSystem+externalId, email or profileUrl; see
// RosterIndex.match) merge into their record,
// current people no item names are removed, other items are appended. A
// person with a gift can be neither removed nor changed (INVALID_REQUEST).
// Nil items keep the roster as it is.
func planRoster(roster Roster, items []RecipientInput, rules RecipientRules, now time.Time, pr *Problems) (rosterPlan, error) {
	pl := rosterPlan{}
	if items == nil {
		pl.final = roster.People
		for _, p := range roster.People {
			pl.paths = append(pl.paths, "recipient "+p.ID)
		}
		return pl, nil
	}
	ix := IndexRoster(roster.People)
	itemOf := make(map[int]int, len(items)) // roster position -> item
	var fresh []int
	for i, item := range items {
		path := fmt.Sprintf("recipients[%d]", i)
		pos, _, err := ix.Match(identityOf(item), path)
		if err != nil {
			return rosterPlan{}, err
		}
		if pos < 0 {
			fresh = append(fresh, i)
			continue
		}
		if j, dup := itemOf[pos]; dup {
			return rosterPlan{}, core.FieldError(core.CodeDuplicateRecipient, path, "is the same person as recipients[%d] (%s); send each person once", j, roster.People[pos].ID)
		}
		itemOf[pos] = i
	}
	next := 0
	for pos, cur := range roster.People {
		next = max(next, cur.Position+1)
		i, kept := itemOf[pos]
		if !kept {
			if send := roster.SendOf[cur.ID]; send != "" {
				return rosterPlan{}, &core.Error{Code: core.CodeInvalidRequestState, Fields: []string{"recipients"},
					Message: fmt.Sprintf("recipients: %s (%s) has a gift (%s) and cannot be removed; keep them in the list", cur.ID, cur.DisplayName(), send)}
			}
			pl.removed = append(pl.removed, cur)
			continue
		}
		path := fmt.Sprintf("recipients[%d]", i)
		merged := cur
		merged.PersonFields = ApplyRecipient(cur.PersonFields, items[i], path, rules, pr)
		if !merged.Same(cur.PersonFields) {
			if send := roster.SendOf[cur.ID]; send != "" {
				return rosterPlan{}, core.FieldError(core.CodeInvalidRequestState, path, "%s has a gift (%s) and cannot change", cur.ID, send)
			}
			pl.updated = append(pl.updated, merged)
		}
		pl.final = append(pl.final, merged)
		pl.paths = append(pl.paths, path)
	}
	for _, i := range fresh {
		path := fmt.Sprintf("recipients[%d]", i)
		f := ApplyRecipient(NewPersonFields(), items[i], path, rules, pr)
		p := Person{PersonFields: f, ID: core.NewID(core.PrefixRecipient), Position: next, CreatedAt: now}
		next++
		pl.added = append(pl.added, p)
		pl.final = append(pl.final, p)
		pl.paths = append(pl.paths, path)
	}
	return pl, nil
}

// write stores the plan: removals, updates, then additions.
func (pl rosterPlan) write(ctx context.Context, q *db.Queries, who core.Principal, campaignID string, now time.Time) error {
	if len(pl.removed) > 0 {
		ids := make([]string, len(pl.removed))
		for i, p := range pl.removed {
			ids[i] = p.ID
		}
		if _, err := q.RecipientDeleteMany(ctx, db.RecipientDeleteManyParams{CampaignID: campaignID, Ids: ids}); err != nil {
			return core.Internal(err)
		}
	}
	for _, p := range pl.updated {
		params, err := p.UpdateParams(campaignID, now)
		if err != nil {
			return core.Internal(err)
		}
		if _, err := q.RecipientUpdate(ctx, params); err != nil {
			if _, unique := core.ViolatedUnique(err); unique {
				return core.Errorf(core.CodeInvalidRequestState, "recipients: two people would share an email or sourceSystem+externalId; read the campaign and retry")
			}
			return core.Internal(err)
		}
	}
	return InsertPeople(ctx, q, who, campaignID, pl.added, now)
}
