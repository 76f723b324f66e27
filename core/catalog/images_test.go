package catalog_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/testdb"
)

// TestShippedImagesAreSafeSmallAndAlike checks every built-in illustration:
// one per product of the embedded catalog and the gift box, each well-formed
// XML of one size, small, with no script, link, text or embedded document.
func TestShippedImagesAreSafeSmallAndAlike(t *testing.T) {
	t.Parallel()
	images := catalog.ShippedImages()
	want := map[string]bool{"gift-box.svg": true}
	for _, p := range apptest.EmbeddedCatalog(t) {
		want[p.ID+".svg"] = true
	}
	got := map[string]bool{}
	for name := range images {
		got[name] = true
	}
	require.Equal(t, want, got, "one illustration per product and the gift box, nothing else")

	for name, data := range images {
		require.NoError(t, catalog.CheckSVG(data), name)
		require.Less(t, len(data), 6*1024, "%s is small", name)
		dec := xml.NewDecoder(bytes.NewReader(data))
		first := true
		for {
			tok, err := dec.Token()
			if err != nil {
				require.ErrorContains(t, err, "EOF", name)
				break
			}
			el, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			if first {
				require.Equal(t, "svg", el.Name.Local, name)
				require.Contains(t, el.Attr, xml.Attr{Name: xml.Name{Local: "viewBox"}, Value: "0 0 800 600"}, name)
				first = false
			}
			require.NotContains(t, []string{"script", "foreignObject", "text", "image", "use", "a", "style"}, el.Name.Local, name)
			for _, a := range el.Attr {
				require.NotContains(t, []string{"href", "src"}, a.Name.Local, name)
				require.False(t, strings.HasPrefix(a.Name.Local, "on"), "%s: %s", name, a.Name.Local)
				require.NotContains(t, a.Value, "url(", name)
			}
		}
	}
}

func TestCheckSVGRefusesWhatRunsOrLoads(t *testing.T) {
	t.Parallel()
	const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 6">`
	require.NoError(t, catalog.CheckSVG([]byte(`<?xml version="1.0"?>`+open+`<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="8" height="6"/></svg>`)))
	for name, doc := range map[string]string{
		"script":             open + `<script>alert(1)</script></svg>`,
		"script, upper case": open + `<SCRIPT>alert(1)</SCRIPT></svg>`,
		"foreignObject":      open + `<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`,
		"event handler":      `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`,
		"external image":     open + `<image href="https://example.com/a.png"/></svg>`,
		"xlink href":         `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect/></a></svg>`,
		"use elsewhere":      open + `<use href="other.svg#x"/></svg>`,
		"url to the web":     open + `<rect fill="url(https://example.com/x.svg#p)"/></svg>`,
		"style import":       open + `<style>@import "https://example.com/x.css";</style></svg>`,
		"style url":          open + `<style>rect{fill:url( 'https://example.com/x')}</style></svg>`,
		"animation":          open + `<set attributeName="href" to="javascript:alert(1)"/></svg>`,
		"entity":             `<!DOCTYPE svg [<!ENTITY x "y">]>` + open + `</svg>`,
		"processing":         `<?xml-stylesheet href="https://example.com/x.css"?>` + open + `</svg>`,
		"not svg":            `<html xmlns="http://www.w3.org/1999/xhtml"></html>`,
		"no namespace":       `<svg></svg>`,
		"two roots":          open + `</svg>` + open + `</svg>`,
		"not XML":            open + `<rect></svg>`,
		"empty":              ``,
	} {
		require.Error(t, catalog.CheckSVG([]byte(doc)), name)
	}
}

// TestStoreImageAt checks the addresses of a product's picture: its image
// field's address is current, an unhashed, older-hash or old .jpg address of
// the same product answers with the same picture (not current), and any
// other name is NOT_FOUND.
func TestStoreImageAt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := catalog.NewStore(testdb.New(t))
	products, err := store.Products(ctx)
	require.NoError(t, err)
	p := products[0]
	require.True(t, strings.HasPrefix(p.Image, catalog.ImagePathPrefix+p.ID+"."))
	name := strings.TrimPrefix(p.Image, catalog.ImagePathPrefix)

	m, err := store.ImageAt(ctx, name)
	require.NoError(t, err)
	require.True(t, m.Current)
	require.Equal(t, p.Image, m.Path)
	require.Equal(t, "image/svg+xml", m.Image.ContentType)
	require.Equal(t, catalog.ShippedImages()[p.ID+".svg"], m.Image.Data)

	for _, older := range []string{p.ID + ".svg", p.ID + ".jpg", p.ID + ".00000000.svg", p.ID + "." + m.Image.Hash + ".png"} {
		o, err := store.ImageAt(ctx, older)
		require.NoError(t, err, older)
		require.False(t, o.Current, older)
		require.Equal(t, p.Image, o.Path, older)
	}
	for _, unknown := range []string{"no-such-gift.svg", "no-such-gift." + m.Image.Hash + ".svg", p.ID, p.ID + ".gif", p.ID + ".zzzzzzzz.svg", ".svg", ""} {
		_, err := store.ImageAt(ctx, unknown)
		apptest.RequireCode(t, err, core.CodeNotFound)
	}
}
