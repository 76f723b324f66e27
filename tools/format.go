package tools

import (
	"encoding/base64"
	"net/url"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// The formats and content encodings the registry's schemas assert
// (jsonschema-go treats them as annotations only). A tag that names one
// (format=date, contentEncoding=base64) both documents the rule and makes
// the validator refuse a string that breaks it, with the message here.
var formats = map[string]func(string) bool{
	// date is a calendar day: 2026-03-01.
	"date": func(s string) bool { _, err := time.Parse(time.DateOnly, s); return err == nil },
	// date-time is RFC 3339: 2026-03-01T09:30:00Z.
	"date-time": func(s string) bool { _, err := time.Parse(time.RFC3339Nano, s); return err == nil },
	// uri is an absolute URL with a host.
	"uri": func(s string) bool { u, err := url.Parse(s); return err == nil && u.IsAbs() && u.Host != "" },
}

// formatMessages are the problems a broken format is reported as.
var formatMessages = map[string]string{
	"date":      "must be a date, YYYY-MM-DD",
	"date-time": "must be a time in RFC 3339, such as 2026-03-01T09:30:00Z",
	"uri":       "must be an absolute URL",
}

// formatProblem is the problem of the string v under s's format and
// content encoding, or "". An empty string is left to the field's other
// rules (an optional filter sent empty is absent).
func formatProblem(s *jsonschema.Schema, v string) string {
	if v == "" {
		return ""
	}
	if ok, known := formats[s.Format]; known && !ok(v) {
		return formatMessages[s.Format]
	}
	if s.ContentEncoding == "base64" {
		if _, err := base64.StdEncoding.Strict().DecodeString(v); err != nil {
			return "is not valid base64"
		}
	}
	return ""
}
