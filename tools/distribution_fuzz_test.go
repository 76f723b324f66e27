package tools

import (
	"encoding/json"
	"testing"

	"github.com/giftwell/giftwell/core"
)

// FuzzGiftLinkRecordsArgs runs get_gift_link_records' decoder on arbitrary
// arguments: the registry's schema check and strict decoding, then core's
// checks of the query. Every refusal is a VALIDATION_ERROR (or
// INVALID_JSON) naming its fields; nothing panics; what both accept has a
// page size within bounds.
func FuzzGiftLinkRecordsArgs(f *testing.F) {
	for _, seed := range []string{
		`{"id":"cmp_1"}`,
		`{"id":"cmp_1","recipientIds":["recipient_abc","recipient_abc"],"giftIds":["send_1"],"search":"50%_off","availability":"ready","limit":100}`,
		`{"id":"cmp_1","recipientIds":[],"limit":0}`,
		`{"id":"cmp_1","giftIds":["send_a b"],"availability":"maybe"}`,
		`{"id":"cmp_1","search":"a\u0000b","cursor":"eyJwIjoxfQ"}`,
		`{"id":"cmp_1","recipientIds":null,"giftIds":[1]}`,
		`{"id":""}`, `[]`, `{"id":"cmp_1","limit":1.5}`,
	} {
		f.Add(seed)
	}
	schema, err := schemaFor[GiftLinkRecordsInput]()
	if err != nil {
		f.Fatal(err)
	}
	val := newValidator("get_gift_link_records", schema)
	f.Fuzz(func(t *testing.T, raw string) {
		var in GiftLinkRecordsInput
		if err := decodeArgs(val, json.RawMessage(raw), &in); err != nil {
			if e := fieldsNamed(t, err, raw); e.Code != core.CodeValidation && e.Code != core.CodeInvalidJSON {
				t.Fatalf("decode: unexpected code %s for %q", e.Code, raw)
			}
			return
		}
		if err := in.query().Check(); err != nil {
			if e := fieldsNamed(t, err, raw); e.Code != core.CodeValidation || len(e.Fields) == 0 {
				t.Fatalf("check: unexpected %s %v for %q", e.Code, e.Fields, raw)
			}
			return
		}
		if in.Limit < 0 || in.Limit > 100 || len(in.RecipientIDs) > 500 || len(in.GiftIDs) > 500 {
			t.Fatalf("accepted out of bounds: %q", raw)
		}
	})
}
