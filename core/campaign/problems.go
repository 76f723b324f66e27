package campaign

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// maxProblems caps how many problems one VALIDATION_ERROR lists, as the
// registry's validator does.
const maxProblems = 10

// problems collects validation problems, each starting with its field's
// path (recipients[3].zip), into one VALIDATION_ERROR.
type problems struct {
	msgs   []string
	fields []string
}

// add records a problem about field.
func (p *problems) add(field, format string, args ...any) {
	if len(p.msgs) >= maxProblems {
		return
	}
	p.msgs = append(p.msgs, field+": "+fmt.Sprintf(format, args...))
	p.fields = append(p.fields, field)
}

// any reports whether a problem was recorded.
func (p *problems) any() bool { return len(p.msgs) > 0 }

// err is the VALIDATION_ERROR listing every problem, or nil.
func (p *problems) err() error {
	if len(p.msgs) == 0 {
		return nil
	}
	return &core.Error{Code: core.CodeValidation, Message: strings.Join(p.msgs, "; "), Fields: append([]string(nil), p.fields...)}
}

// at joins a path and a field name: at("recipients[2]", "zip").
func at(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
