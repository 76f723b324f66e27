package resources

import (
	"fmt"
	"strings"
)

// cell makes text safe inside a markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// row writes one markdown table row.
func row(b *strings.Builder, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + cell(c) + " |")
	}
	b.WriteString("\n")
}

// table writes a markdown table header.
func table(b *strings.Builder, headers ...string) {
	row(b, headers...)
	b.WriteString("|" + strings.Repeat("---|", len(headers)) + "\n")
}

// dollars formats USD cents as $1,234.56.
func dollars(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	whole := fmt.Sprint(cents / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s$%s.%02d", sign, whole, cents%100)
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
