package artwork

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"strings"

	"golang.org/x/image/webp"

	"github.com/giftwell/giftwell/core"
)

// Inspected is what a file's own bytes say it is.
type Inspected struct {
	// Mime is the type its signature shows.
	Mime string
	// Width and Height come from an image's header; 0 for a PDF.
	Width, Height int
}

// signatures are the leading bytes of each accepted type.
var signatures = []struct {
	mime string
	ok   func(b []byte) bool
}{
	{MimePNG, func(b []byte) bool { return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) }},
	{MimeJPEG, func(b []byte) bool { return bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}) }},
	{MimeWebP, func(b []byte) bool {
		return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
	}},
	{MimePDF, func(b []byte) bool { return bytes.HasPrefix(b, []byte("%PDF-")) }},
}

// Sniff returns the accepted type body's signature shows, or "".
func Sniff(body []byte) string {
	for _, s := range signatures {
		if s.ok(body) {
			return s.mime
		}
	}
	return ""
}

// Inspect checks body against the declared mime (named by field mimeField)
// by the content's own signature, and reads an image's size from its
// header only (image.DecodeConfig: the pixels are never decoded). It
// refuses, as VALIDATION_ERROR naming field, a body whose signature is not
// mime's (an HTML page with a PNG header, an SVG), an image whose header
// does not decode, and one over MaxSide a side or MaxPixels.
func Inspect(body []byte, mime, field string) (Inspected, error) {
	got := Sniff(body)
	if got == "" {
		return Inspected{}, core.Invalid(field, "is not a PNG, JPEG, WebP or PDF file (%s); SVG, HTML and other files are refused", describe(body))
	}
	if got != mime {
		return Inspected{}, core.Invalid(field, "is a %s file, not the declared %s", got, mime)
	}
	if mime == MimePDF {
		return Inspected{Mime: mime}, nil
	}
	var (
		cfg image.Config
		err error
	)
	r := bytes.NewReader(body)
	switch mime {
	case MimePNG:
		cfg, err = png.DecodeConfig(r)
	case MimeJPEG:
		cfg, err = jpeg.DecodeConfig(r)
	case MimeWebP:
		cfg, err = webp.DecodeConfig(r)
	}
	if err != nil {
		return Inspected{}, core.Invalid(field, "is not a readable %s image: its header does not decode", mime)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Inspected{}, core.Invalid(field, "is an image with no pixels")
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return Inspected{}, core.Invalid(field, "is %dx%d pixels; images are at most %d pixels a side and 40 megapixels", cfg.Width, cfg.Height, MaxSide)
	}
	return Inspected{Mime: mime, Width: cfg.Width, Height: cfg.Height}, nil
}

// CheckPortrait refuses, naming field, a file that cannot be a portrait: a
// PDF, a logo, or an image under MinPortraitSide a side.
func CheckPortrait(in Inspected, purpose Purpose, field string) error {
	switch {
	case in.Mime == MimePDF:
		return core.Invalid(field, "is a PDF; a portrait is a PNG, JPEG or WebP photo")
	case purpose == PurposeLogo:
		return core.Invalid(field, "is a logo; logos do not count as portraits")
	case in.Width < MinPortraitSide || in.Height < MinPortraitSide:
		return core.Invalid(field, "is %dx%d pixels; a portrait is at least %dx%d", in.Width, in.Height, MinPortraitSide, MinPortraitSide)
	}
	return nil
}

// describe names what a refused body looks like, for the message.
func describe(body []byte) string {
	head := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	switch {
	case len(body) == 0:
		return "it is empty"
	case strings.Contains(head, "<svg"):
		return "it is SVG"
	case strings.HasPrefix(head, "<!doctype html"), strings.Contains(head, "<html"), strings.HasPrefix(head, "<"):
		return "it is HTML or XML"
	}
	return "its signature is unknown"
}
