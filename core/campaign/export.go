package campaign

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// CampaignExportColumns are the columns of a campaign's CSV export: gift,
// campaign and reference IDs, mode, status, outcome, total cents, and who
// prepared and decided each gift (kind and name). It never carries
// addresses, emails, notes or links.
var CampaignExportColumns = []string{
	"gift_id", "campaign_id", "recipient_id", "product_id", "external_id", "source", "contact_id", "account_id",
	"opportunity_id", "mode", "status", "outcome", "total_cents", "created_at", "prepared_by", "decided_by", "decided_at",
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
				return NotFound(id)
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
			decidedBy, decidedAt := decidedCells(s)
			row := []string{
				s.ID, id, s.RecipientID, s.ProductID, s.Attribution.ExternalID, s.Attribution.Source, s.Attribution.ContactID,
				s.Attribution.AccountID, s.Attribution.OpportunityID, string(s.Mode), string(s.Status), s.Outcome,
				strconv.FormatInt(s.TotalCents, 10), s.CreatedAt.UTC().Format(time.RFC3339), preparedCell(s), decidedBy, decidedAt,
			}
			for i := range row {
				row[i] = core.CSVCell(row[i])
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

// listSends reads a campaign's gifts, oldest first.
func listSends(ctx context.Context, q *db.Queries, campaignID string) ([]gift.Gift, error) {
	rows, err := q.SendListByCampaign(ctx, campaignID)
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]gift.Gift, 0, len(rows))
	for _, r := range rows {
		g, err := gift.FromRow(r)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// preparedCell is who prepared g, as the export writes it ("key: Sales
// agent"), without an email; "" when not recorded.
func preparedCell(g gift.Gift) string {
	if g.PreparedBy == nil {
		return ""
	}
	return g.PreparedBy.Kind + ": " + g.PreparedBy.Name
}

// decidedCells are who decided g and when ("rule: Auto-approve (policy
// version 3)", "person: Ana Diaz"), without an email; "" when not recorded.
func decidedCells(g gift.Gift) (by, at string) {
	if g.DecidedBy == nil {
		return "", ""
	}
	by = g.DecidedBy.Kind + ": " + g.DecidedBy.Name
	if g.DecidedBy.RuleVersion > 0 {
		by += " (policy version " + strconv.FormatInt(g.DecidedBy.RuleVersion, 10) + ")"
	}
	if g.DecidedAt != nil {
		at = g.DecidedAt.UTC().Format(time.RFC3339)
	}
	return by, at
}
