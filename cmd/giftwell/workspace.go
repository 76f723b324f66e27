package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/tools"
)

// workspaceCreate creates a workspace with its owner and prints
// {"workspaceId", "userId", "apiKey"} (apiKey only with --api-key).
func workspaceCreate(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("workspace create")
	name := fs.String("name", "", "workspace name (1-200 characters)")
	email := fs.String("owner-email", "", "the owner's sign-in email")
	password := fs.String("owner-password", "", "the owner's password (at least 8 characters)")
	withKey := fs.Bool("api-key", false, "also create an API key acting as the owner")
	demo := fs.Bool("demo", false, "make a demo (preview-only) workspace")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	app := giftwell.New(d.Pool, core.Config{}, nil, nil)
	ws, err := app.Identity.CreateWorkspace(ctx, identity.CreateWorkspaceParams{
		Name: *name, OwnerEmail: *email, OwnerPassword: *password, Demo: *demo, WithKey: *withKey,
	})
	if err != nil {
		return err
	}
	out := struct {
		WorkspaceID string `json:"workspaceId"`
		UserID      string `json:"userId"`
		APIKey      string `json:"apiKey,omitempty"`
	}{WorkspaceID: ws.WorkspaceID, UserID: ws.UserID, APIKey: ws.APIKey}
	return json.NewEncoder(stdout).Encode(out)
}

// workspaceAddMember adds a person to a workspace and prints
// {"userId", "apiKey"} (apiKey only with --api-key).
func workspaceAddMember(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("workspace add-member")
	workspace := fs.String("workspace", "", "the workspace ID (ws_...)")
	email := fs.String("email", "", "the person's sign-in email")
	password := fs.String("password", "", "the person's password (at least 8 characters)")
	role := fs.String("role", "", "admin or member")
	withKey := fs.Bool("api-key", false, "also create an API key acting as the person")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *workspace == "" {
		return fmt.Errorf("--workspace is required")
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	app := giftwell.New(d.Pool, core.Config{}, nil, nil)
	m, err := app.Identity.AddMember(ctx, identity.AddMemberParams{
		WorkspaceID: *workspace, Email: *email, Password: *password, Role: core.Role(*role), WithKey: *withKey,
	})
	if err != nil {
		return err
	}
	out := struct {
		UserID string `json:"userId"`
		APIKey string `json:"apiKey,omitempty"`
	}{UserID: m.UserID, APIKey: m.APIKey}
	return json.NewEncoder(stdout).Encode(out)
}

// parseNoArgs parses flags and refuses stray positional arguments, and
// flag values the database cannot store as text (bytes that are not UTF-8;
// an argument cannot hold a NUL): VALIDATION_ERROR naming the flag, before
// the database is opened.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(fs.Args()) > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Args()[0])
	}
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if msg := tools.HostileText(f.Value.String()); msg != "" && bad == nil {
			bad = core.Invalid("--"+f.Name, "%s", msg)
		}
	})
	return bad
}
