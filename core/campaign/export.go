package campaign

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// CampaignExportColumns are the columns of a campaign's CSV export: gift,
// campaign and reference IDs, mode, status, outcome and total cents. It
// never carries addresses, emails, notes or links.
var CampaignExportColumns = []string{
	"gift_id", "campaign_id", "recipient_id", "product_id", "external_id", "source", "contact_id", "account_id",
	"opportunity_id", "mode", "status", "outcome", "total_cents", "created_at",
}

// CampaignExport is a campaign's CSV export.
type CampaignExport struct {
	Filename string
	CSV      []byte
}

// ExportCampaign writes campaign id's gifts as CSV, oldest first, one row
// per gift, under CampaignExportColumns (a header only while it has none).
// Values that a spreadsheet would run as a formula are prefixed with a
// quote. It returns NOT_FOUND, or the codes of Authorize.
func (a *Service) ExportCampaign(ctx context.Context, p core.Principal, id string) (CampaignExport, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return CampaignExport{}, err
	}
	var out CampaignExport
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		if _, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: id}); err != nil {
			if core.IsNoRows(err) {
				return campaignNotFound(id)
			}
			return core.Internal(err)
		}
		sends, err := listSends(ctx, q, id)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		_ = w.Write(CampaignExportColumns)
		for _, s := range sends {
			row := []string{
				s.ID, id, s.RecipientID, s.ProductID, s.Attribution.ExternalID, s.Attribution.Source, s.Attribution.ContactID,
				s.Attribution.AccountID, s.Attribution.OpportunityID, string(s.Mode), string(s.Status), s.Outcome,
				strconv.FormatInt(s.TotalCents, 10), s.CreatedAt.UTC().Format(time.RFC3339),
			}
			for i := range row {
				row[i] = csvSafe(row[i])
			}
			_ = w.Write(row)
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return core.Internal(err)
		}
		out = CampaignExport{Filename: id + "-gifts.csv", CSV: buf.Bytes()}
		return nil
	})
	return out, err
}

// CSVSafe keeps a spreadsheet from running value v of another CSV export
// (the report's) as a formula, as this package's exports do.
func CSVSafe(v string) string { return csvSafe(v) }

// csvSafe keeps a spreadsheet from running a value as a formula.
func csvSafe(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
