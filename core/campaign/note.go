package campaign

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// The note placeholders. Values are inserted literally, once: a value that
// itself looks like a placeholder is printed as it is.
const (
	PlaceholderFirstName = "{{firstName}}"
	PlaceholderName      = "{{name}}"
	PlaceholderCompany   = "{{company}}"
	PlaceholderCustom    = "{{custom}}"
)

// NotePlaceholders are the placeholders a note may use.
var NotePlaceholders = []string{PlaceholderFirstName, PlaceholderName, PlaceholderCompany, PlaceholderCustom}

// WelcomePlaceholders are the placeholders customization.giftLinkWelcome may use.
var WelcomePlaceholders = []string{PlaceholderFirstName, PlaceholderCompany}

// placeholderPattern finds anything written like a placeholder.
var placeholderPattern = regexp.MustCompile(`\{\{[^{}]*\}\}`)

// NoteValues are what a person's note placeholders are filled with.
type NoteValues struct {
	// Name fills {{name}}; its first word fills {{firstName}}.
	Name string
	// Company fills {{company}}.
	Company string
	// CustomTag fills {{custom}}.
	CustomTag string
}

// LinkMessagePlaceholders are the placeholders a gift link's landing
// message may use.
var LinkMessagePlaceholders = []string{PlaceholderFirstName, PlaceholderName, PlaceholderCompany}

// CheckTemplate returns the problem with a note or welcome template: a
// placeholder outside allowed, or more than limit characters outside
// placeholders. "" means none.
func CheckTemplate(tmpl string, allowed []string, limit int) string {
	for _, ph := range placeholderPattern.FindAllString(tmpl, -1) {
		if !slices.Contains(allowed, ph) {
			return fmt.Sprintf("uses %s; the placeholders are %s", core.Clip(ph, 40), strings.Join(allowed, ", "))
		}
	}
	if n := utf8.RuneCountInString(placeholderPattern.ReplaceAllString(tmpl, "")); n > limit {
		return fmt.Sprintf("is %d characters besides its placeholders; at most %d are allowed after personalization", n, limit)
	}
	return ""
}

// ResolveNote fills the placeholders of tmpl with v in one pass, so that
// every value is inserted literally and once. It returns the note and the
// placeholders that had no value (then the note is incomplete: approval
// waits until every placeholder has one).
func ResolveNote(tmpl string, v NoteValues) (string, []string) {
	var missing []string
	note := placeholderPattern.ReplaceAllStringFunc(tmpl, func(ph string) string {
		var val string
		switch ph {
		case PlaceholderFirstName:
			if f := strings.Fields(v.Name); len(f) > 0 {
				val = f[0]
			}
		case PlaceholderName:
			val = strings.TrimSpace(v.Name)
		case PlaceholderCompany:
			val = strings.TrimSpace(v.Company)
		case PlaceholderCustom:
			val = strings.TrimSpace(v.CustomTag)
		default:
			return ph
		}
		if val == "" && !slices.Contains(missing, ph) {
			missing = append(missing, ph)
		}
		return val
	})
	return note, missing
}

// noteState is a person's note: the template in force, the resolved note and
// what keeps it from being printed.
type noteState struct {
	Resolved string
	// problem is empty when the note can be printed; why says it to a person.
	problem, why string
	// tooLong is set when the resolved note is over GiftMessageCharacters.
	tooLong bool
	// missing is set when there is no note at all or a placeholder lacks a value.
	missing bool
}

// PersonNote resolves the note of a person with values v: own overrides
// shared.
func PersonNote(shared, own string, v NoteValues) noteState {
	tmpl := own
	if strings.TrimSpace(tmpl) == "" {
		tmpl = shared
	}
	if strings.TrimSpace(tmpl) == "" {
		return noteState{missing: true, problem: "no note: set the campaign's message or this person's message",
			why: "There is no note to print: write the playbook's note."}
	}
	note, missing := ResolveNote(tmpl, v)
	if len(missing) > 0 {
		return noteState{missing: true, problem: fmt.Sprintf("%s has no value for this person; fill it or change the note", strings.Join(missing, ", ")),
			why: fmt.Sprintf("The note uses %s, which this person lacks: ask the agent to add it, or change the note.", strings.Join(missing, ", "))}
	}
	if n := utf8.RuneCountInString(note); n > core.GiftMessageCharacters {
		return noteState{tooLong: true, problem: fmt.Sprintf("the note is %d characters after personalization; at most %d", n, core.GiftMessageCharacters),
			why: fmt.Sprintf("The note is %d characters for this person, over %d: shorten it.", n, core.GiftMessageCharacters)}
	}
	return noteState{Resolved: note}
}
