package main

import (
	"context"
	"fmt"
	"io"

	"github.com/giftwell/giftwell/core/catalog"
)

// migrate applies Giftwell's and River's migrations and seeds the built-in
// catalog (unless one was imported).
func migrate(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("migrate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("migrate takes no arguments")
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	if err := catalog.SeedCatalog(ctx, d.Pool); err != nil {
		return err
	}
	fmt.Fprintln(stdout, `{"migrated":true}`)
	return nil
}
