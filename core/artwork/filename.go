package artwork

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// extensions are the filename extensions of each type.
var extensions = map[string][]string{
	MimePNG:  {".png"},
	MimeJPEG: {".jpg", ".jpeg"},
	MimeWebP: {".webp"},
	MimePDF:  {".pdf"},
}

// CheckFilename applies the spec's filename rule to name, of type mime:
// letters, digits, spaces, dots, underscores, parentheses and hyphens; up
// to MaxFilenameChars characters; an extension matching the type. It
// returns the name or VALIDATION_ERROR naming field.
func CheckFilename(name, mime, field string) (string, error) {
	switch n := utf8.RuneCountInString(name); {
	case name == "":
		return "", core.Invalid(field, "is required")
	case !utf8.ValidString(name):
		return "", core.Invalid(field, "is not UTF-8 text")
	case n > MaxFilenameChars:
		return "", core.Invalid(field, "has %d characters; at most %d", n, MaxFilenameChars)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" ._()-", r) {
			return "", core.Invalid(field, "may hold only letters, digits, spaces, dots, underscores, parentheses and hyphens, not %q", r)
		}
	}
	if strings.TrimSpace(name) != name || strings.HasPrefix(name, ".") {
		return "", core.Invalid(field, "may not start with a dot or start or end with a space")
	}
	exts := extensions[mime]
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || !slices.Contains(exts, strings.ToLower(name[dot:])) {
		return "", core.Invalid(field, "must end with %s to match %s", strings.Join(exts, " or "), mime)
	}
	return name, nil
}

// checkMime refuses a media type that is not one of Mimes, naming field.
func checkMime(mime, field string) error {
	if slices.Contains(Mimes, mime) {
		return nil
	}
	m := strings.ToLower(mime)
	if strings.Contains(m, "svg") || strings.Contains(m, "html") {
		return core.Invalid(field, "%s is refused: SVG and HTML files are never accepted; send image/png, image/jpeg, image/webp or application/pdf", core.Clip(mime, 60))
	}
	return core.Invalid(field, "must be one of image/png, image/jpeg, image/webp, application/pdf, not %q", core.Clip(mime, 60))
}

// checkPurpose reads a purpose: "" is artwork.
func checkPurpose(p, field string) (Purpose, error) {
	switch Purpose(p) {
	case "", PurposeArtwork:
		return PurposeArtwork, nil
	case PurposeLogo, PurposePortrait:
		return Purpose(p), nil
	}
	return "", core.Invalid(field, "must be artwork, logo or portrait")
}
