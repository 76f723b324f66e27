package distribution

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/sql/db"
)

// ExportFile is a downloaded export: download_gift_link_export's answer on
// MCP, the attachment on REST.
type ExportFile struct {
	CSV      string `json:"csv" jsonschema:"the CSV: a header row, then one row per person"`
	Filename string `json:"filename" jsonschema:"its file name"`
}

// DownloadExport builds export exportID's CSV for p now: the people the
// export selected, with their current records, leaving out anyone whose
// link can no longer be sent (revoked, used or expired since) unless the
// export includes unavailable people, who then have an empty gift_link.
// Every cell a spreadsheet would run as a formula is defused
// (core.CSVCell). It returns NOT_FOUND naming id (another workspace's, none,
// or past its 24 hours), or the codes of Authorize (ActReadGiftLinks),
// checked again at every download.
func (s *Service) DownloadExport(ctx context.Context, p core.Principal, exportID string) (ExportFile, error) {
	if err := core.Authorize(p, core.ActReadGiftLinks, ""); err != nil {
		return ExportFile{}, err
	}
	var (
		exp     db.GiftLinkExport
		params  exportParams
		records []giftlink.Record
		cells   map[string]importCells
	)
	err := s.ReadTx(ctx, func(q *db.Queries) (err error) {
		exp, err = q.GiftLinkExportGet(ctx, db.GiftLinkExportGetParams{WorkspaceID: p.WorkspaceID, ID: exportID})
		if core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "id", "no export %s in this workspace; make one with export_gift_links", exportID)
		}
		if err != nil {
			return core.Internal(err)
		}
		if !s.Clock.Now().Before(exp.ExpiresAt) {
			return core.FieldError(core.CodeNotFound, "id", "export %s expired at %s (downloads work for 24 hours); make a new one with export_gift_links",
				exportID, exp.ExpiresAt.UTC().Format(time.RFC3339))
		}
		if err := json.Unmarshal(exp.Params, &params); err != nil {
			return core.Internal(err)
		}
		if records, err = s.GiftLinks.RecordsOf(ctx, q, p, exp.CampaignID, exp.RecipientIds); err != nil {
			return err
		}
		cells, err = sourceCells(ctx, q, p.WorkspaceID, exp.CampaignID, exp.RecipientIds)
		return err
	})
	if err != nil {
		return ExportFile{}, err
	}
	body, err := writeExport(params.Columns, records, cells, exp.IncludeUnavailable)
	if err != nil {
		return ExportFile{}, err
	}
	return ExportFile{CSV: string(body), Filename: exp.Filename}, nil
}

// writeExport writes the CSV of records under cols.
func writeExport(cols []column, records []giftlink.Record, cells map[string]importCells, includeUnavailable bool) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	row := make([]string, len(cols))
	for i, c := range cols {
		row[i] = core.CSVCell(c.Name)
	}
	_ = w.Write(row)
	for _, r := range records {
		if r.Availability != giftlink.Ready && !includeUnavailable {
			continue
		}
		src := cells[r.RecipientID]
		for i, c := range cols {
			v := ""
			switch {
			case c.Field != "":
				v = recordField(r, c.Field)
			case c.ImportID == src.importID && c.Index < len(src.cells):
				v = src.cells[c.Index]
			}
			row[i] = core.CSVCell(v)
		}
		_ = w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, core.Internal(err)
	}
	return buf.Bytes(), nil
}
