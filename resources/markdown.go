package resources

import (
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

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
