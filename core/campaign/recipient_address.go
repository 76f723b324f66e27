package campaign

import (
	"strings"
)

// usStates maps every two-letter code Giftwell ships to (the 50 states and
// DC) to its full name.
var usStates = map[string]string{
	"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
	"CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
	"FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
	"IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
	"ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
	"MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
	"NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
	"NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon",
	"PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
	"TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia",
	"WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
}

// stateByName maps lowercased full names (single spaces) to codes.
var stateByName = func() map[string]string {
	m := make(map[string]string, len(usStates)+1)
	for code, name := range usStates {
		m[strings.ToLower(name)] = code
	}
	m["washington dc"] = "DC"
	m["washington d.c."] = "DC"
	return m
}()

// NormalizeUSState returns the two-letter code of s, a code or a full state
// name in any case ("texas", "TX", "New  York"), and whether it is one.
func NormalizeUSState(s string) (string, bool) {
	t := strings.Join(strings.Fields(s), " ")
	if up := strings.ToUpper(t); len(up) == 2 {
		_, ok := usStates[up]
		return up, ok
	}
	code, ok := stateByName[strings.ToLower(t)]
	return code, ok
}

// NormalizeZip returns a ZIP code of 5 digits, or 9 digits written
// 12345-6789 (also accepted as 123456789 or 12345 6789), as 12345 or
// 12345-6789, and whether it is one.
func NormalizeZip(s string) (string, bool) {
	t := strings.TrimSpace(s)
	var digits []byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case (c == '-' || c == ' ') && len(digits) == 5 && i+1 < len(t):
			// one separator between the 5 and the 4 digits
			if t[i+1] < '0' || t[i+1] > '9' {
				return "", false
			}
		default:
			return "", false
		}
	}
	switch len(digits) {
	case 5:
		if len(t) != 5 {
			return "", false
		}
		return string(digits), true
	case 9:
		return string(digits[:5]) + "-" + string(digits[5:]), true
	}
	return "", false
}
