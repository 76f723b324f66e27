package core

import (
	"fmt"
	"strings"
)

// Problems collects the problems of several fields, so that a check
// reports every one at once: one VALIDATION_ERROR whose Fields name them
// all and whose message is "field: problem; field: problem" (the web app
// spreads it over the form's fields).
type Problems struct {
	msgs, fields []string
}

// Add records a problem with field.
func (p *Problems) Add(field, format string, args ...any) {
	p.msgs = append(p.msgs, field+": "+fmt.Sprintf(format, args...))
	p.fields = append(p.fields, field)
}

// AddError records err when it is a VALIDATION_ERROR about one field and
// reports true; any other error is left to the caller (false).
func (p *Problems) AddError(err error) bool {
	e := AsError(err)
	if e == nil || e.Code != CodeValidation || len(e.Fields) != 1 {
		return false
	}
	p.msgs = append(p.msgs, e.Message)
	p.fields = append(p.fields, e.Fields[0])
	return true
}

// Err is the VALIDATION_ERROR listing every problem, or nil when there is none.
func (p *Problems) Err() error {
	if len(p.msgs) == 0 {
		return nil
	}
	return &Error{Code: CodeValidation, Message: strings.Join(p.msgs, "; "), Fields: append([]string(nil), p.fields...)}
}
