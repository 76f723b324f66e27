package tracking

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"

	"github.com/giftwell/giftwell/core"
)

// position is a place in the event feed: the ID of the transaction that
// wrote an event (xid) and the event's seq. The feed is ordered by
// (xid, seq); events written before the feed existed have xid 0. A position
// with seq 0 lies before every event of its xid: the end of the feed as a
// poll saw it is (horizon, 0).
type position struct {
	xid uint64
	seq int64
}

// after reports whether p comes after q in the feed.
func (p position) after(q position) bool {
	return p.xid > q.xid || (p.xid == q.xid && p.seq > q.seq)
}

// cursorVersion is the version of the cursor's payload.
const cursorVersion = 1

// cursorCheckLen is how many bytes of SHA-256 guard a cursor against edits
// and against use in another workspace.
const cursorCheckLen = 8

// cursorPayload is what a feed cursor holds: its version and a position.
type cursorPayload struct {
	Version int    `json:"v"`
	Xid     uint64 `json:"x"`
	Seq     int64  `json:"s"`
}

// cursorCheck is the check of payload for workspaceID: a cursor names no
// workspace, yet one issued to another workspace fails it.
func cursorCheck(workspaceID string, payload []byte) []byte {
	h := sha256.New()
	h.Write([]byte("giftwell events cursor\x00" + workspaceID + "\x00"))
	h.Write(payload)
	return h.Sum(nil)[:cursorCheckLen]
}

// encodeCursor is the opaque cursor of pos in workspaceID's feed:
// base64url of a small versioned JSON payload and its check.
func encodeCursor(workspaceID string, pos position) string {
	payload, _ := json.Marshal(cursorPayload{Version: cursorVersion, Xid: pos.xid, Seq: pos.seq}) // cannot fail: numbers
	return base64.RawURLEncoding.EncodeToString(append(payload, cursorCheck(workspaceID, payload)...))
}

// decodeCursor reads a cursor encodeCursor issued for workspaceID. It
// returns VALIDATION_ERROR naming cursor for anything else: malformed,
// edited, of another version, or issued to another workspace.
func decodeCursor(workspaceID, s string) (position, error) {
	bad := core.Invalid("cursor", "is not a nextCursor list_tracking_events gave this workspace; pass nextCursor unchanged, or omit cursor to start from the oldest event")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) <= cursorCheckLen {
		return position{}, bad
	}
	payload, check := raw[:len(raw)-cursorCheckLen], raw[len(raw)-cursorCheckLen:]
	if !bytes.Equal(cursorCheck(workspaceID, payload), check) {
		return position{}, bad
	}
	var c cursorPayload
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil || dec.More() || c.Version != cursorVersion || c.Seq < 0 || (c.Xid == 0 && c.Seq == 0) {
		return position{}, bad
	}
	return position{xid: c.Xid, seq: c.Seq}, nil
}
