package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clip shortens s to at most n characters for an error message.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "..."
}

// HasControl reports whether s holds a control character (line breaks included).
func HasControl(s string) bool { return strings.IndexFunc(s, unicode.IsControl) >= 0 }

// NormalizeEmail trims and lowercases an email address, as Giftwell stores it.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
