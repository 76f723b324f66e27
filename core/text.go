package core

import (
	"net/mail"
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

// CheckEmail validates an already normalised email; field names it in the error.
func CheckEmail(field, email string) error {
	if email == "" {
		return Invalid(field, "is required")
	}
	if utf8.RuneCountInString(email) > MaxEmailLength {
		return Invalid(field, "must be at most %d characters", MaxEmailLength)
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return Invalid(field, "must be a plain email address like name@example.com")
	}
	return nil
}
