package catalog_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/testdb"
)

func pngPicture(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 8, 6))))
	return b.Bytes()
}

const safeSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 6"><rect width="8" height="6" fill="#5C86B3"/></svg>`

const threeGiftCatalog = `[
  {"id": "desk-lamp", "name": "Desk Lamp", "priceCents": 4500},
  {"id": "tea-set", "name": "Tea Set", "priceCents": 3900},
  {"id": "succulent-trio", "name": "Three succulents", "priceCents": 3900}
]`

// imageOf is the picture the store serves for product id, by its image field.
func imageOf(t *testing.T, store *catalog.Store, id string) (catalog.Product, catalog.ImageMatch) {
	t.Helper()
	ctx := context.Background()
	p, err := store.Get(ctx, id)
	require.NoError(t, err)
	m, err := store.ImageAt(ctx, strings.TrimPrefix(p.Image, catalog.ImagePathPrefix))
	require.NoError(t, err, p.Image)
	require.True(t, m.Current)
	return p, m
}

// TestImportCatalogWithImages stores an operator's pictures with the
// catalog: each product shows its own, a shipped product's ID without one
// keeps its illustration, any other shows the gift box; a later import
// without pictures drops them.
func TestImportCatalogWithImages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	store := catalog.NewStore(pool)
	pic := pngPicture(t)
	n, err := catalog.ImportCatalogWithImages(ctx, pool, strings.NewReader(threeGiftCatalog), []catalog.ImageFile{
		{Name: "desk-lamp.png", Data: pic}, {Name: "tea-set.svg", Data: []byte(safeSVG)},
	})
	require.NoError(t, err)
	require.Equal(t, 3, n)

	p, m := imageOf(t, store, "desk-lamp")
	require.Regexp(t, `^/catalog/images/desk-lamp\.[0-9a-f]{8}\.png$`, p.Image)
	require.Equal(t, "image/png", m.Image.ContentType)
	require.Equal(t, pic, m.Image.Data)

	p, m = imageOf(t, store, "tea-set")
	require.Regexp(t, `\.svg$`, p.Image)
	require.Equal(t, safeSVG, string(m.Image.Data))

	_, m = imageOf(t, store, "succulent-trio")
	require.Equal(t, catalog.ShippedImages()["succulent-trio.svg"], m.Image.Data, "a shipped product's ID keeps its illustration")

	_, err = catalog.ImportCatalog(ctx, pool, strings.NewReader(threeGiftCatalog))
	require.NoError(t, err)
	require.NoError(t, store.Refresh(ctx))
	_, m = imageOf(t, store, "desk-lamp")
	require.Equal(t, catalog.GiftBoxImage().Data, m.Image.Data, "without a picture of its own, a gift box")
}

// TestImportCatalogRefusesBadImages: a picture that names no product, is
// too big, is not what its name says or is an unsafe SVG refuses the whole
// import, naming images, and changes nothing.
func TestImportCatalogRefusesBadImages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	store := catalog.NewStore(pool)
	before, err := store.Version(ctx)
	require.NoError(t, err)
	pic := pngPicture(t)
	big := append(append([]byte{}, pic...), make([]byte, catalog.MaxImageBytes)...)
	for name, files := range map[string][]catalog.ImageFile{
		"unknown product":    {{Name: "lamp.png", Data: pic}},
		"unknown extension":  {{Name: "desk-lamp.gif", Data: pic}},
		"no extension":       {{Name: "desk-lamp", Data: pic}},
		"too big":            {{Name: "desk-lamp.png", Data: big}},
		"empty":              {{Name: "desk-lamp.png", Data: nil}},
		"PNG named JPEG":     {{Name: "desk-lamp.jpg", Data: pic}},
		"text named PNG":     {{Name: "desk-lamp.png", Data: []byte("hello")}},
		"PNG named SVG":      {{Name: "desk-lamp.svg", Data: pic}},
		"SVG with a script":  {{Name: "desk-lamp.svg", Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)}},
		"two for a product":  {{Name: "desk-lamp.png", Data: pic}, {Name: "desk-lamp.svg", Data: []byte(safeSVG)}},
		"HTML named SVG":     {{Name: "desk-lamp.svg", Data: []byte(`<html><body onload="x()"></body></html>`)}},
		"WebP named JPEG":    {{Name: "desk-lamp.jpeg", Data: []byte("RIFF\x00\x00\x00\x00WEBPVP8 ")}},
		"one bad among good": {{Name: "tea-set.svg", Data: []byte(safeSVG)}, {Name: "nothing.png", Data: pic}},
	} {
		_, err := catalog.ImportCatalogWithImages(ctx, pool, strings.NewReader(threeGiftCatalog), files)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Contains(t, e.Message, "images", name)
	}
	require.NoError(t, store.Refresh(ctx))
	after, err := store.Version(ctx)
	require.NoError(t, err)
	require.Equal(t, before, after, "nothing changed")

	// JPEG and WebP pictures pass by their signatures.
	_, err = catalog.ImportCatalogWithImages(ctx, pool, strings.NewReader(threeGiftCatalog), []catalog.ImageFile{
		{Name: "desk-lamp.jpeg", Data: []byte("\xff\xd8\xff\xe0 a jpeg")}, {Name: "tea-set.webp", Data: []byte("RIFF\x10\x00\x00\x00WEBPVP8 ")},
	})
	require.NoError(t, err)
	require.NoError(t, store.Refresh(ctx))
	p, m := imageOf(t, store, "desk-lamp")
	require.Equal(t, "image/jpeg", m.Image.ContentType)
	require.Regexp(t, `\.jpg$`, p.Image)
	_, m = imageOf(t, store, "tea-set")
	require.Equal(t, "image/webp", m.Image.ContentType)
}
