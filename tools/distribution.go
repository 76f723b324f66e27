package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/distribution"
	"github.com/giftwell/giftwell/core/giftlink"
)

// GiftLinkRecordsInput is get_gift_link_records' input: the campaign, the
// filters (comma-separated lists on REST) and the page.
type GiftLinkRecordsInput struct {
	ID           string   `json:"id" jsonschema:"the campaign ID" schema:"minLength=1,maxLength=200"`
	RecipientIDs []string `json:"recipientIds,omitempty" jsonschema:"only these roster people" schema:"minItems=1,maxItems=500,items.maxLength=100,items.pattern=^recipient_[A-Za-z0-9_-]+$"`
	GiftIDs      []string `json:"giftIds,omitempty" jsonschema:"only these gifts (send IDs)" schema:"minItems=1,maxItems=500,items.maxLength=100,items.pattern=^send_[A-Za-z0-9_-]+$"`
	Search       string   `json:"search,omitempty" jsonschema:"case-insensitive text in name, email, company, external ID, source system or profile URL" schema:"maxLength=200"`
	Availability string   `json:"availability,omitempty" jsonschema:"only ready or only unavailable records" schema:"enum=ready|unavailable"`
	Limit        int      `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor       string   `json:"cursor,omitempty" jsonschema:"the previous page's nextCursor, with the same filters" schema:"maxLength=500"`
}

// query is the core query of in.
func (in GiftLinkRecordsInput) query() giftlink.RecordsQuery {
	return giftlink.RecordsQuery{
		RecipientIDs: in.RecipientIDs, GiftIDs: in.GiftIDs, Search: in.Search,
		Availability: giftlink.Availability(in.Availability), Limit: in.Limit, Cursor: in.Cursor,
	}
}

const descGetGiftLinkRecords = "Read a campaign's gift links to distribute, one record per roster person in roster order: gift_link only when availability is ready, " +
	"otherwise availability_reason says why (no_gift, skipped, gift_cancelled, address_known, link_pending, link_used, link_revoked, link_expired). " +
	"Filter and page with nextCursor (CURSOR_STALE: start again). Then send each gift_link through your own tools; test-mode links must not reach real prospects. Changes nothing."

// ExportGiftLinksInput is export_gift_links' input: the campaign and the
// export's scope, preset, columns and filters.
type ExportGiftLinksInput struct {
	ID string `json:"id" jsonschema:"the campaign ID" schema:"minLength=1,maxLength=200"`
	distribution.ExportRequest
}

// ExportIDInput names an export.
type ExportIDInput struct {
	ID string `json:"id" jsonschema:"the export ID (exp_...)" schema:"minLength=1,maxLength=100"`
}

const descExportGiftLinks = "Make a CSV of a campaign's gift links to send through your own tools: scope all, selection or filtered; " +
	"preset original (your retained source columns) or compact (identity); both add gift_link, gift_status, gift_expires_at. " +
	"Then fetch downloadUrl with the same credentials, or call download_gift_link_export, within 24 hours."

const descDownloadGiftLinkExport = "Download an export made by export_gift_links as {csv, filename}. " +
	"Links are rechecked now: one revoked, used or expired since the export is left out. Changes nothing."

// distributionTools are the gift-link distribution tools.
func distributionTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("get_gift_link_records", descGetGiftLinkRecords, ScopeLinks, core.ActReadGiftLinks,
			func(ctx context.Context, p core.Principal, in GiftLinkRecordsInput) (giftlink.Records, error) {
				return app.GiftLinks.Records(ctx, p, in.ID, in.query())
			},
			Title("Read gift-link records"), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/distribution", http.StatusOK, Connections())),
		Define("export_gift_links", descExportGiftLinks, ScopeLinks, core.ActReadGiftLinks,
			func(ctx context.Context, p core.Principal, in ExportGiftLinksInput) (distribution.Export, error) {
				return app.Distribution.ExportGiftLinks(ctx, p, in.ID, in.ExportRequest)
			},
			Title("Export gift links as CSV"), ReadOnly(), REST(http.MethodPost, "/campaigns/{id}/distribution/exports", http.StatusCreated, Connections())),
		Define("download_gift_link_export", descDownloadGiftLinkExport, ScopeLinks, core.ActReadGiftLinks,
			func(ctx context.Context, p core.Principal, in ExportIDInput) (distribution.ExportFile, error) {
				return app.Distribution.DownloadExport(ctx, p, in.ID)
			},
			Title("Download a gift-link export"), ReadOnly(), REST(http.MethodGet, "/distribution/exports/{id}", http.StatusOK, Connections(), Produces("text/csv"),
				RESTForm("", func(ctx context.Context, p core.Principal, in ExportIDInput) (File, error) {
					f, err := app.Distribution.DownloadExport(ctx, p, in.ID)
					return File{Name: f.Filename, Body: []byte(f.CSV)}, err
				}))),
	}
}
