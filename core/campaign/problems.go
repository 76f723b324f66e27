package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// maxProblems caps how many problems one VALIDATION_ERROR lists, as the
// registry's validator does.
const maxProblems = 10

// problems collects validation problems, each starting with its field's
// path (recipients[3].zip), into one VALIDATION_ERROR.
type Problems struct {
	msgs   []string
	fields []string
	// notes counts the recorded problems that are a note's (addNote);
	// others is set by any other problem, recorded or past the cap.
	notes  int
	others bool
}

// add records a problem about field.
func (p *Problems) Add(field, format string, args ...any) {
	p.others = true
	p.record(field, format, args...)
}

// addNote records a problem with a person's note (too long, a placeholder
// that is not one): on an add, notes alone are RECIPIENT_MESSAGE_REQUIRED.
func (p *Problems) addNote(field, format string, args ...any) {
	if len(p.msgs) < maxProblems {
		p.notes++
	}
	p.record(field, format, args...)
}

// record appends one problem, up to maxProblems.
func (p *Problems) record(field, format string, args ...any) {
	if len(p.msgs) >= maxProblems {
		return
	}
	p.msgs = append(p.msgs, field+": "+fmt.Sprintf(format, args...))
	if !slices.Contains(p.fields, field) {
		p.fields = append(p.fields, field)
	}
}

// any reports whether a problem was recorded.
func (p *Problems) any() bool { return len(p.msgs) > 0 }

// err is the VALIDATION_ERROR listing every problem, or nil.
func (p *Problems) Err() error { return p.errCode(core.CodeValidation) }

// errCode is the error with code listing every problem, or nil.
func (p *Problems) errCode(code core.Code) error {
	if len(p.msgs) == 0 {
		return nil
	}
	return &core.Error{Code: code, Message: strings.Join(p.msgs, "; "), Fields: append([]string(nil), p.fields...)}
}

// ErrOnAdd is err for a write that adds people (add_to_playbook,
// add_recipients): when every problem is a note's it is the spec's
// RECIPIENT_MESSAGE_REQUIRED (ask the user for the note) instead of
// VALIDATION_ERROR; problems of any other field keep VALIDATION_ERROR,
// listing the note's too.
func (p *Problems) ErrOnAdd() error {
	if !p.others && p.notes == len(p.msgs) {
		return p.errCode(core.CodeRecipientMessageRequired)
	}
	return p.Err()
}

// at joins a path and a field name: at("recipients[2]", "zip").
func FieldAt(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
