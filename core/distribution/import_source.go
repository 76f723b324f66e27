package distribution

import (
	"context"
	"slices"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// importCells is the source row behind a roster person.
type importCells struct {
	importID string
	cells    []string
}

// retainedColumns lists the retained source columns of campaign
// campaignID's imports, oldest import first, each in its original order;
// a name already listed by an earlier import is listed once (the first).
func retainedColumns(ctx context.Context, q *db.Queries, workspaceID, campaignID string) ([]sourceColumn, error) {
	imports, err := q.RecipientImportList(ctx, db.RecipientImportListParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if err != nil {
		return nil, core.Internal(err)
	}
	var out []sourceColumn
	for _, imp := range imports {
		for _, i := range imp.Retained {
			if int(i) >= len(imp.Headers) {
				continue
			}
			name := imp.Headers[i]
			if slices.ContainsFunc(out, func(c sourceColumn) bool { return c.name == name }) {
				continue
			}
			out = append(out, sourceColumn{importID: imp.ID, index: int(i), name: name})
		}
	}
	return out, nil
}

// sourceCells maps each of recipientIDs that came from an import to its
// source row.
func sourceCells(ctx context.Context, q *db.Queries, workspaceID, campaignID string, recipientIDs []string) (map[string]importCells, error) {
	rows, err := q.RecipientImportRowsOf(ctx, db.RecipientImportRowsOfParams{WorkspaceID: workspaceID, CampaignID: campaignID, RecipientIds: recipientIDs})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make(map[string]importCells, len(rows))
	for _, r := range rows {
		out[r.RecipientID] = importCells{importID: r.ImportID, cells: r.Cells}
	}
	return out, nil
}
