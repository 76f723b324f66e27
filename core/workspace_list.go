package core

import (
	"context"

	"github.com/giftwell/giftwell/sql/db"
)

// WorkspaceSummary is one workspace a caller can reach (GET /workspaces).
type WorkspaceSummary struct {
	ID     string `json:"id" jsonschema:"the workspace's ID"`
	Name   string `json:"name" jsonschema:"the workspace's name"`
	Mode   Mode   `json:"mode" jsonschema:"the workspace's current mode: test or live" schema:"enum=test|live"`
	IsDemo bool   `json:"isDemo" jsonschema:"a demo (preview-only) workspace"`
	Role   Role   `json:"role" jsonschema:"the caller's role in the workspace" schema:"enum=owner|admin|member"`
}

// ListWorkspaces returns the workspaces p can reach: for a signed-in person
// every workspace they belong to, oldest membership first; for a key (or a
// connection) only its own workspace. It returns AUTH_REQUIRED,
// DEMO_LIMITED or HUMAN_APPROVAL_REQUIRED from Authorize
// (ActReadWorkspaceDetails), AUTH_REQUIRED when the person left the
// workspace, or INTERNAL_ERROR.
func (a *App) ListWorkspaces(ctx context.Context, p Principal) ([]WorkspaceSummary, error) {
	if err := Authorize(p, ActReadWorkspaceDetails, a.Config.SiteURL+"/"); err != nil {
		return nil, err
	}
	q := db.New(a.DB)
	if p.Via != ViaSession {
		row, err := q.WorkspaceSummaryGet(ctx, db.WorkspaceSummaryGetParams{WorkspaceID: p.WorkspaceID, UserID: p.UserID})
		if isNoRows(err) {
			return nil, a.authRequired("the credential's user is no longer a member of the workspace")
		}
		if err != nil {
			return nil, Internal(err)
		}
		return []WorkspaceSummary{{ID: row.ID, Name: row.Name, Mode: Mode(row.Mode), IsDemo: row.IsDemo, Role: Role(row.Role)}}, nil
	}
	rows, err := q.WorkspaceListByUser(ctx, p.UserID)
	if err != nil {
		return nil, Internal(err)
	}
	out := make([]WorkspaceSummary, 0, len(rows))
	for _, r := range rows {
		out = append(out, WorkspaceSummary{ID: r.ID, Name: r.Name, Mode: Mode(r.Mode), IsDemo: r.IsDemo, Role: Role(r.Role)})
	}
	return out, nil
}
