package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// Hostile text is refused at the edge of every face, once, before anything
// reaches core or the database: PostgreSQL stores neither a NUL character
// (U+0000) in text nor bytes that are not UTF-8, and would answer either
// with an error the faces could only show as a 500. The two checks below
// are the rule; every face calls one of them on what it decoded (REST and
// MCP through Tool.Call's decodeArgs, REST again on its path and query
// values, the web app on its form and path values).

// Messages of the hostile-text refusals, after the field's path.
const (
	msgNUL        = "must not contain a NUL character (U+0000)"
	msgNotUTF8    = "must be UTF-8 text"
	msgKeyHostile = "has a field name with a NUL character or bytes that are not UTF-8"
)

// TextPattern is HostileText's rule as a schema pattern, in the syntax of
// both JSON Schema (ECMA 262) and Go: no NUL character. The REST documents
// put it on every string a request sends that has no narrower rule (the
// MCP lists leave it out, to stay short; the rule holds on every face).
const TextPattern = `^[^\x00]*$`

// HostileText reports whether s cannot be stored as text: it holds a NUL
// character or is not valid UTF-8. It returns the problem in the API's
// words, or "".
func HostileText(s string) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return msgNUL
	case !utf8.ValidString(s):
		return msgNotUTF8
	}
	return ""
}

// CheckText refuses hostile text anywhere in v, a decoded JSON value
// (objects as map[string]any, arrays as []any, strings; anything else is
// not text): every string and every object key, recursively. The refusal
// is one VALIDATION_ERROR naming each offending field by its path
// (recipients[3].name), as the validator does; nil when all is text.
func CheckText(v any) error {
	var c checker
	checkText(&c, "", v)
	return c.err()
}

func checkText(c *checker, path string, v any) {
	if c.full() {
		return
	}
	switch x := v.(type) {
	case string:
		if msg := HostileText(x); msg != "" {
			c.add(path, "%s", msg)
		}
	case []any:
		for i, item := range x {
			checkText(c, fmt.Sprintf("%s[%d]", path, i), item)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if HostileText(k) != "" {
				if !c.reported(path) {
					c.add(path, "%s", msgKeyHostile)
				}
				continue
			}
			checkText(c, join(path, k), x[k])
		}
	}
}

// CheckValues refuses hostile text in form or query values, which carry
// the bytes as sent: every name and value, in name order. The refusal is
// one VALIDATION_ERROR naming each offending field (a name that is itself
// hostile is named "field name"); nil when all is text.
func CheckValues(v url.Values) error {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	sort.Strings(names)
	var c checker
	for _, k := range names {
		if HostileText(k) != "" {
			if !c.reported("field name") {
				c.add("field name", "%s", msgNUL+" or bytes that are not UTF-8")
			}
			continue
		}
		for _, s := range v[k] {
			if msg := HostileText(s); msg != "" {
				c.add(k, "%s", msg)
				break
			}
		}
	}
	return c.err()
}

// CheckJSON refuses hostile text in raw, a JSON document, before a decoder
// hides it: encoding/json turns bytes that are not UTF-8 into U+FFFD and
// "\u0000" into a NUL, so the check reads the raw bytes of each string and
// key. Each offending field is named by its path. A document that is not
// valid JSON is left to the decoder (nil here).
func CheckJSON(raw []byte) error {
	if utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\u0000`)) {
		return nil // the common case: nothing to look at
	}
	if !json.Valid(raw) {
		return nil // not JSON: the decoder says so
	}
	var c checker
	w := jsonWalk{dec: json.NewDecoder(bytes.NewReader(raw)), raw: raw}
	w.dec.UseNumber()
	if err := w.run(&c); err != nil {
		return nil // not JSON: the decoder says so
	}
	return c.err()
}

// jsonWalk reads a JSON document token by token, keeping the path of the
// value it is at, and judges each string on its raw bytes.
type jsonWalk struct {
	dec   *json.Decoder
	raw   []byte
	stack []frame
}

// frame is one open object or array of the walk.
type frame struct {
	object  bool
	wantKey bool   // object: the next string is a key
	key     string // object: the key of the value being read
	index   int    // array: the index of the value being read
}

// path is the path of the value being read; in a container at depth n,
// the frames below it name it.
func (w *jsonWalk) path(depth int) string {
	var b strings.Builder
	for _, f := range w.stack[:depth] {
		if f.object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		} else {
			fmt.Fprintf(&b, "[%d]", f.index)
		}
	}
	return b.String()
}

// done moves the innermost container past the value just read.
func (w *jsonWalk) done() {
	if n := len(w.stack); n > 0 {
		f := &w.stack[n-1]
		if f.object {
			f.wantKey = true
		} else {
			f.index++
		}
	}
}

func (w *jsonWalk) run(c *checker) error {
	for !c.full() {
		start := w.dec.InputOffset()
		tok, err := w.dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				w.stack = append(w.stack, frame{object: true, wantKey: true})
			case '[':
				w.stack = append(w.stack, frame{})
			default:
				w.stack = w.stack[:len(w.stack)-1]
				w.done()
			}
		case string:
			// The bytes since the last token are this string and the
			// separators before it; separators are ASCII, so bytes that are
			// not UTF-8 are the string's.
			bad := strings.IndexByte(t, 0) >= 0 || !utf8.Valid(w.raw[start:w.dec.InputOffset()])
			n := len(w.stack)
			if n > 0 && w.stack[n-1].object && w.stack[n-1].wantKey {
				if bad && !c.reported(w.path(n-1)) {
					c.add(w.path(n-1), "%s", msgKeyHostile)
				}
				if bad {
					t = strings.ReplaceAll(t, "\x00", "\uFFFD") // the path names it printably
				}
				w.stack[n-1].key, w.stack[n-1].wantKey = t, false
				continue
			}
			if bad {
				msg := msgNUL
				if strings.IndexByte(t, 0) < 0 {
					msg = msgNotUTF8
				}
				c.add(w.path(n), "%s", msg)
			}
			w.done()
		default:
			w.done()
		}
	}
	return nil
}
