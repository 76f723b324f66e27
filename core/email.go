package core

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckEmail validates an already normalised email; field names it in the
// error. Besides its shape (a plain address, at most MaxEmailLength
// characters), an address people will read as someone else's is refused:
// an invisible or format character (a zero-width space, a direction mark),
// a part that mixes scripts the way a look-alike does (a Cyrillic "о" among
// Latin letters; Unicode's "highly restrictive" rule of UTS #39, which
// still allows Latin with Han and kana, Bopomofo or Hangul), and a domain
// without a dot (a@b).
func CheckEmail(field, email string) error {
	if problem := EmailProblem(email); problem != "" {
		return Invalid(field, "%s", problem)
	}
	return nil
}

// EmailProblem is what CheckEmail finds wrong with an already normalised
// email, in words that read after its field's name, or "" for none: for
// the checks that gather every problem of a record.
func EmailProblem(email string) string {
	if email == "" {
		return "is required"
	}
	if utf8.RuneCountInString(email) > MaxEmailLength {
		return fmt.Sprintf("must be at most %d characters", MaxEmailLength)
	}
	if strings.IndexFunc(email, invisible) >= 0 {
		return "holds an invisible or formatting character; type the address again"
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return "must be a plain email address like name@example.com"
	}
	at := strings.LastIndexByte(email, '@')
	local, domain := email[:at], email[at+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "must have a domain with a dot, like name@example.com"
	}
	for _, part := range append([]string{local}, strings.Split(domain, ".")...) {
		if mixedScripts(part) {
			return "mixes letters of different alphabets (like a Cyrillic letter among Latin ones); type the address again"
		}
	}
	return ""
}

// invisible reports whether r is a control, format (Cf: zero-width spaces
// and joiners, direction marks) or non-ASCII space character: nothing a
// person sees, or tells apart, in an address.
func invisible(r rune) bool {
	if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
		return true
	}
	// Non-ASCII spaces, and the Hangul fillers that render as nothing.
	return r > 0x7f && (unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || r == '\u115f' || r == '\u1160' || r == '\u3164' || r == '\uffa0')
}

// mixedScripts reports whether s mixes scripts beyond Unicode's "highly
// restrictive" level (UTS #39, 5.2): one script, or Latin with Han and
// Hiragana and Katakana, with Han and Bopomofo, or with Han and Hangul.
// Common and inherited characters (digits, punctuation, combining marks)
// belong to every script.
func mixedScripts(s string) bool {
	seen := map[string]bool{}
	for _, r := range s {
		if r < utf8.RuneSelf {
			if unicode.IsLetter(r) {
				seen["Latin"] = true
			}
			continue
		}
		if name := scriptOf(r); name != "" {
			seen[name] = true
		}
	}
	if len(seen) <= 1 {
		return false
	}
	for _, allowed := range restrictiveSets {
		if subset(seen, allowed) {
			return false
		}
	}
	return true
}

// restrictiveSets are the script combinations UTS #39's highly restrictive
// level allows beyond a single script.
var restrictiveSets = []map[string]bool{
	{"Latin": true, "Han": true, "Hiragana": true, "Katakana": true},
	{"Latin": true, "Han": true, "Bopomofo": true},
	{"Latin": true, "Han": true, "Hangul": true},
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// scriptOf is the name of r's script, or "" for Common, Inherited and
// unassigned characters.
func scriptOf(r rune) string {
	for name, table := range unicode.Scripts {
		if name == "Common" || name == "Inherited" {
			continue
		}
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}
