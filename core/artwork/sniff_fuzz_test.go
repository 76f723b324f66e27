package artwork_test

import (
	"testing"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
)

// FuzzInspect feeds any bytes, declared as each accepted type, to the
// image sniffing: it never panics, accepts only what carries the declared
// type's signature, never reports a size outside the bounds, and refuses
// with a VALIDATION_ERROR naming the field.
func FuzzInspect(f *testing.F) {
	f.Add(pngOf(f, 3, 2))
	f.Add(jpegOf(f, 5, 4))
	f.Add(pngHeaderOnly(50_000, 1))
	f.Add([]byte("\x89PNG\r\n\x1a\n<html></html>"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Add([]byte("%PDF-1.4"))
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, mime := range artwork.Mimes {
			got, err := artwork.Inspect(body, mime, "body")
			if err != nil {
				if e := core.AsError(err); e.Code != core.CodeValidation || len(e.Fields) != 1 || e.Fields[0] != "body" {
					t.Fatalf("refusal %v", err)
				}
				continue
			}
			if artwork.Sniff(body) != mime || got.Mime != mime {
				t.Fatalf("accepted %q as %s", body[:min(len(body), 16)], mime)
			}
			if mime != artwork.MimePDF && (got.Width <= 0 || got.Height <= 0 || got.Width > artwork.MaxSide || got.Height > artwork.MaxSide ||
				int64(got.Width)*int64(got.Height) > artwork.MaxPixels) {
				t.Fatalf("size %dx%d out of bounds", got.Width, got.Height)
			}
		}
	})
}
