package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// The first workspace of a private installation.
const (
	firstWorkspaceName = "My workspace"
	firstOwnerEmail    = "owner@giftwell.local"
)

// firstRun creates a workspace, its owner and an API key when the database
// holds no workspace, prints the sign-in and the key, and saves them to
// DATADIR/first-run.txt (mode 0600). Later starts print where that file is.
func firstRun(ctx context.Context, app *giftwell.App, dir string, stdout io.Writer) error {
	password := core.RandomHex(10)
	ws, created, err := app.Identity.CreateFirstWorkspace(ctx, identity.CreateWorkspaceParams{
		Name: firstWorkspaceName, OwnerEmail: firstOwnerEmail, OwnerPassword: password, WithKey: true,
	})
	if err != nil {
		return err
	}
	file := filepath.Join(dir, "first-run.txt")
	site := app.Config.SiteURL
	if !created {
		fmt.Fprintf(stdout, "Giftwell is running at %s (MCP: %s). First-run sign-in and key: %s\n", site, app.Config.MCPURL(), file)
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Giftwell is running. This is its first start; these are shown only once.\n\n")
	fmt.Fprintf(&b, "  Site URL:  %s\n", site)
	fmt.Fprintf(&b, "  Sign in:   %s/login\n", site)
	fmt.Fprintf(&b, "  Email:     %s\n", firstOwnerEmail)
	fmt.Fprintf(&b, "  Password:  %s\n", password)
	fmt.Fprintf(&b, "  API key:   %s\n", ws.APIKey)
	fmt.Fprintf(&b, "  MCP URL:   %s  (send Authorization: Bearer <API key>)\n", app.Config.MCPURL())
	fmt.Fprintf(&b, "  REST API:  %s\n", app.Config.BaseURL())
	fmt.Fprintf(&b, "  Workspace: %s (%s)\n", firstWorkspaceName, ws.WorkspaceID)
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("save first-run details: %w", err)
	}
	fmt.Fprintf(stdout, "%s\nSaved to %s\n", b.String(), file)
	return nil
}
