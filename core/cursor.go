package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
)

// SealCursor is the opaque paging cursor of v: base64url of v's JSON
// followed by a check, the first checkLen bytes of SHA-256 over bind and
// that JSON. bind ties the cursor to what it was issued for (a workspace,
// the filters); "" ties it to its own bytes only. v is a cursor struct of
// strings, numbers and times, which always marshals.
//
//	next := core.SealCursor(pageCursor{After: last}, p.WorkspaceID, 8)
func SealCursor(v any, bind string, checkLen int) string {
	payload, err := json.Marshal(v)
	if err != nil {
		panic("core: cursor does not marshal: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(append(payload, cursorCheck(payload, bind, checkLen)...))
}

// OpenCursor decodes into v a cursor SealCursor made with the same bind and
// checkLen. It reports false for anything else: not base64url, too short, a
// check that fails (edited, or issued for another bind), or JSON that is not
// exactly one value of v's fields. Callers answer false with their own
// VALIDATION_ERROR naming cursor.
func OpenCursor(cursor, bind string, checkLen int, v any) bool {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(raw) <= checkLen {
		return false
	}
	payload, check := raw[:len(raw)-checkLen], raw[len(raw)-checkLen:]
	if !bytes.Equal(cursorCheck(payload, bind, checkLen), check) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil && !dec.More()
}

// cursorCheck is the first checkLen bytes of SHA-256 over bind and payload.
func cursorCheck(payload []byte, bind string, checkLen int) []byte {
	h := sha256.New()
	h.Write([]byte(bind))
	h.Write(payload)
	return h.Sum(nil)[:checkLen]
}
