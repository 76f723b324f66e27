package web

import (
	"slices"
	"strings"

	"github.com/giftwell/giftwell/core/distribution"
)

// importLine is one problem of an imported row as the import page shows
// it: the row, the value in words, and what was wrong with it.
type importLine struct {
	Row   int
	Field string
	Text  string
}

// recipientFieldNames are the words for a roster person's fields that an
// import's problems and notices name.
var recipientFieldNames = map[string]string{
	"name": "Name", "email": "Email", "company": "Company", "title": "Job title", "profileUrl": "LinkedIn profile",
	"sourceSystem": "Source system (CRM)", "externalId": "ID in your CRM", "message": "Note", "customTag": "Tag",
	"context": "Research notes", "photo": "Photo", "adultRecipientConfirmed": "Confirmed as an adult",
	"addressMode": "Who gives the address", "address": "Street address", "city": "City", "state": "State",
	"zip": "ZIP code", "country": "Country",
}

// recipientFieldName says which value of a person a field is: "photo.profileUrl"
// is the photo, "details.size" the detail size.
func recipientFieldName(field string) string {
	if n, ok := recipientFieldNames[field]; ok {
		return n
	}
	if key, ok := strings.CutPrefix(field, "details."); ok {
		return "Detail: " + strings.ReplaceAll(key, "_", " ")
	}
	if strings.HasPrefix(field, "photo.") {
		return "Photo"
	}
	return sentenceWords(field)
}

// importLines spreads rows' problems or notices over one line per field:
// a message lists its fields' problems as core writes them ("email: ...;
// profileUrl: ..."), and a part naming no field of the row belongs to the
// part before it (or, first, to the row as a whole).
func importLines(rows []distribution.RowProblem) []importLine {
	var out []importLine
	for _, r := range rows {
		start := len(out)
		for _, piece := range strings.Split(strings.ReplaceAll(r.Message, addedWithoutText, ""), "; ") {
			if f, text, ok := strings.Cut(piece, ": "); ok && slices.Contains(r.Fields, f) {
				out = append(out, importLine{Row: r.Row, Field: recipientFieldName(f), Text: text})
				continue
			}
			if len(out) == start {
				out = append(out, importLine{Row: r.Row, Text: piece})
				continue
			}
			out[len(out)-1].Text += "; " + piece
		}
		for i := start; i < len(out); i++ {
			out[i].Text = sentence(out[i].Text)
		}
	}
	return out
}

// addedWithoutText is how core ends a notice about a value left out; the
// page says it once, above the notices.
const addedWithoutText = " (the row was added without it)"

// Chosen is the i-th value submitted under name (a form's repeated select,
// such as an import's column fields), or fallback on a fresh page.
func (v view) Chosen(name string, i int, fallback string) string {
	if vs := v.Values[name]; i < len(vs) {
		return vs[i]
	}
	return fallback
}
