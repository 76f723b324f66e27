package identity

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// WorkspaceSummary is one workspace a caller can reach (GET /workspaces).
type WorkspaceSummary struct {
	ID     string    `json:"id" jsonschema:"the workspace's ID"`
	Name   string    `json:"name" jsonschema:"the workspace's name"`
	Mode   core.Mode `json:"mode" jsonschema:"the workspace's current mode: test or live" schema:"enum=test|live"`
	IsDemo bool      `json:"isDemo" jsonschema:"a demo (preview-only) workspace"`
	Role   core.Role `json:"role" jsonschema:"the caller's role in the workspace" schema:"enum=owner|admin|member"`
}

// ListWorkspaces returns the workspaces p can reach: for a signed-in person
// every workspace they belong to, oldest membership first; for a key (or a
// connection) only its own workspace. It returns AUTH_REQUIRED,
// DEMO_LIMITED or HUMAN_APPROVAL_REQUIRED from Authorize
// (ActReadWorkspaceDetails), AUTH_REQUIRED when the person left the
// workspace, or INTERNAL_ERROR.
func (a *Service) ListWorkspaces(ctx context.Context, p core.Principal) ([]WorkspaceSummary, error) {
	if err := core.Authorize(p, core.ActReadWorkspaceDetails, a.Config.SiteURL+"/"); err != nil {
		return nil, err
	}
	q := db.New(a.DB)
	if p.Via != core.ViaSession {
		row, err := q.WorkspaceSummaryGet(ctx, db.WorkspaceSummaryGetParams{WorkspaceID: p.WorkspaceID, UserID: p.UserID})
		if core.IsNoRows(err) {
			return nil, a.AuthRequired("the credential's user is no longer a member of the workspace")
		}
		if err != nil {
			return nil, core.Internal(err)
		}
		return []WorkspaceSummary{{ID: row.ID, Name: row.Name, Mode: core.Mode(row.Mode), IsDemo: row.IsDemo, Role: core.Role(row.Role)}}, nil
	}
	rows, err := q.WorkspaceListByUser(ctx, p.UserID)
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]WorkspaceSummary, 0, len(rows))
	for _, r := range rows {
		out = append(out, WorkspaceSummary{ID: r.ID, Name: r.Name, Mode: core.Mode(r.Mode), IsDemo: r.IsDemo, Role: core.Role(r.Role)})
	}
	return out, nil
}
