package core

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/sql/db"
)

// ActivityPageSize is how many actions one page of the Activity page lists.
const ActivityPageSize = 50

// MaxActivityExport bounds the actions one CSV download holds, newest first.
const MaxActivityExport = 10000

// Actor is who did an action: its kind, the ID the filter matches (a
// person, key or connection's grant; empty for the rule and Giftwell), its
// name as recorded, the person behind it, and for the rule its version.
type Actor struct {
	Kind        ActorKind
	Ref         string
	Name        string
	Email       string
	RuleVersion int64
}

// Activity is one line of the Activity page.
type Activity struct {
	ID           string
	At           time.Time
	Kind         ActivityKind
	Mode         Mode
	Actor        Actor
	CampaignID   string
	CampaignName string
	// Recipient is the person the action was about (their name, or their
	// email when they have none).
	Recipient   string
	SendID      string
	AmountCents int64
	// Subject is what the action was about in words (see ActivityRecord);
	// for an approval, how the gift was paid for (balance or checkout).
	Subject string
}

// ActivityFilter narrows the Activity page to one actor (ActorKind "" is
// everyone) and pages it: Cursor is the NextCursor of the page before.
type ActivityFilter struct {
	ActorKind ActorKind
	ActorRef  string
	Cursor    string
}

// ActivityPage is one page of activity, newest first.
type ActivityPage struct {
	Items []Activity
	// NextCursor reads the older actions; empty on the last page.
	NextCursor string
}

// activityCursor is the keyset position after an action.
type activityCursor struct {
	At time.Time `json:"at"`
	ID string    `json:"id"`
}

// activityCursorCheck is the length of a cursor's check.
const activityCursorCheck = 8

// ReadActivity lists a page of p's workspace's activity, newest first:
// people prepared, gifts approved (from the gift trail), and every action
// RecordActivity recorded. It returns the codes of Authorize
// (ActReadActivity: an owner or admin), VALIDATION_ERROR naming cursor, or
// INTERNAL_ERROR.
func (a *Kernel) ReadActivity(ctx context.Context, p Principal, f ActivityFilter) (ActivityPage, error) {
	if err := Authorize(p, ActReadActivity, a.Config.ActivityURL()); err != nil {
		return ActivityPage{}, err
	}
	params := db.ActivityListParams{WorkspaceID: p.WorkspaceID, ActorKind: string(f.ActorKind), ActorRef: f.ActorRef, MaxRows: ActivityPageSize + 1}
	bind := p.WorkspaceID + "|" + string(f.ActorKind) + "|" + f.ActorRef
	if f.Cursor != "" {
		var c activityCursor
		if !OpenCursor(f.Cursor, bind, activityCursorCheck, &c) {
			return ActivityPage{}, Invalid("cursor", "is not a cursor of this list; start from the newest")
		}
		params.BeforeAt, params.BeforeID = &c.At, c.ID
	}
	rows, err := db.New(a.DB).ActivityList(ctx, params)
	if err != nil {
		return ActivityPage{}, Internal(err)
	}
	var out ActivityPage
	if len(rows) > ActivityPageSize {
		rows = rows[:ActivityPageSize]
		last := rows[len(rows)-1]
		out.NextCursor = SealCursor(activityCursor{At: last.At.UTC(), ID: last.ID}, bind, activityCursorCheck)
	}
	out.Items = make([]Activity, len(rows))
	for i, r := range rows {
		out.Items[i] = activityFromRow(r)
	}
	return out, nil
}

// ExportActivity is every action of p's workspace the filter keeps (up to
// MaxActivityExport, newest first; the cursor is ignored), for the CSV
// download. It returns the codes of ReadActivity.
func (a *Kernel) ExportActivity(ctx context.Context, p Principal, f ActivityFilter) ([]Activity, error) {
	if err := Authorize(p, ActReadActivity, a.Config.ActivityURL()); err != nil {
		return nil, err
	}
	rows, err := db.New(a.DB).ActivityList(ctx, db.ActivityListParams{
		WorkspaceID: p.WorkspaceID, ActorKind: string(f.ActorKind), ActorRef: f.ActorRef, MaxRows: MaxActivityExport,
	})
	if err != nil {
		return nil, Internal(err)
	}
	out := make([]Activity, len(rows))
	for i, r := range rows {
		out[i] = activityFromRow(r)
	}
	return out, nil
}

// ActivityActors lists the people and agents p's workspace's activity
// names, for the page's filter. It returns the codes of ReadActivity.
func (a *Kernel) ActivityActors(ctx context.Context, p Principal) ([]Actor, error) {
	if err := Authorize(p, ActReadActivity, a.Config.ActivityURL()); err != nil {
		return nil, err
	}
	rows, err := db.New(a.DB).ActivityActors(ctx, p.WorkspaceID)
	if err != nil {
		return nil, Internal(err)
	}
	out := make([]Actor, len(rows))
	for i, r := range rows {
		out[i] = Actor{Kind: ActorKind(r.ActorKind), Ref: r.ActorRef, Name: r.ActorName, Email: r.ActorEmail}
	}
	return out, nil
}

// activityFromRow maps a row of the activity stream.
func activityFromRow(r db.ActivityListRow) Activity {
	who := r.RecipientName
	if who == "" {
		who = r.RecipientEmail
	}
	return Activity{
		ID: r.ID, At: r.At.UTC(), Kind: ActivityKind(r.Kind), Mode: Mode(r.Mode),
		Actor:      Actor{Kind: ActorKind(r.ActorKind), Ref: r.ActorRef, Name: r.ActorName, Email: r.ActorEmail, RuleVersion: r.RuleVersion},
		CampaignID: r.CampaignID, CampaignName: r.CampaignName, Recipient: who, SendID: r.SendID,
		AmountCents: r.AmountCents, Subject: r.Subject,
	}
}
