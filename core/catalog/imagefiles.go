package catalog

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// MaxImageBytes is the largest picture an operator may supply for one
// product: 2 MiB.
const MaxImageBytes = 2 << 20

// MaxCatalogImageBytes bounds the pictures supplied with one catalog
// together: every instance holds them in memory. 64 MiB.
const MaxCatalogImageBytes = 64 << 20

// ImageFile is a picture an operator supplies with an imported catalog: a
// file named <productId>.<ext> (png, jpg or jpeg, webp, svg) and its bytes.
type ImageFile struct {
	// Name is the file's name, without a directory.
	Name string
	// Data is the file's bytes.
	Data []byte
}

// extTypes are the media types the supplied pictures' extensions stand for.
var extTypes = map[string]string{"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp", "svg": "image/svg+xml"}

// checkImageFiles matches the supplied pictures to products and checks
// each: named <productId>.<ext> after a product of the catalog, one per
// product, at most MaxImageBytes, its content of its extension's type
// (PNG, JPEG and WebP by their signature; SVG by CheckSVG), and all of them
// at most MaxCatalogImageBytes. It returns the pictures by product ID, or
// one VALIDATION_ERROR naming images that lists every problem.
func checkImageFiles(products []Product, files []ImageFile) (map[string]Image, error) {
	ids := make(map[string]bool, len(products))
	for _, p := range products {
		ids[p.ID] = true
	}
	images := make(map[string]Image, len(files))
	var problems []string
	total := 0
	sorted := append([]ImageFile(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, f := range sorted {
		id, contentType, err := checkImageFile(f, ids)
		if err == nil {
			if _, twice := images[id]; twice {
				err = fmt.Errorf("product %q has another picture already", id)
			}
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%q: %v", f.Name, err))
			continue
		}
		total += len(f.Data)
		images[id] = newImage(contentType, f.Data)
	}
	if total > MaxCatalogImageBytes {
		problems = append(problems, fmt.Sprintf("the pictures hold %d bytes together; at most %d", total, MaxCatalogImageBytes))
	}
	if len(problems) > 0 {
		return nil, core.Invalid("images", "%s", strings.Join(problems, "; "))
	}
	return images, nil
}

// checkImageFile checks one supplied picture and returns its product ID and
// media type.
func checkImageFile(f ImageFile, ids map[string]bool) (id, contentType string, err error) {
	dot := strings.LastIndexByte(f.Name, '.')
	if dot <= 0 {
		return "", "", fmt.Errorf("must be named <productId>.png, .jpg, .webp or .svg")
	}
	id, ext := f.Name[:dot], strings.ToLower(f.Name[dot+1:])
	want, ok := extTypes[ext]
	if !ok {
		return "", "", fmt.Errorf("must be a .png, .jpg, .jpeg, .webp or .svg file")
	}
	if !ids[id] {
		return "", "", fmt.Errorf("names no product of the catalog (%q)", id)
	}
	if len(f.Data) == 0 {
		return "", "", fmt.Errorf("is empty")
	}
	if len(f.Data) > MaxImageBytes {
		return "", "", fmt.Errorf("is %d bytes; a picture is at most %d (2 MiB)", len(f.Data), MaxImageBytes)
	}
	got := sniffImage(f.Data)
	if want == "image/svg+xml" && got == "" {
		if err := CheckSVG(f.Data); err != nil {
			return "", "", fmt.Errorf("is not a safe SVG picture: %v", err)
		}
		return id, want, nil
	}
	if got != want {
		return "", "", fmt.Errorf("is not a %s picture by its content", strings.ToUpper(ext))
	}
	return id, want, nil
}

// sniffImage is the media type of a PNG, JPEG or WebP picture by its
// signature, or "" for anything else.
func sniffImage(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case len(b) >= 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return "image/webp"
	}
	return ""
}
