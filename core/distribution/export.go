package distribution

import (
	"context"
	"encoding/json"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/sql/db"
)

// ExportScope says how an export selects its people (gift-link rule 7).
type ExportScope string

// The scopes.
const (
	// ScopeAll: the whole roster, no filters.
	ScopeAll ExportScope = "all"
	// ScopeSelection: the people of recipientIds or giftIds.
	ScopeSelection ExportScope = "selection"
	// ScopeFiltered: the people matching search, availability or IDs.
	ScopeFiltered ExportScope = "filtered"
)

// ExportTTL is how long an export's download URL works.
const ExportTTL = 24 * time.Hour

// ExportRequest is what export_gift_links takes besides the campaign.
type ExportRequest struct {
	Scope              ExportScope           `json:"scope" jsonschema:"all (no filters), selection (recipientIds or giftIds) or filtered (search, availability or IDs)" schema:"enum=all|selection|filtered"`
	Preset             Preset                `json:"preset,omitempty" jsonschema:"original (default: your retained source columns) or compact (name, email, company, source_system, external_id); both end with gift_link, gift_status, gift_expires_at" schema:"enum=original|compact"`
	IncludeUnavailable bool                  `json:"includeUnavailable,omitempty" jsonschema:"also write people without a link to send (empty gift_link)"`
	OptionalColumns    []string              `json:"optionalColumns,omitempty" jsonschema:"record fields to add: recipient_id, campaign_id, gift_id, product_id, availability, availability_reason, link_generation, mode, import_id, import_row_id, review_url, name, email, company, profile_url, source_system, external_id" schema:"maxItems=20,items.maxLength=40"`
	ColumnPrefix       string                `json:"columnPrefix,omitempty" jsonschema:"put before Giftwell's column names (e.g. giftwell_) so they never clash with yours" schema:"maxLength=40"`
	RecipientIDs       []string              `json:"recipientIds,omitempty" jsonschema:"only these roster people" schema:"minItems=1,maxItems=500,items.maxLength=100,items.pattern=^recipient_[A-Za-z0-9_-]+$"`
	GiftIDs            []string              `json:"giftIds,omitempty" jsonschema:"only these gifts (send IDs)" schema:"minItems=1,maxItems=500,items.maxLength=100,items.pattern=^send_[A-Za-z0-9_-]+$"`
	Search             string                `json:"search,omitempty" jsonschema:"case-insensitive text in name, email, company, external ID, source system or profile URL" schema:"maxLength=200"`
	Availability       giftlink.Availability `json:"availability,omitempty" jsonschema:"only ready or only unavailable records" schema:"enum=ready|unavailable"`
}

// ExportCounts counts an export's people when it was made.
type ExportCounts struct {
	Selected    int `json:"selected" jsonschema:"people the scope selected"`
	Rows        int `json:"rows" jsonschema:"rows in the file"`
	Ready       int `json:"ready" jsonschema:"rows with a link to send"`
	Unavailable int `json:"unavailable" jsonschema:"selected people without a link to send"`
}

// Export is export_gift_links' answer: where to download the CSV, and
// what it holds as of now (the download rechecks every link).
type Export struct {
	ID          string       `json:"id" jsonschema:"the export (exp_...)"`
	DownloadURL string       `json:"downloadUrl" jsonschema:"GET it with the same credentials within 24 hours (download_gift_link_export); not a public link"`
	Filename    string       `json:"filename" jsonschema:"the CSV's file name"`
	Columns     []string     `json:"columns" jsonschema:"the CSV's header row"`
	Mode        core.Mode    `json:"mode" jsonschema:"test or live: test links must not reach real prospects" schema:"enum=test|live"`
	Counts      ExportCounts `json:"counts" jsonschema:"the people selected and written"`
	// Excluded counts the selected people left out, by availability_reason.
	Excluded       map[giftlink.Reason]int `json:"excluded" jsonschema:"people left out for having no link to send, by availability_reason (empty with includeUnavailable)"`
	EarliestExpiry *string                 `json:"earliestExpiry" jsonschema:"when the first link in the file stops working (RFC 3339); null without links"`
	ExpiresAt      string                  `json:"expiresAt" jsonschema:"when downloadUrl stops working (RFC 3339)"`
}

// exportParams is what an export row keeps: the request, checked, and the
// columns it planned.
type exportParams struct {
	Request ExportRequest `json:"request"`
	Columns []column      `json:"columns"`
}

// ExportGiftLinks makes a CSV export of campaign campaignID's gift links
// for p: it selects the people of in's scope now, plans the columns of in's
// preset, and keeps both for 24 hours; the file itself is built by
// DownloadExport. It returns VALIDATION_ERROR naming the field (scope and
// its filters, preset, optionalColumns[i], columnPrefix, and the filters'
// own bounds), NOT_FOUND naming id, or the codes of Authorize
// (ActReadGiftLinks).
func (s *Service) ExportGiftLinks(ctx context.Context, p core.Principal, campaignID string, in ExportRequest) (Export, error) {
	if err := core.Authorize(p, core.ActReadGiftLinks, ""); err != nil {
		return Export{}, err
	}
	if err := in.check(); err != nil {
		return Export{}, err
	}
	if in.Preset == "" {
		in.Preset = PresetOriginal
	}
	now := s.Clock.Now()
	var (
		records []giftlink.Record
		sources []sourceColumn
	)
	err := s.ReadTx(ctx, func(q *db.Queries) (err error) {
		records, err = s.GiftLinks.AllRecords(ctx, q, p, campaignID, giftlink.RecordsQuery{
			RecipientIDs: in.RecipientIDs, GiftIDs: in.GiftIDs, Search: in.Search, Availability: in.Availability,
		})
		if err != nil {
			return err
		}
		sources, err = retainedColumns(ctx, q, p.WorkspaceID, campaignID)
		return err
	})
	if err != nil {
		return Export{}, err
	}
	cols, err := planColumns(in.Preset, in.OptionalColumns, in.ColumnPrefix, sources)
	if err != nil {
		return Export{}, err
	}
	out := Export{
		ID: core.NewID(core.PrefixExport), Columns: make([]string, len(cols)), Mode: p.Mode,
		Excluded: map[giftlink.Reason]int{}, ExpiresAt: now.Add(ExportTTL).UTC().Format(time.RFC3339),
		Filename: campaignID + "-gift-links-" + string(in.Preset) + "-" + now.UTC().Format("20060102-1504") + ".csv",
	}
	out.DownloadURL = s.Config.BaseURL() + "/distribution/exports/" + out.ID
	for i, c := range cols {
		out.Columns[i] = c.Name
	}
	ids := make([]string, 0, len(records))
	modes := map[core.Mode]bool{}
	for _, r := range records {
		ids = append(ids, r.RecipientID)
		out.Counts.Selected++
		if r.Availability != giftlink.Ready {
			out.Counts.Unavailable++
			if !in.IncludeUnavailable {
				out.Excluded[r.AvailabilityReason]++
				continue
			}
		} else {
			out.Counts.Ready++
			if out.EarliestExpiry == nil || r.GiftExpiresAt < *out.EarliestExpiry {
				e := r.GiftExpiresAt
				out.EarliestExpiry = &e
			}
		}
		out.Counts.Rows++
		modes[r.Mode] = true
	}
	if len(modes) == 1 {
		for m := range modes {
			out.Mode = m
		}
	} else if modes[core.ModeTest] {
		out.Mode = core.ModeTest // mixed: the file holds test links
	}
	params, err := json.Marshal(exportParams{Request: in, Columns: cols})
	if err != nil {
		return Export{}, core.Internal(err)
	}
	err = s.InTx(ctx, func(q *db.Queries) error {
		if err := q.GiftLinkExportsDeleteExpired(ctx, now.Add(-ExportTTL)); err != nil {
			return core.Internal(err)
		}
		return core.AsCoreError(q.GiftLinkExportInsert(ctx, db.GiftLinkExportInsertParams{
			ID: out.ID, WorkspaceID: p.WorkspaceID, CampaignID: campaignID, Params: params, RecipientIds: ids,
			Columns: out.Columns, Filename: out.Filename, IncludeUnavailable: in.IncludeUnavailable,
			CreatedBy: p.UserID, CreatedAt: now, ExpiresAt: now.Add(ExportTTL),
		}))
	})
	if err != nil {
		return Export{}, err
	}
	return out, nil
}

// check checks the request's scope against its filters, and its columns;
// the filters' own bounds are giftlink.RecordsQuery's.
func (in ExportRequest) check() error {
	ids := in.RecipientIDs != nil || in.GiftIDs != nil
	filters := in.Search != "" || in.Availability != ""
	switch in.Scope {
	case ScopeAll:
		if ids || filters {
			return core.Invalid("scope", "all takes no recipientIds, giftIds, search or availability; use selection or filtered")
		}
	case ScopeSelection:
		if !ids {
			return core.Invalid("recipientIds", "is required with scope selection (or giftIds)")
		}
		if filters {
			return core.Invalid("scope", "selection takes only recipientIds or giftIds; use filtered with search or availability")
		}
	case ScopeFiltered:
		if !ids && !filters {
			return core.Invalid("scope", "filtered needs search, availability, recipientIds or giftIds; use all for everyone")
		}
	default:
		return core.Invalid("scope", "must be all, selection or filtered")
	}
	switch in.Preset {
	case "", PresetOriginal, PresetCompact:
	default:
		return core.Invalid("preset", "must be original or compact")
	}
	if err := checkOptional(in.OptionalColumns); err != nil {
		return err
	}
	if err := checkPrefix(in.ColumnPrefix); err != nil {
		return err
	}
	return giftlink.RecordsQuery{RecipientIDs: in.RecipientIDs, GiftIDs: in.GiftIDs, Search: in.Search, Availability: in.Availability}.Check()
}
