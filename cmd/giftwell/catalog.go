package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/tools"
)

// catalogImagesDir is the directory beside the catalog file whose pictures
// catalog import reads when --images is not given.
const catalogImagesDir = "images"

// catalogImport replaces the gift catalog with the JSON array of products in
// FILE ("-" reads standard input) and the pictures in --images DIR (by
// default the images directory beside FILE, when there is one), and prints
// {"products": N, "images": M}.
func catalogImport(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("catalog import")
	imagesDir := fs.String("images", "", "the directory of product pictures, each named <productId>.png, .jpg, .webp or .svg (default: images beside FILE)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("catalog import takes one FILE")
	}
	var r io.Reader = os.Stdin
	name := fs.Arg(0)
	if name != "-" {
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
	dir, required := *imagesDir, true
	if dir == "" && name != "-" {
		dir, required = filepath.Join(filepath.Dir(name), catalogImagesDir), false
	}
	images, err := readImageFiles(dir, required)
	if err != nil {
		return err
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	n, err := catalog.ImportCatalogWithImages(ctx, d.Pool, bytes.NewReader(raw), images)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "{\"products\":%d,\"images\":%d}\n", n, len(images))
	return nil
}

// readImageFiles reads the regular files of dir, leaving out hidden ones
// and subdirectories; core checks them. A file past catalog.MaxImageBytes
// is read only that far (core refuses it by its size). Without dir, or when
// dir does not exist and was not asked for, there are no pictures.
func readImageFiles(dir string, required bool) ([]catalog.ImageFile, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("catalog pictures: %w", err)
	}
	var files []catalog.ImageFile
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("catalog pictures: %w", err)
		}
		data, err := io.ReadAll(io.LimitReader(f, catalog.MaxImageBytes+1))
		_ = f.Close()
		if err != nil {
			return nil, fmt.Errorf("catalog pictures: %w", err)
		}
		files = append(files, catalog.ImageFile{Name: e.Name(), Data: data})
	}
	return files, nil
}
