package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/tools"
)

// catalogImport replaces the gift catalog with the JSON array of products in
// FILE ("-" reads standard input) and prints {"products": N}.
func catalogImport(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("catalog import")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("catalog import takes one FILE")
	}
	var r io.Reader = os.Stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	// A NUL or bytes that are not UTF-8 in any product's text: refused
	// naming the field ([3].name), before the database is opened.
	if err := tools.CheckJSON(raw); err != nil {
		return err
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	n, err := catalog.ImportCatalog(ctx, d.Pool, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "{\"products\":%d}\n", n)
	return nil
}
