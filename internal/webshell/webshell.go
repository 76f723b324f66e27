// Package webshell is the web app's shell, shared by the faces that draw
// pages for people (web, and oauth for its consent page) without importing
// each other: the layout (header with brand, workspace and its test/live
// marker, the site nav when signed in, footer), the partials the layout
// draws, the stylesheet and script, and the header of a signed-in page.
//
// A face parses its page templates into a clone of Layout; each page
// defines "title" and "main" (and may redefine "width" as "narrow") and is
// executed as "layout" with a value that has the fields the layout reads:
//
//	Shell   *Header (nil when nobody is signed in; or a struct with its fields)
//	Nav     string  (the header link of the current page)
//	Notice  string  (a success message)
//	Problem with Field and Message (what went wrong), or nil
//
// The static files are served under /static/ by the web app (StaticHandler);
// pages link them with the "asset" template function (AssetURL).
package webshell

import (
	"context"
	"embed"
	"html/template"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// files holds the shell's templates and static files, embedded in the binary.
//
//go:embed templates/*.html static/*
var files embed.FS

// Funcs are the template functions the shell's templates call: asset.
func Funcs() template.FuncMap {
	return template.FuncMap{"asset": AssetURL}
}

// Layout returns a new template set holding "layout" and the partials it
// draws ("width", "alerts", "mode"), with the shell's Funcs and funcs (a
// face's own helpers, which its page templates may call). Parse pages into
// a Clone of it. The templates are embedded, so an error is a programming
// error; the faces' tests parse them.
func Layout(funcs template.FuncMap) (*template.Template, error) {
	return template.New("").Funcs(Funcs()).Funcs(funcs).ParseFS(files, "templates/*.html")
}

// Header is the header of a signed-in page: the workspace the session acts
// in and the person's workspaces (the layout shows a switcher when there
// are several).
type Header struct {
	// Workspace is the workspace the session acts in; the layout shows its
	// name and its test/live marker.
	Workspace identity.WorkspaceSummary
	// Workspaces are all the person's workspaces; the switcher shows when
	// there are several.
	Workspaces []identity.WorkspaceSummary
	// Email is the signed-in person's, shown next to Sign out.
	Email string
	// Role is the person's role in Workspace.
	Role core.Role
}

// LoadHeader reads the header of a page signed in as p: the person and
// their workspaces. It returns the errors of (*core.App).Session and
// (*core.App).ListWorkspaces (AUTH_REQUIRED for a session that has ended).
func LoadHeader(ctx context.Context, app *giftwell.App, p core.Principal) (*Header, error) {
	who, err := app.Identity.Session(ctx, p)
	if err != nil {
		return nil, err
	}
	list, err := app.Identity.ListWorkspaces(ctx, p)
	if err != nil {
		return nil, err
	}
	hd := &Header{Workspaces: list, Role: p.Role}
	if who != nil {
		hd.Email = who.Email
		hd.Workspace = identity.WorkspaceSummary{ID: who.TeamID, Name: who.Company, Mode: who.WorkspaceMode, IsDemo: who.IsDemo, Role: who.TeamRole}
	}
	for _, ws := range list {
		if ws.ID == p.WorkspaceID {
			hd.Workspace = ws
		}
	}
	return hd, nil
}
