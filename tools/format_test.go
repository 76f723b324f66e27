package tools

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

type formatted struct {
	Day  string `json:"day,omitempty" schema:"format=date"`
	At   string `json:"at,omitempty" schema:"format=date-time"`
	Link string `json:"link,omitempty" schema:"format=uri"`
	Data string `json:"data,omitempty" schema:"contentEncoding=base64"`
	List []int  `json:"list,omitempty"`
}

// TestFormatsAreAsserted holds the formats and content encoding a schema
// tag names to the validator: what the tag documents, the server refuses.
func TestFormatsAreAsserted(t *testing.T) {
	t.Parallel()
	s, err := schemaFor[formatted]()
	require.NoError(t, err)
	require.Equal(t, "array", s.Properties["list"].Type, "a list is never null")
	require.Equal(t, "base64", s.Properties["data"].ContentEncoding)
	val := newValidator("formatted", s)
	for raw, want := range map[string]string{
		`{"day":"2026-03-01","at":"2026-03-01T09:30:00.5+02:00","link":"https://a.example/x","data":"aGk=","list":[1]}`: "",
		`{"day":""}`:                "",
		`{"day":"2026-3-1"}`:        "day: must be a date, YYYY-MM-DD",
		`{"day":"2026-02-30"}`:      "day: must be a date, YYYY-MM-DD",
		`{"at":"2026-03-01 09:30"}`: "at: must be a time in RFC 3339, such as 2026-03-01T09:30:00Z",
		`{"link":"/relative"}`:      "link: must be an absolute URL",
		`{"data":"aGk"}`:            "data: is not valid base64",
		`{"list":null}`:             "list: must be an array",
	} {
		var v formatted
		err := decodeArgs(val, json.RawMessage(raw), &v)
		if want == "" {
			require.NoError(t, err, raw)
			continue
		}
		require.Error(t, err, raw)
		e := core.AsError(err)
		require.Equal(t, core.CodeValidation, e.Code, raw)
		require.Equal(t, want, e.Message, raw)
	}
	_, err = schemaFor[struct {
		X string `json:"x" schema:"format=email"`
	}]()
	require.ErrorContains(t, err, "not one the validator asserts", "a format the validator does not check is refused at definition")
}
