package identity

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// WorkspaceModeChange is what EnableLive did to a workspace.
type WorkspaceModeChange struct {
	WorkspaceID string `json:"workspaceId"`
	Name        string `json:"name"`
	// Mode is the workspace's mode now: live.
	Mode core.Mode `json:"mode"`
	// Changed is false when the workspace was already live.
	Changed bool `json:"changed"`
}

// EnableLive switches workspace workspaceID from test to live mode: the
// service's staff do it on request (an operator command, not an API
// route). It is idempotent: a live workspace stays live and Changed is
// false. Test and live keep separate balances and gifts, so the workspace
// starts live with its own zero balance; test records stay in test.
//
// Every credential resolves the workspace's mode from the database on each
// request (keys, sessions and connections alike; nothing caches it), so
// the next request after the switch acts in live mode.
//
// It returns NOT_FOUND for an unknown workspace, INVALID_REQUEST (409) for
// a demo workspace, which is preview-only and stays in test mode, or
// INTERNAL_ERROR.
func (a *Service) EnableLive(ctx context.Context, workspaceID string) (WorkspaceModeChange, error) {
	q := db.New(a.DB)
	ws, err := q.WorkspaceGetByID(ctx, workspaceID)
	if core.IsNoRows(err) {
		return WorkspaceModeChange{}, core.FieldError(core.CodeNotFound, "workspace", "no workspace %s", core.Clip(workspaceID, 60))
	}
	if err != nil {
		return WorkspaceModeChange{}, core.Internal(err)
	}
	if ws.IsDemo {
		return WorkspaceModeChange{}, core.FieldError(core.CodeInvalidRequestState, "workspace", "%s is a demo (preview-only) workspace; demo workspaces stay in test mode", ws.ID)
	}
	n, err := q.WorkspaceSetLive(ctx, ws.ID)
	if err != nil {
		return WorkspaceModeChange{}, core.Internal(err)
	}
	// n is 0 when it was live already, or another switch won the race:
	// either way it is live now (nothing moves a workspace back to test).
	return WorkspaceModeChange{WorkspaceID: ws.ID, Name: ws.Name, Mode: core.ModeLive, Changed: n == 1}, nil
}
