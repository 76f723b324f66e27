package core

import "strings"

// CSVCell defuses a CSV cell that a spreadsheet would run as a formula (a
// leading =, +, -, @, tab or carriage return) by prefixing a quote; other
// values are returned as they are. Every CSV Giftwell writes passes its
// cells through it.
func CSVCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
