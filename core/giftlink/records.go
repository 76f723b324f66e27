package giftlink

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Availability says whether a record's gift link can be sent now.
type Availability string

// The availabilities.
const (
	// Ready: the gift's link is active and unexpired; gift_link holds it.
	Ready Availability = "ready"
	// Unavailable: there is no link to send; availability_reason says why.
	Unavailable Availability = "unavailable"
)

// Reason is why a record is unavailable (availability_reason); empty when
// it is ready.
type Reason string

// The reasons a record has no link to send
// (docs/decisions/0069-gift-link-records.md).
const (
	// ReasonNoGift: the person has no gift yet (a draft roster, or waiting
	// in the queue for approval).
	ReasonNoGift Reason = "no_gift"
	// ReasonSkipped: an owner or admin skipped the person.
	ReasonSkipped Reason = "skipped"
	// ReasonGiftCancelled: the person's gift was cancelled.
	ReasonGiftCancelled Reason = "gift_cancelled"
	// ReasonAddressKnown: the sender supplied the address; no link is needed.
	ReasonAddressKnown Reason = "address_known"
	// ReasonLinkPending: the gift waits for its address but its link is not
	// made yet (a gift from before links; serve makes it at start).
	ReasonLinkPending Reason = "link_pending"
	// ReasonLinkUsed: the recipient confirmed an address or declined (or the
	// gift no longer waits for an address).
	ReasonLinkUsed Reason = "link_used"
	// ReasonLinkRevoked: the sender revoked the link.
	ReasonLinkRevoked Reason = "link_revoked"
	// ReasonLinkExpired: the link's 14 days passed unused.
	ReasonLinkExpired Reason = "link_expired"
)

// Reasons lists every reason, in the order the tool describes them.
var Reasons = []Reason{ReasonNoGift, ReasonSkipped, ReasonGiftCancelled, ReasonAddressKnown, ReasonLinkPending,
	ReasonLinkUsed, ReasonLinkRevoked, ReasonLinkExpired}

// Record is a gift-link record (get_gift_link_records): one roster person
// of a campaign with their gift and its link. Its fields are the spec's,
// in snake_case. Identity (name, email, company, profile_url) is who the
// link is for now: the gift's current recipient once a gift exists (a
// regift changes it), the roster person before; recipient_id,
// source_system, external_id and the import fields stay the roster's, so
// a record always finds its row in the caller's own system.
type Record struct {
	RecipientID        string       `json:"recipient_id" jsonschema:"the roster person"`
	SourceSystem       string       `json:"source_system" jsonschema:"the roster person's source system"`
	ExternalID         string       `json:"external_id" jsonschema:"their ID in source_system"`
	Name               string       `json:"name" jsonschema:"who the link is for"`
	Company            string       `json:"company" jsonschema:"their company"`
	Email              string       `json:"email" jsonschema:"their email"`
	ProfileURL         string       `json:"profile_url" jsonschema:"their LinkedIn profile"`
	CampaignID         string       `json:"campaign_id" jsonschema:"the campaign"`
	GiftID             string       `json:"gift_id" jsonschema:"the gift (send_...); empty without one"`
	ProductID          string       `json:"product_id" jsonschema:"the gift's product (the campaign's without a gift)"`
	GiftLink           string       `json:"gift_link" jsonschema:"the private link to send through your own tools; empty unless availability is ready"`
	GiftStatus         string       `json:"gift_status" jsonschema:"the gift's status; empty without a gift"`
	Availability       Availability `json:"availability" jsonschema:"ready: gift_link can be sent now" schema:"enum=ready|unavailable"`
	AvailabilityReason Reason       `json:"availability_reason" jsonschema:"why unavailable: no_gift, skipped, gift_cancelled, address_known, link_pending, link_used, link_revoked, link_expired; empty when ready"`
	GiftExpiresAt      string       `json:"gift_expires_at" jsonschema:"when the link stops working (RFC 3339); empty without a link"`
	LinkGeneration     int          `json:"link_generation" jsonschema:"the link's generation (advances on regift); 0 without a link"`
	Mode               core.Mode    `json:"mode" jsonschema:"test or live; a test link must not reach a real prospect" schema:"enum=test|live"`
	ImportID           string       `json:"import_id" jsonschema:"the source import of the roster row, or empty"`
	ImportRowID        string       `json:"import_row_id" jsonschema:"its row in that import, or empty"`
	ReviewURL          string       `json:"review_url" jsonschema:"the campaign's review page for a signed-in person"`
}

// RecordCounts counts the whole selection, not the page.
type RecordCounts struct {
	Total       int `json:"total" jsonschema:"records selected"`
	Ready       int `json:"ready" jsonschema:"of those, ready"`
	Unavailable int `json:"unavailable" jsonschema:"of those, unavailable"`
}

// SourceImport is a finished CSV import of the campaign, whose retained
// source columns an original-preset export carries (core/distribution).
type SourceImport struct {
	ImportID string `json:"importId" jsonschema:"the import"`
	// Columns are the retained source columns' names, in original order.
	Columns []string `json:"columns" jsonschema:"its source columns kept for exports"`
}

// Records is one page of a campaign's gift-link records.
type Records struct {
	Version int      `json:"version" jsonschema:"the record format, 1"`
	Records []Record `json:"records" jsonschema:"in roster order"`
	// NextCursor continues the selection; nil on the last page.
	NextCursor    *string        `json:"nextCursor" jsonschema:"pass as cursor, with the same filters, for the next page; null on the last page"`
	Counts        RecordCounts   `json:"counts" jsonschema:"the whole selection's counts"`
	SourceImports []SourceImport `json:"sourceImports" jsonschema:"the campaign's CSV imports, oldest first"`
}

// RecordsVersion is the record format's version.
const RecordsVersion = 1

// Records returns a page of campaign campaignID's gift-link records, one
// per roster person in roster order, narrowed by q, with counts of the
// whole selection. It returns VALIDATION_ERROR naming the field (limit,
// recipientIds[i], giftIds[i], search, availability, cursor: malformed,
// another campaign's, or issued for other filters); CURSOR_STALE when the
// selection changed since the cursor was issued; NOT_FOUND naming id for
// a campaign of another workspace or none; or the codes of Authorize
// (ActReadGiftLinks).
func (s *Service) Records(ctx context.Context, p core.Principal, campaignID string, q RecordsQuery) (Records, error) {
	if err := core.Authorize(p, core.ActReadGiftLinks, ""); err != nil {
		return Records{}, err
	}
	sel, err := q.selection()
	if err != nil {
		return Records{}, err
	}
	now := s.Clock.Now()
	var (
		counts  db.GiftLinkRecordCountsRow
		rows    []db.GiftLinkRecordListRow
		c       db.Campaign
		imports []db.RecipientImport
	)
	err = s.ReadTx(ctx, func(qs *db.Queries) error {
		if c, err = getCampaign(ctx, qs, p.WorkspaceID, campaignID); err != nil {
			return err
		}
		after := recordCursor{Position: -1}
		if q.Cursor != "" {
			if after, err = openRecordCursor(q.Cursor, p.WorkspaceID, c.ID, sel.digest()); err != nil {
				return err
			}
		}
		counts, err = qs.GiftLinkRecordCounts(ctx, db.GiftLinkRecordCountsParams{
			RecipientIds: sel.recipientIDs, GiftIds: sel.giftIDs, Pattern: sel.pattern, Availability: string(sel.availability),
			Now: now, WorkspaceID: p.WorkspaceID, CampaignID: c.ID,
		})
		if err != nil {
			return core.Internal(err)
		}
		if q.Cursor != "" && counts.Fingerprint != after.Roster {
			return core.FieldError(core.CodeCursorStale, "cursor",
				"the selection changed while paging (people, gifts or links); start again without a cursor")
		}
		if imports, err = qs.RecipientImportList(ctx, db.RecipientImportListParams{WorkspaceID: p.WorkspaceID, CampaignID: c.ID}); err != nil {
			return core.Internal(err)
		}
		rows, err = qs.GiftLinkRecordList(ctx, db.GiftLinkRecordListParams{
			RecipientIds: sel.recipientIDs, GiftIds: sel.giftIDs, Pattern: sel.pattern, Availability: string(sel.availability),
			AfterPosition: after.Position, AfterID: after.ID, RowLimit: int32(sel.limit + 1),
			Now: now, WorkspaceID: p.WorkspaceID, CampaignID: c.ID,
		})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if err != nil {
		return Records{}, err
	}
	out := Records{
		Version: RecordsVersion, Records: make([]Record, 0, min(len(rows), sel.limit)), SourceImports: []SourceImport{},
		Counts: RecordCounts{Total: int(counts.Total), Ready: int(counts.Ready), Unavailable: int(counts.Total - counts.Ready)},
	}
	for _, imp := range imports {
		si := SourceImport{ImportID: imp.ID, Columns: []string{}}
		for _, i := range imp.Retained {
			if int(i) < len(imp.Headers) {
				si.Columns = append(si.Columns, imp.Headers[i])
			}
		}
		out.SourceImports = append(out.SourceImports, si)
	}
	for i, r := range rows {
		if i == sel.limit {
			last := rows[sel.limit-1]
			next := recordCursor{Position: last.Position, ID: last.RecipientID, Filters: sel.digest(), Roster: counts.Fingerprint}.
				seal(p.WorkspaceID, c.ID)
			out.NextCursor = &next
			break
		}
		out.Records = append(out.Records, s.record(r, c, p.Mode))
	}
	return out, nil
}

// record maps a stored record of campaign c; mode is the workspace's, the
// mode a gift would be made in, for a person without one.
func (s *Service) record(r db.GiftLinkRecordListRow, c db.Campaign, mode core.Mode) Record {
	rec := Record{
		RecipientID: r.RecipientID, SourceSystem: r.SourceSystem, ExternalID: r.ExternalID,
		Name: r.Name, Company: r.Company, Email: r.Email, ProfileURL: r.ProfileUrl,
		CampaignID: c.ID, GiftID: r.GiftID, ProductID: r.ProductID, GiftStatus: r.GiftStatus,
		Availability: Unavailable, AvailabilityReason: Reason(r.AvailabilityReason),
		LinkGeneration: int(r.LinkGeneration), Mode: core.Mode(r.GiftMode),
		ImportID: r.ImportID, ImportRowID: r.ImportRowID, ReviewURL: s.Config.ReviewURL(c.ID),
	}
	if rec.GiftID == "" {
		rec.ProductID, rec.Mode = c.ProductID, mode
	}
	if r.LinkExpiresAt != nil {
		rec.GiftExpiresAt = r.LinkExpiresAt.UTC().Format(time.RFC3339)
	}
	if rec.AvailabilityReason == "" {
		rec.Availability = Ready
		rec.GiftLink = s.Config.GiftLinkURL(s.Config.GiftLinkToken(r.GiftID, r.LinkGeneration, r.TokenSalt))
	}
	return rec
}
