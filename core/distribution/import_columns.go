package distribution

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/giftwell/giftwell/core"
)

// The recipient fields a source column can fill (gift-link rule 12, plus
// the identity and address fields of a roster person). A gift detail is
// "detail:<key>".
const (
	FieldIgnore        = "ignore"
	FieldName          = "name"
	FieldFirstName     = "first_name"
	FieldLastName      = "last_name"
	FieldEmail         = "email"
	FieldCompany       = "company"
	FieldTitle         = "title"
	FieldSourceSystem  = "source_system"
	FieldExternalID    = "external_id"
	FieldMessage       = "message"
	FieldCustomTag     = "custom_tag"
	FieldPhotoURL      = "photo_url"
	FieldLinkedInURL   = "linkedin_url"
	FieldAdult         = "adult_recipient_confirmed"
	FieldAddressMode   = "address_mode"
	FieldAddress       = "address"
	FieldCity          = "city"
	FieldState         = "state"
	FieldZip           = "zip"
	FieldCountry       = "country"
	detailFieldPrefix  = "detail:"
	maxFieldNameLength = 100
)

// ImportFields are the fields a column may be mapped to (besides
// detail:<key> for the gift's details), in the order the import form
// shows them.
var ImportFields = []string{FieldIgnore, FieldName, FieldFirstName, FieldLastName, FieldEmail, FieldCompany, FieldTitle,
	FieldSourceSystem, FieldExternalID, FieldMessage, FieldCustomTag, FieldPhotoURL, FieldLinkedInURL, FieldAdult,
	FieldAddressMode, FieldAddress, FieldCity, FieldState, FieldZip, FieldCountry}

// headerAliases maps a header, in snake case, to the field it fills.
var headerAliases = map[string]string{
	"name": FieldName, "full_name": FieldName,
	"first_name": FieldFirstName, "firstname": FieldFirstName, "last_name": FieldLastName, "lastname": FieldLastName,
	"email": FieldEmail, "email_address": FieldEmail,
	"company": FieldCompany, "company_name": FieldCompany, "title": FieldTitle, "job_title": FieldTitle,
	"source_system": FieldSourceSystem, "external_id": FieldExternalID,
	"message": FieldMessage, "personal_message": FieldMessage, "personal_note": FieldMessage,
	"custom_tag": FieldCustomTag,
	"photo_url":  FieldPhotoURL, "image_url": FieldPhotoURL,
	"linkedin_url": FieldLinkedInURL, "linkedin": FieldLinkedInURL, "linkedin_profile": FieldLinkedInURL, "profile_url": FieldLinkedInURL,
	"adult_recipient_confirmed": FieldAdult,
	"address_mode":              FieldAddressMode, "address": FieldAddress, "street": FieldAddress, "city": FieldCity,
	"state": FieldState, "zip": FieldZip, "zip_code": FieldZip, "postal_code": FieldZip, "country": FieldCountry,
}

// SnakeCase is a header or detail key in snake case: lower case, runs of
// anything but letters and digits as one _, and a camelCase boundary as _
// (giftSize and "Gift size" are both gift_size).
func SnakeCase(s string) string {
	var b strings.Builder
	under := false
	prev := rune(0)
	for _, r := range strings.TrimSpace(s) {
		switch {
		case unicode.IsUpper(r):
			if unicode.IsLower(prev) || unicode.IsDigit(prev) {
				under = true
			}
			fallthrough
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(unicode.ToLower(r))
		default:
			under = true
		}
		prev = r
	}
	return b.String()
}

// FieldOf is the field a column named header fills on its own: an alias
// of rule 12 or of a roster field, a gift detail whose key in snake case
// is the header's, or FieldIgnore.
func FieldOf(header string, detailKeys []string) string {
	h := SnakeCase(header)
	if f, ok := headerAliases[h]; ok {
		return f
	}
	for _, k := range detailKeys {
		if SnakeCase(k) == h {
			return detailFieldPrefix + k
		}
	}
	return FieldIgnore
}

// mapColumns is each column's field: fields[j] when given (the import
// form's mapping), else the header's own. It returns VALIDATION_ERROR
// naming fields, or every fields[j] at fault at once (an unknown field, a
// detail the gift does not ask, or a field given to two columns).
func mapColumns(headers, fields []string, detailKeys []string) ([]string, error) {
	if fields != nil && len(fields) != len(headers) {
		return nil, core.Invalid("fields", "must give one field per header (%d), or be left out", len(headers))
	}
	out := make([]string, len(headers))
	taken := map[string]int{}
	var pr core.Problems
	for j, h := range headers {
		f := ""
		if fields != nil {
			f = strings.TrimSpace(fields[j])
		}
		path := fmt.Sprintf("fields[%d]", j)
		switch {
		case f == "":
			f = FieldOf(h, detailKeys)
			if _, dup := taken[f]; dup {
				f = FieldIgnore // two columns of one field by name: the first one fills it
			}
		case strings.HasPrefix(f, detailFieldPrefix):
			if !slices.Contains(detailKeys, strings.TrimPrefix(f, detailFieldPrefix)) {
				pr.Add(path, "names a detail the campaign's gift does not ask for")
				continue
			}
		case len(f) > maxFieldNameLength || !slices.Contains(ImportFields, f):
			pr.Add(path, "must be one of %s, or detail:<key> of the gift's details", strings.Join(ImportFields, ", "))
			continue
		}
		if i, dup := taken[f]; dup && f != FieldIgnore {
			pr.Add(path, "maps a second column to %s (fields[%d] has it)", f, i)
			continue
		}
		taken[f] = j
		out[j] = f
	}
	if err := pr.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
