package campaign

import (
	"maps"
	"slices"
	"strings"
)

// optionalOnImport are the fields of a person (relative to them) an import
// may leave empty when their value is refused: the person is still who
// they are, and nothing is sent in their place. A refused note, address,
// identity or artwork leaves the person out instead. Fields under photo.
// and details. are optional too: a gift that needs them waits, with its
// reason, until they are given.
var optionalOnImport = []string{"email", "company", "title", "profileUrl", "context", "customTag", "photo"}

// requiredOnImport reports whether a refused field leaves its person out of
// an import (not one of optionalOnImport).
func requiredOnImport(field string) bool {
	if slices.Contains(optionalOnImport, field) || strings.HasPrefix(field, "photo.") || strings.HasPrefix(field, "details.") {
		return false
	}
	return true
}

// withoutFields is in without the optional fields named (relative to the
// person): the LinkedIn photo goes with its profile.
func withoutFields(in RecipientInput, fields []string) RecipientInput {
	for _, f := range fields {
		switch {
		case f == "email":
			in.Email = ""
		case f == "company":
			in.Company = ""
		case f == "title":
			in.Title = ""
		case f == "profileUrl":
			in.ProfileURL = ""
			if in.Photo != nil && in.Photo.Source == PhotoLinkedIn {
				in.Photo = nil
			}
		case f == "context":
			in.Context = ""
		case f == "customTag":
			in.CustomTag = ""
		case f == "photo" || strings.HasPrefix(f, "photo."):
			in.Photo = nil
		case strings.HasPrefix(f, "details."):
			in.Details = maps.Clone(in.Details)
			delete(in.Details, strings.TrimPrefix(f, "details."))
		}
	}
	return in
}

// addNotice records that pr's person was added without pr's fields,
// joining an earlier notice of the same person.
func addNotice(notices []ImportProblem, pr ImportProblem) []ImportProblem {
	pr.Code = ""
	if k := slices.IndexFunc(notices, func(n ImportProblem) bool { return n.Index == pr.Index }); k >= 0 {
		notices[k].Fields = append(notices[k].Fields, pr.Fields...)
		notices[k].Message += "; " + pr.Message
		return notices
	}
	return append(notices, pr)
}

// foldNotices sorts problems and notices by person; a person with both
// (an optional field dropped, then refused for something else) is a
// problem naming every field.
func foldNotices(problems, notices []ImportProblem) ([]ImportProblem, []ImportProblem) {
	kept := notices[:0]
	for _, n := range notices {
		k := slices.IndexFunc(problems, func(p ImportProblem) bool { return p.Index == n.Index })
		if k < 0 {
			kept = append(kept, n)
			continue
		}
		problems[k].Fields = append(slices.Clone(n.Fields), problems[k].Fields...)
		problems[k].Message = n.Message + "; " + problems[k].Message
	}
	order := func(x, y ImportProblem) int { return x.Index - y.Index }
	slices.SortFunc(problems, order)
	slices.SortFunc(kept, order)
	return problems, kept
}
