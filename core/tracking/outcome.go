package tracking

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
	"github.com/jackc/pgx/v5"
)

// Outcome is what the customer reports happened after a gift.
type Outcome string

// The outcomes, least advanced first.
const (
	OutcomeNone          Outcome = "none"
	OutcomeReplied       Outcome = "replied"
	OutcomeMeetingBooked Outcome = "meeting_booked"
	OutcomeMeetingHeld   Outcome = "meeting_held"
)

// Valid reports whether o is one of the four outcomes.
func (o Outcome) Valid() bool {
	switch o {
	case OutcomeNone, OutcomeReplied, OutcomeMeetingBooked, OutcomeMeetingHeld:
		return true
	}
	return false
}

// Bounds of record_outcome's input.
const (
	// MaxOutcomeSourceLength is the longest source, in characters.
	MaxOutcomeSourceLength = 100
	// MaxExternalEventIDLength is the longest externalEventId, in characters.
	MaxExternalEventIDLength = 200
	// MaxOutcomeAhead is how far in the future occurredAt may be.
	MaxOutcomeAhead = 5 * time.Minute
)

// OutcomeInput is one customer-reported outcome of a gift.
type OutcomeInput struct {
	// SendID is the gift.
	SendID string
	// Outcome is what happened.
	Outcome Outcome
	// ExternalEventID is the reporter's own ID of the report; with Source
	// it deduplicates retries. Empty: never deduplicated.
	ExternalEventID string
	// Source is who reported it (a CRM, a calendar); may be empty.
	Source string
	// OccurredAt is when it happened; nil means now.
	OccurredAt *time.Time
}

// OutcomeReport is a recorded outcome report. A retry with the same
// externalEventId and source returns the first report unchanged.
type OutcomeReport struct {
	SendID          string    `json:"sendId" jsonschema:"the gift"`
	Outcome         Outcome   `json:"outcome" jsonschema:"the reported outcome" schema:"enum=none|replied|meeting_booked|meeting_held"`
	Source          string    `json:"source,omitempty" jsonschema:"who reported it; absent when not said"`
	ExternalEventID string    `json:"externalEventId,omitempty" jsonschema:"the reporter's ID of the report; absent when not given"`
	OccurredAt      time.Time `json:"occurredAt" jsonschema:"when it happened"`
	RecordedAt      time.Time `json:"recordedAt" jsonschema:"when Giftwell recorded it"`
}

// RecordOutcome records a customer-reported outcome of a gift of p's
// workspace and records send.outcome_reported in the same transaction. The
// gift's current outcome becomes the reported one unless a report that
// occurred later is current (the latest by occurredAt wins; a tie goes to
// the newer report), so a correction back to none counts.
//
// externalEventId deduplicates per workspace and source: the same report
// again returns the first one and records nothing; the same ID and source
// with another gift, outcome or occurredAt is IDEMPOTENCY_CONFLICT naming
// externalEventId (a retry without occurredAt matches any). A cancelled
// gift takes no new report: INVALID_REQUEST_STATE naming id. Also
// VALIDATION_ERROR naming outcome, source, externalEventId or occurredAt
// (more than MaxOutcomeAhead ahead); NOT_FOUND naming id outside the
// workspace; the codes of Authorize (ActRecordOutcome); or INTERNAL_ERROR.
func (a *Service) RecordOutcome(ctx context.Context, p core.Principal, in OutcomeInput) (OutcomeReport, error) {
	if err := core.Authorize(p, core.ActRecordOutcome, ""); err != nil {
		return OutcomeReport{}, err
	}
	now := a.Clock.Now().UTC()
	if err := in.validate(now); err != nil {
		return OutcomeReport{}, err
	}
	occurred := now
	if in.OccurredAt != nil {
		occurred = in.OccurredAt.UTC()
	}
	occurred = occurred.Truncate(time.Microsecond) // what PostgreSQL keeps
	var out OutcomeReport
	err := a.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		if _, err := q.SendGet(ctx, db.SendGetParams{WorkspaceID: p.WorkspaceID, ID: in.SendID}); core.IsNoRows(err) {
			return notFoundGift(in.SendID)
		} else if err != nil {
			return core.Internal(err)
		}
		// The lock serializes reports of one gift, so the current outcome
		// follows the latest occurredAt.
		send, err := q.SendGetForUpdate(ctx, in.SendID)
		if err != nil {
			return core.Internal(err)
		}
		if in.ExternalEventID != "" {
			prior, err := q.OutcomeGetByExternal(ctx, db.OutcomeGetByExternalParams{
				WorkspaceID: p.WorkspaceID, Source: in.Source, ExternalEventID: in.ExternalEventID,
			})
			if err == nil {
				out, err = in.replay(prior)
				return err
			} else if !core.IsNoRows(err) {
				return core.Internal(err)
			}
		}
		if gift.SendStatus(send.Status) == gift.SendCancelled {
			return core.FieldError(core.CodeInvalidRequestState, "id", "gift %s was cancelled; cancelled gifts take no outcomes and count in no results", send.ID)
		}
		row, err := q.OutcomeInsert(ctx, db.OutcomeInsertParams{
			WorkspaceID: p.WorkspaceID, SendID: send.ID, Outcome: string(in.Outcome), Source: in.Source,
			ExternalEventID: in.ExternalEventID, OccurredAt: occurred, CreatedAt: now,
		})
		if core.IsNoRows(err) {
			// The same externalEventId for another gift, inserted since
			// the read above (the lock is per gift).
			prior, err := q.OutcomeGetByExternal(ctx, db.OutcomeGetByExternalParams{
				WorkspaceID: p.WorkspaceID, Source: in.Source, ExternalEventID: in.ExternalEventID,
			})
			if err != nil {
				return core.Internal(err)
			}
			out, err = in.replay(prior)
			return err
		} else if err != nil {
			return core.Internal(err)
		}
		if err := q.SendSetOutcome(ctx, db.SendSetOutcomeParams{ID: send.ID, Outcome: row.Outcome, OccurredAt: &occurred, UpdatedAt: now}); err != nil {
			return core.Internal(err)
		}
		if err := a.RecordEvent(ctx, tx, core.EventRecord{
			WorkspaceID: p.WorkspaceID, Type: core.EventSendOutcomeReported, Mode: core.Mode(send.Mode),
			CampaignID: send.CampaignID, SendID: send.ID, RecipientID: send.RecipientID,
			Data: map[string]any{"outcome": row.Outcome, "source": row.Source, "occurredAt": occurred},
		}); err != nil {
			return err
		}
		out = reportFromRow(row)
		return nil
	})
	if err != nil {
		return OutcomeReport{}, core.AsCoreError(err)
	}
	return out, nil
}

// validate checks the report against now.
func (in OutcomeInput) validate(now time.Time) error {
	switch {
	case !in.Outcome.Valid():
		return core.Invalid("outcome", "must be none, replied, meeting_booked or meeting_held")
	case utf8.RuneCountInString(in.Source) > MaxOutcomeSourceLength:
		return core.Invalid("source", "must be at most %d characters", MaxOutcomeSourceLength)
	case !utf8.ValidString(in.Source):
		return core.Invalid("source", "must be UTF-8 text")
	case utf8.RuneCountInString(in.ExternalEventID) > MaxExternalEventIDLength:
		return core.Invalid("externalEventId", "must be at most %d characters", MaxExternalEventIDLength)
	case !utf8.ValidString(in.ExternalEventID):
		return core.Invalid("externalEventId", "must be UTF-8 text")
	case in.OccurredAt != nil && in.OccurredAt.After(now.Add(MaxOutcomeAhead)):
		return core.Invalid("occurredAt", "is more than five minutes ahead of now (%s); send when it happened, or omit it for now", now.Format(time.RFC3339))
	}
	return nil
}

// replay answers a report whose externalEventId and source were recorded
// before: the first report when the content matches, else
// IDEMPOTENCY_CONFLICT.
func (in OutcomeInput) replay(prior db.SendOutcome) (OutcomeReport, error) {
	same := prior.SendID == in.SendID && Outcome(prior.Outcome) == in.Outcome &&
		(in.OccurredAt == nil || in.OccurredAt.UTC().Truncate(time.Microsecond).Equal(prior.OccurredAt))
	if !same {
		return OutcomeReport{}, core.FieldError(core.CodeIdempotencyConflict, "externalEventId",
			"was recorded from this source with other content (gift %s, outcome %s); resend that exact report, or use a new externalEventId for a new one",
			prior.SendID, prior.Outcome)
	}
	return reportFromRow(prior), nil
}

// reportFromRow maps a stored report.
func reportFromRow(r db.SendOutcome) OutcomeReport {
	return OutcomeReport{
		SendID: r.SendID, Outcome: Outcome(r.Outcome), Source: r.Source, ExternalEventID: r.ExternalEventID,
		OccurredAt: r.OccurredAt.UTC(), RecordedAt: r.CreatedAt.UTC(),
	}
}

// notFoundGift is NOT_FOUND naming id.
func notFoundGift(id string) error {
	return core.FieldError(core.CodeNotFound, "id", "no gift %s in this workspace", core.Clip(id, 60))
}
