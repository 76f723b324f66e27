package catalog

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/giftwell/giftwell/core"
)

// ImagePathPrefix is where every product's picture is served, under the
// site URL: ImagePathPrefix + "<id>.<hash>.<ext>".
const ImagePathPrefix = "/catalog/images/"

// imageHashLength is how many hex digits of the picture's SHA-256 its path
// carries: enough that a changed picture gets a new address.
const imageHashLength = 8

// giftBoxImage is the shipped illustration a product without a picture of
// its own shows: a neutral gift box.
const giftBoxImage = "gift-box"

// shippedImages are the illustrations built into the binary: one per
// product of the embedded catalog, named by product ID, and the gift box.
//
//go:embed images/*.svg
var shippedImages embed.FS

// Image is one product's picture: its bytes, their media type and the
// short content hash its address carries.
type Image struct {
	// ContentType is the picture's media type, such as image/svg+xml.
	ContentType string
	// Data is the picture's bytes; shared, never changed.
	Data []byte
	// Hash is the first hex digits of the SHA-256 of Data.
	Hash string
	// Ext is the file extension of ContentType, without the dot.
	Ext string
}

// newImage returns the picture of data, of a media type imageTypes knows.
func newImage(contentType string, data []byte) Image {
	sum := sha256.Sum256(data)
	return Image{ContentType: contentType, Data: data, Hash: hex.EncodeToString(sum[:])[:imageHashLength], Ext: imageTypes[contentType]}
}

// Path is the address of the picture for the product with id: it changes
// whenever the picture's bytes do, so it may be cached for good.
func (im Image) Path(id string) string {
	return ImagePathPrefix + id + "." + im.Hash + "." + im.Ext
}

// imageTypes are the picture types the catalog serves, with their file
// extensions.
var imageTypes = map[string]string{
	"image/svg+xml": "svg",
	"image/png":     "png",
	"image/jpeg":    "jpg",
	"image/webp":    "webp",
}

// shippedImage returns the built-in illustration named name (a product ID or
// giftBoxImage).
func shippedImage(name string) (Image, bool) {
	return shippedImageSet()(name)
}

// shippedImageSet loads the built-in illustrations once.
var shippedImageSet = sync.OnceValue(func() func(string) (Image, bool) {
	entries, err := shippedImages.ReadDir("images")
	if err != nil {
		panic(err) // embedded at build time
	}
	byName := make(map[string]Image, len(entries))
	for _, e := range entries {
		data, err := shippedImages.ReadFile("images/" + e.Name())
		if err != nil {
			panic(err)
		}
		byName[strings.TrimSuffix(e.Name(), ".svg")] = newImage("image/svg+xml", data)
	}
	return func(name string) (Image, bool) {
		im, ok := byName[name]
		return im, ok
	}
})

// pictureFor is the picture product id shows: the one the operator
// supplied with the catalog, else the built-in illustration of a shipped
// product with the same ID, else the gift box.
func pictureFor(id string, supplied map[string]Image) Image {
	if im, ok := supplied[id]; ok {
		return im
	}
	if im, ok := shippedImage(id); ok {
		return im
	}
	im, _ := shippedImage(giftBoxImage)
	return im
}

// ImageMatch is what a picture address names.
type ImageMatch struct {
	// Image is the product's picture now.
	Image Image
	// Path is the picture's address now (the product's image field).
	Path string
	// Current is true when the address asked for is Path: its bytes never
	// change. An older or unhashed address of the same product is false.
	Current bool
}

// ImageAt returns the picture at name, the last segment of an address under
// ImagePathPrefix: "<id>.<hash>.<ext>" as the product's image field names
// it, or an older form ("<id>.<ext>", or an earlier hash) of the same
// product. It needs no principal. Returns NOT_FOUND when name names no
// product of the catalog, and INTERNAL_ERROR when the catalog cannot be
// loaded.
func (s *Store) ImageAt(ctx context.Context, name string) (ImageMatch, error) {
	snap, err := s.snapshot(ctx)
	if err != nil {
		return ImageMatch{}, err
	}
	notFound := func() error {
		return &core.Error{Code: core.CodeNotFound, Message: fmt.Sprintf("no catalog picture is named %q; a product's image field gives its picture's address", name)}
	}
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 {
		return ImageMatch{}, notFound()
	}
	base, ext := name[:dot], name[dot+1:]
	if !knownImageExt(ext) {
		return ImageMatch{}, notFound()
	}
	if h := strings.LastIndexByte(base, '.'); h > 0 {
		if id := base[:h]; snap.hasProduct(id) {
			im := snap.images[id]
			if base[h+1:] == im.Hash && ext == im.Ext {
				return ImageMatch{Image: im, Path: im.Path(id), Current: true}, nil
			}
			if !snap.hasProduct(base) && isHex(base[h+1:], imageHashLength) {
				return ImageMatch{Image: im, Path: im.Path(id)}, nil
			}
		}
	}
	if snap.hasProduct(base) {
		im := snap.images[base]
		return ImageMatch{Image: im, Path: im.Path(base)}, nil
	}
	return ImageMatch{}, notFound()
}

func (snap *catalogSnapshot) hasProduct(id string) bool {
	_, ok := snap.byID[id]
	return ok
}

// knownImageExt reports whether ext is the extension of a picture type, or
// jpeg (the long form of jpg).
func knownImageExt(ext string) bool {
	if ext == "jpeg" {
		return true
	}
	for _, e := range imageTypes {
		if e == ext {
			return true
		}
	}
	return false
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}
