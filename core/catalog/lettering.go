package catalog

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// Check applies the lettering limits to text (a campaign's
// customization.displayText): at most MaxLines lines separated by newlines
// (\r\n counts as one), at most LineMaxLength characters on a line and
// MaxLength in all (newlines not counted), a non-blank first line when
// FirstLineRequired, only AllowedCharacters when set, and no control
// characters. It returns nil or a VALIDATION_ERROR naming field. Empty text
// passes: whether lettering is required is the caller's rule
// (PERSONALIZATION_REQUIRED at approval).
func (t PersonalizationText) Check(field, text string) error {
	if text == "" {
		return nil
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > t.MaxLines {
		return core.Invalid(field, "%s takes at most %d lines, got %d", t.Label, t.MaxLines, len(lines))
	}
	total := 0
	for i, line := range lines {
		n := utf8.RuneCountInString(line)
		if n > t.LineMaxLength {
			return core.Invalid(field, "line %d has %d characters; %s allows at most %d per line", i+1, n, t.Label, t.LineMaxLength)
		}
		total += n
		for _, r := range line {
			if unicode.IsControl(r) {
				return core.Invalid(field, "line %d contains a control character", i+1)
			}
			if t.AllowedCharacters != "" && !strings.ContainsRune(t.AllowedCharacters, r) {
				return core.Invalid(field, "line %d uses %q; %s allows only these characters: %s", i+1, r, t.Label, t.AllowedCharacters)
			}
		}
	}
	if total > t.MaxLength {
		return core.Invalid(field, "%s takes at most %d characters, got %d", t.Label, t.MaxLength, total)
	}
	if t.FirstLineRequired && strings.TrimSpace(lines[0]) == "" {
		return core.Invalid(field, "the first line of %s must not be blank", t.Label)
	}
	return nil
}
