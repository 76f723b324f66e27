package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// GetSessionInput is get_session's input: nothing.
type GetSessionInput struct{}

// ListWorkspacesInput is list_workspaces' input: nothing.
type ListWorkspacesInput struct{}

const descGetSession = "The session of the caller: the user, their current role and the workspace. " +
	"Credentials are optional: without them data is null. Not rate limited."

const descListWorkspaces = "The workspaces the credentials reach, each with its mode, whether it is a demo and the caller's role. " +
	"A signed-in person sees every workspace they belong to; a key sees only its own."

// workspaceTools are the caller's session and the workspaces it reaches,
// which only REST serves (the web app reads them).
func workspaceTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("get_session", descGetSession, ScopeDash, core.ActReadWorkspaceDetails,
			func(ctx context.Context, p core.Principal, _ GetSessionInput) (*identity.Session, error) {
				return app.Identity.Session(ctx, p)
			},
			Title("Who the credentials belong to"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/session", http.StatusOK, OptionalCredentials())),
		Define("list_workspaces", descListWorkspaces, ScopeDash, core.ActReadWorkspaceDetails,
			func(ctx context.Context, p core.Principal, _ ListWorkspacesInput) ([]identity.WorkspaceSummary, error) {
				return app.Identity.ListWorkspaces(ctx, p)
			},
			Title("The workspaces the caller can reach"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/workspaces", http.StatusOK)),
	}
}
