package giftlink

import (
	"strings"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// Address is the US shipping address a recipient types into their gift
// link. It is stored apart from the gift (gift_addresses) and never shown
// to keys, connections or signed-in reads.
type Address struct {
	// Name is who the parcel is addressed to.
	Name string `json:"name"`
	// Street is the street address; Street2 an optional apartment, suite
	// or unit.
	Street  string `json:"street"`
	Street2 string `json:"street2,omitempty"`
	City    string `json:"city"`
	// State is a two-letter code; Normalize accepts a full name too.
	State string `json:"state"`
	// Zip is 12345 or 12345-6789.
	Zip string `json:"zip"`
}

// The longest values an address accepts (the gift_addresses checks).
const (
	MaxAddressName   = 200
	MaxAddressStreet = 200
	MaxAddressCity   = 100
	// MaxAddressState bounds what the state field accepts before it is
	// normalised to a code ("District of Columbia" is the longest name).
	MaxAddressState = 40
	// MaxAddressZip bounds what the zip field accepts before it is
	// normalised ("12345-6789").
	MaxAddressZip = 10
)

// Normalize checks a and returns it trimmed, with the state as its
// two-letter code and the zip as 12345 or 12345-6789. It returns one
// VALIDATION_ERROR naming every bad field at once: name, street, street2,
// city, state and zip.
func (a Address) Normalize() (Address, error) {
	out := Address{
		Name: strings.TrimSpace(a.Name), Street: strings.TrimSpace(a.Street), Street2: strings.TrimSpace(a.Street2),
		City: strings.TrimSpace(a.City),
	}
	var pr campaign.Problems
	for _, f := range []struct {
		name, label, v string
		max            int
		required       bool
	}{
		{"name", "the name", out.Name, MaxAddressName, true},
		{"street", "the street address", out.Street, MaxAddressStreet, true},
		{"street2", "the second address line", out.Street2, MaxAddressStreet, false},
		{"city", "the city", out.City, MaxAddressCity, true},
	} {
		switch {
		case f.required && f.v == "":
			pr.Add(f.name, "enter %s", f.label)
		case utf8.RuneCountInString(f.v) > f.max:
			pr.Add(f.name, "%s must be at most %d characters", f.label, f.max)
		case core.HasControl(f.v) || !utf8.ValidString(f.v):
			pr.Add(f.name, "%s must be plain text on one line", f.label)
		}
	}
	var err error
	if out.State, err = normalizeState(a.State); err != nil {
		addProblem(&pr, err)
	}
	if out.Zip, err = normalizeZip(a.Zip); err != nil {
		addProblem(&pr, err)
	}
	if err := pr.Err(); err != nil {
		return Address{}, err
	}
	return out, nil
}

// addProblem records a field's VALIDATION_ERROR in pr.
func addProblem(pr *campaign.Problems, err error) {
	e := core.AsError(err)
	field := e.Fields[0]
	pr.Add(field, "%s", strings.TrimPrefix(e.Message, field+": "))
}

// normalizeState returns the two-letter code of s, a code or a full name
// in any case, or VALIDATION_ERROR naming state.
func normalizeState(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", core.Invalid("state", "enter the state, as a two-letter code such as CA or its full name")
	}
	if utf8.RuneCountInString(s) > MaxAddressState || core.HasControl(s) {
		return "", core.Invalid("state", "enter the state as a two-letter code such as CA or its full name")
	}
	if code := strings.ToUpper(s); len(code) == 2 {
		if _, ok := usStates[code]; ok {
			return code, nil
		}
	}
	if code, ok := usStateCodes[stateKey(s)]; ok {
		return code, nil
	}
	return "", core.Invalid("state", "%q is not a US state; enter a two-letter code such as CA or a full name such as California", core.Clip(s, MaxAddressState))
}

// stateKey is a state name as usStateCodes keys it: lower case, without
// full stops, single spaces ("Washington, D.C." → "washington dc").
func stateKey(s string) string {
	s = strings.NewReplacer(".", "", ",", " ").Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}

// normalizeZip returns z as 12345 or 12345-6789. It accepts 12345,
// 12345-6789, 12345 6789 and 123456789; anything else is VALIDATION_ERROR
// naming zip.
func normalizeZip(z string) (string, error) {
	z = strings.TrimSpace(z)
	if z == "" {
		return "", core.Invalid("zip", "enter the ZIP code, 5 digits (12345) or 9 digits (12345-6789)")
	}
	digits := z
	if len(z) == 10 && (z[5] == '-' || z[5] == ' ') {
		digits = z[:5] + z[6:]
	}
	if (len(digits) != 5 && len(digits) != 9) || strings.Trim(digits, "0123456789") != "" {
		return "", core.Invalid("zip", "a ZIP code is 5 digits (12345) or 9 digits (12345-6789)")
	}
	if len(digits) == 9 {
		return digits[:5] + "-" + digits[5:], nil
	}
	return digits, nil
}

// usStates are the places a gift ships to by their code: the 50 states,
// the District of Columbia and the inhabited territories. Military (APO,
// FPO) addresses are not accepted.
var usStates = map[string]string{
	"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
	"CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
	"HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa",
	"KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
	"MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri",
	"MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
	"NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio",
	"OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
	"SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
	"VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
	"DC": "District of Columbia",
	"AS": "American Samoa", "GU": "Guam", "MP": "Northern Mariana Islands", "PR": "Puerto Rico",
	"VI": "U.S. Virgin Islands",
}

// usStateCodes are the codes of usStates by stateKey of their names, plus
// a few names people commonly write.
var usStateCodes = func() map[string]string {
	m := map[string]string{
		"washington dc": "DC", "dc": "DC", "us virgin islands": "VI", "virgin islands": "VI",
		"united states virgin islands": "VI", "northern marianas": "MP",
	}
	for code, name := range usStates {
		m[stateKey(name)] = code
	}
	return m
}()
