package distribution

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// Bounds of a source CSV (the spec's limits table).
const (
	// MaxImportRows is the most rows a campaign takes from imports.
	MaxImportRows = 500
	// MaxImportColumns is the most columns of a source CSV.
	MaxImportColumns = 100
	// MaxCellChars is the longest cell, in characters.
	MaxCellChars = 10_000
	// MaxImportBytes is the largest source CSV (5 MiB).
	MaxImportBytes = 5 << 20
)

// sourceTable is a source CSV: its header row and its rows, each as long
// as the header.
type sourceTable struct {
	headers []string
	rows    [][]string
}

// readSourceCSV reads a source CSV's bytes: UTF-8 (a leading byte-order
// mark is dropped), a header row, then at most MaxImportRows rows of the
// header's width, within the cell and column bounds. field names the
// input in errors (uploadId). It returns VALIDATION_ERROR naming field
// (not UTF-8, too large, unbalanced quotes or another CSV error, no header,
// too many rows) or the cell (rows[i][j]) or headers.
func readSourceCSV(field string, raw []byte) (sourceTable, error) {
	if len(raw) > MaxImportBytes {
		return sourceTable{}, core.Invalid(field, "holds %d bytes; a source CSV holds at most %d (5 MiB)", len(raw), MaxImportBytes)
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(raw) {
		return sourceTable{}, core.Invalid(field, "is not UTF-8 text; save the CSV as UTF-8 and upload it again")
	}
	r := csv.NewReader(bytes.NewReader(raw))
	r.FieldsPerRecord = 0 // every row as wide as the header
	var t sourceTable
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sourceTable{}, core.Invalid(field, "is not a valid CSV: %s", csvProblem(err))
		}
		if t.headers == nil {
			if len(rec) > MaxImportColumns {
				return sourceTable{}, core.Invalid("headers", "has %d columns; a source CSV has at most %d", len(rec), MaxImportColumns)
			}
			t.headers = rec
			continue
		}
		if len(t.rows) == MaxImportRows {
			return sourceTable{}, core.Invalid("rows", "a source CSV has at most %d rows (this one has more); split it across campaigns", MaxImportRows)
		}
		t.rows = append(t.rows, rec)
	}
	if t.headers == nil {
		return sourceTable{}, core.Invalid(field, "is empty; the first line must name the columns")
	}
	return t, t.check()
}

// csvProblem describes a CSV reading error by line and column, without
// echoing content.
func csvProblem(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		switch {
		case errors.Is(pe.Err, csv.ErrQuote), errors.Is(pe.Err, csv.ErrBareQuote):
			return fmt.Sprintf("line %d: unbalanced or stray quote", pe.StartLine)
		case errors.Is(pe.Err, csv.ErrFieldCount):
			return fmt.Sprintf("line %d: a row has another number of cells than the header", pe.Line)
		}
		return fmt.Sprintf("line %d: %v", pe.Line, pe.Err)
	}
	return "unreadable"
}

// check checks the table's bounds: 1-MaxImportColumns named, distinct
// headers; at most MaxImportRows rows as wide as the header; cells of at
// most MaxCellChars characters that a spreadsheet would not run as a
// formula. It returns VALIDATION_ERROR naming headers, headers[j], rows,
// rows[i] or rows[i][j].
func (t sourceTable) check() error {
	switch n := len(t.headers); {
	case n == 0:
		return core.Invalid("headers", "must name at least one column")
	case n > MaxImportColumns:
		return core.Invalid("headers", "has %d columns; a source CSV has at most %d", n, MaxImportColumns)
	}
	seen := map[string]int{}
	size := 0
	for j, h := range t.headers {
		name := strings.TrimSpace(h)
		if name == "" || utf8.RuneCountInString(name) > 200 || core.HasControl(name) {
			return core.Invalid(fmt.Sprintf("headers[%d]", j), "must be a column name of 1 to 200 characters")
		}
		if i, dup := seen[strings.ToLower(name)]; dup {
			return core.Invalid(fmt.Sprintf("headers[%d]", j), "repeats headers[%d] (%q); name each column once", i, name)
		}
		seen[strings.ToLower(name)] = j
		if formulaCell(name) {
			return core.Invalid(fmt.Sprintf("headers[%d]", j), "starts like a spreadsheet formula (=, +, -, @, tab or carriage return)")
		}
		size += len(h)
	}
	if len(t.rows) > MaxImportRows {
		return core.Invalid("rows", "has %d rows; a campaign takes at most %d from imports", len(t.rows), MaxImportRows)
	}
	for i, row := range t.rows {
		if len(row) != len(t.headers) {
			return core.Invalid(fmt.Sprintf("rows[%d]", i), "has %d cells; every row has one per header (%d)", len(row), len(t.headers))
		}
		for j, cell := range row {
			f := fmt.Sprintf("rows[%d][%d]", i, j)
			if !utf8.ValidString(cell) {
				return core.Invalid(f, "is not UTF-8 text")
			}
			if n := utf8.RuneCountInString(cell); n > MaxCellChars {
				return core.Invalid(f, "has %d characters; a cell has at most %d", n, MaxCellChars)
			}
			if formulaCell(cell) {
				return core.Invalid(f, "starts like a spreadsheet formula (=, @, tab, carriage return, or + or - before something that is not a number); remove the formula")
			}
			size += len(cell)
		}
	}
	if size > MaxImportBytes {
		return core.Invalid("rows", "hold %d bytes; a source CSV holds at most %d (5 MiB)", size, MaxImportBytes)
	}
	return nil
}

// formulaCell reports whether a spreadsheet would run cell as a formula:
// it starts with =, @, a tab or a carriage return, or with + or - followed
// by anything but a number or phone number (digits, spaces, . , ( ) - /).
func formulaCell(cell string) bool {
	if cell == "" {
		return false
	}
	switch cell[0] {
	case '=', '@', '\t', '\r':
		return true
	case '+', '-':
		rest := cell[1:]
		return rest != "" && strings.Trim(rest, "0123456789 .,()-/") != ""
	}
	return false
}
