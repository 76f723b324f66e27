package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// csvType is the media type of CSV downloads.
const csvType = "text/csv"

// campaignOperations are the campaign routes with no tool of their own:
// GET /campaigns/{id}/export, a CSV download.
func campaignOperations() ([]operation, error) {
	input, err := tools.SchemaFor[tools.CampaignIDInput]()
	if err != nil {
		return nil, fmt.Errorf("rest: campaign export schema: %w", err)
	}
	return []operation{{
		ID:      "export_campaign",
		Method:  http.MethodGet,
		Path:    "/campaigns/{id}/export",
		Summary: "Export a campaign's gifts as CSV",
		Description: "A CSV of the campaign's gifts, oldest first, with the columns " + strings.Join(core.CampaignExportColumns, ", ") +
			": gift, campaign and reference IDs, mode, status, outcome and total cents. It never carries addresses, emails, notes or links. " +
			"A campaign without gifts yet gives the header row only.",
		Status:   http.StatusOK,
		Access:   accessRequired,
		Input:    input,
		Produces: csvType,
		handle:   (*server).campaignExportHandler,
	}}, nil
}

// campaignExportHandler serves GET /campaigns/{id}/export as an attachment.
func (s *server) campaignExportHandler(op *operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		args, err := op.bind.args(r, nil)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		var in tools.CampaignIDInput
		if err := json.Unmarshal(args, &in); err != nil {
			s.fail(w, r, core.Internal(err))
			return
		}
		export, err := s.app.ExportCampaign(r.Context(), principalFrom(r), in.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", csvType+"; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", export.Filename))
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(op.Status)
		_, _ = w.Write(export.CSV)
	}
}
