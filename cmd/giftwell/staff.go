package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
)

// staffEnableLive switches a workspace from test to live mode, as the
// service's staff do on request, and prints {"workspaceId", "name", "mode",
// "changed"}; changed is false when it was live already.
func staffEnableLive(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("staff enable-live")
	workspace := fs.String("workspace", "", "the workspace ID (ws_...)")
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
	out, err := app.Identity.EnableLive(ctx, *workspace)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(out)
}
