package distribution

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// FuzzReadSourceCSV: the source-CSV reader never panics, refuses with a
// VALIDATION_ERROR naming a field, and what it accepts is within every
// bound: at most 500 rows and 100 columns, each row as wide as the header,
// cells of at most 10,000 characters that no spreadsheet runs as a formula.
func FuzzReadSourceCSV(f *testing.F) {
	for _, seed := range []string{
		"name,email\nAna,ana@example.com\n",
		"\xef\xbb\xbfname\r\nAna\r\n",
		"name,note\n\"Ana,\"\"x\"\"\",\"multi\nline\"\n",
		"name,email\n\"Ana,ana@example.com\n",
		"name\n=1+1\n",
		"name\n+1 (555) 010-0000\n",
		"name,name\na,b\n",
		"a,b\n1\n",
		"",
		"\xff\xfe",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tab, err := readSourceCSV("uploadId", raw)
		if err != nil {
			var ce *core.Error
			if !errors.As(err, &ce) || ce.Code != core.CodeValidation || len(ce.Fields) != 1 {
				t.Fatalf("refusal is not a VALIDATION_ERROR naming one field: %#v", err)
			}
			return
		}
		if len(tab.headers) == 0 || len(tab.headers) > MaxImportColumns || len(tab.rows) > MaxImportRows {
			t.Fatalf("bounds: %d columns, %d rows", len(tab.headers), len(tab.rows))
		}
		for _, row := range tab.rows {
			if len(row) != len(tab.headers) {
				t.Fatalf("a row of %d cells under %d headers", len(row), len(tab.headers))
			}
			for _, c := range row {
				if !utf8.ValidString(c) || utf8.RuneCountInString(c) > MaxCellChars || formulaCell(c) {
					t.Fatalf("accepted cell %q", core.Clip(c, 40))
				}
			}
		}
	})
}

// FuzzChunkAssembler: decoding a part never panics and accepts only parts
// within their bounds; assembling parts accepts exactly the parts that add
// up to their total, in order.
func FuzzChunkAssembler(f *testing.F) {
	f.Add("bmFtZQpBbmEK", 0, 1, int64(9), []byte("abc"), []byte("de"))
	f.Add("bmFtZQpBbmE", 0, 1, int64(9), []byte(""), []byte("x"))
	f.Add("@@@@", 2, 3, int64(9), []byte("a"), []byte("b"))
	f.Fuzz(func(t *testing.T, data string, index, count int, total int64, a, b []byte) {
		c := Chunk{UploadID: "u", PartIndex: index, PartCount: count, TotalBytes: total, Data: data}
		got, err := c.decode()
		if err == nil {
			if len(got) == 0 || len(got) > MaxPartBytes || int64(len(got)) > total || index < 0 || index >= count || count > MaxParts ||
				total > MaxUploadBytes || total > int64(count)*MaxPartBytes {
				t.Fatalf("accepted a part out of bounds: %d bytes, part %d/%d, total %d", len(got), index, count, total)
			}
			if base64.StdEncoding.EncodeToString(got) != strings.NewReplacer("\r", "", "\n", "").Replace(strings.TrimSpace(data)) {
				t.Fatalf("decoded data does not round-trip")
			}
		}
		whole, err := assemble([][]byte{a, b}, 2, total)
		if (err == nil) != (int64(len(a)+len(b)) == total) {
			t.Fatalf("assemble of %d+%d bytes against %d: %v", len(a), len(b), total, err)
		}
		if err == nil && string(whole) != string(a)+string(b) {
			t.Fatalf("assembled out of order")
		}
	})
}
