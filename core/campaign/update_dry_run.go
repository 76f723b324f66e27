package campaign

import (
	"context"
	"errors"
	"reflect"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// UpdateDryRun is what an edit of update_campaign would do, answered by a
// dry run (Campaign.dryRun) before anything is saved: most of all whether
// it turns a live playbook off for review.
type UpdateDryRun struct {
	Changes        []string      `json:"changes" jsonschema:"the campaign fields the edit would change (recipients: the roster); empty: nothing"`
	PeopleAdded    int           `json:"peopleAdded" jsonschema:"people the edit would add to the roster"`
	PeopleChanged  int           `json:"peopleChanged" jsonschema:"people on the roster whose details the edit would change"`
	PeopleRemoved  int           `json:"peopleRemoved" jsonschema:"people the edit would remove from the roster"`
	ReturnsToDraft bool          `json:"returnsToDraft" jsonschema:"true: the edit would return the campaign to draft, off until a signed-in person turns it on again at reviewUrl"`
	StatusChange   *StatusChange `json:"statusChange,omitempty" jsonschema:"the status change the edit would make; absent when the status stays"`
	WaitingPeople  int           `json:"waitingPeople" jsonschema:"people waiting or scheduled in the playbook's queue whom nobody could approve while the edit keeps it off"`
	PolicyVersion  int64         `json:"policyVersion" jsonschema:"the policyVersion the edit would produce (send the campaign's current one as expectedPolicyVersion)"`
}

// errDryRun rolls back a dry run's transaction once its answer is known.
var errDryRun = errors.New("dry run: roll back")

// UpdateCampaignDryRun runs UpdateCampaign's edit of campaign id for p as
// it would run now, with every check and the writes themselves, in a
// transaction that is rolled back: nothing is saved, recorded or
// scheduled. It answers the campaign as it is (its policyVersion is the
// one to send with the real edit) with dryRun saying what the edit would
// change, whether the campaign would return to draft, how many queued
// people that would hold, and the policyVersion it would produce. It
// refuses what UpdateCampaign refuses, with the same codes.
func (a *Service) UpdateCampaignDryRun(ctx context.Context, p core.Principal, id string, in CampaignPatch) (Campaign, error) {
	if err := core.Authorize(p, core.ActEditDrafts, a.Config.ReviewURL(id)); err != nil {
		return Campaign{}, err
	}
	if err := a.CheckArtwork(ctx, p.WorkspaceID, in.Customization, nil, recipientsPath); err != nil {
		return Campaign{}, err
	}
	var cur Campaign
	dry := &UpdateDryRun{}
	err := a.EditRoster(ctx, p, id, in.Recipients, func(tx pgx.Tx, q *db.Queries, c Record, roster Roster) (err error) {
		if cur, err = a.CampaignTx(ctx, q, c.WorkspaceID, c.ID); err != nil {
			return err
		}
		after, err := a.updateCampaign(ctx, tx, q, p, c, roster, in, dry)
		if err != nil {
			return err
		}
		a.withStatusChange(c.Status, &after)
		dry.StatusChange = after.StatusChange
		return errDryRun
	})
	if !errors.Is(err, errDryRun) {
		return Campaign{}, err
	}
	cur.DryRun = dry
	return cur, nil
}

// note records on d what an edit from before to after with plan changes,
// and the version it writes.
func (d *UpdateDryRun) note(before, after Settings, plan rosterPlan, version int64) {
	d.Changes = changedFields(before, after)
	if plan.changed() {
		d.Changes = append(d.Changes, "recipients")
	}
	d.PeopleAdded, d.PeopleChanged, d.PeopleRemoved = len(plan.added), len(plan.updated), len(plan.removed)
	d.ReturnsToDraft = before.Status != StatusDraft && after.Status == StatusDraft
	if before.Status == StatusActive && after.Status != StatusActive && after.Mode.Playbook() {
		for _, who := range plan.final {
			if who.approval == ApprovalWaiting || who.approval == ApprovalScheduled {
				d.WaitingPeople++
			}
		}
	}
	d.PolicyVersion = version
}

// changedFields names, in Campaign's words and order, the fields that
// differ between two states of a campaign (not the roster).
func changedFields(a, b Settings) []string {
	out := []string{}
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add("name", a.Name != b.Name)
	add("description", a.Description != b.Description)
	add("mode", a.Mode != b.Mode)
	add("status", a.Status != b.Status)
	add("productId", a.ProductID != b.ProductID)
	add("budgetCents", a.BudgetCents != b.BudgetCents)
	add("perPersonCents", a.PerPersonCents != b.PerPersonCents)
	add("maxSends", a.MaxSends != b.MaxSends)
	add("monthlyBudgetCents", !reflect.DeepEqual(a.MonthlyBudgetCents, b.MonthlyBudgetCents))
	add("senderName", a.SenderName != b.SenderName)
	add("senderCompany", a.SenderCompany != b.SenderCompany)
	add("message", a.Message != b.Message)
	add("meetingUrl", a.MeetingURL != b.MeetingURL)
	add("recipientSource", a.RecipientSource != b.RecipientSource)
	add("customization", (len(a.Customization) > 0 || len(b.Customization) > 0) && !reflect.DeepEqual(a.Customization, b.Customization))
	am, bm := a.Attribution, b.Attribution
	if len(am.Metadata) == 0 {
		am.Metadata = nil
	}
	if len(bm.Metadata) == 0 {
		bm.Metadata = nil
	}
	add("attribution", !reflect.DeepEqual(am, bm))
	return out
}
