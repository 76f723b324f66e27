package tracking

import (
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

// feedCursorBind binds a feed cursor to workspaceID: a cursor names no
// workspace, yet one issued to another workspace fails its check.
func feedCursorBind(workspaceID string) string {
	return "giftwell events cursor\x00" + workspaceID + "\x00"
}

// encodeCursor is the opaque cursor of pos in workspaceID's feed:
// base64url of a small versioned JSON payload and its check.
func encodeCursor(workspaceID string, pos position) string {
	return core.SealCursor(cursorPayload{Version: cursorVersion, Xid: pos.xid, Seq: pos.seq}, feedCursorBind(workspaceID), cursorCheckLen)
}

// decodeCursor reads a cursor encodeCursor issued for workspaceID. It
// returns VALIDATION_ERROR naming cursor for anything else: malformed,
// edited, of another version, or issued to another workspace.
func decodeCursor(workspaceID, s string) (position, error) {
	var c cursorPayload
	if !core.OpenCursor(s, feedCursorBind(workspaceID), cursorCheckLen, &c) || c.Version != cursorVersion || c.Seq < 0 || (c.Xid == 0 && c.Seq == 0) {
		return position{}, core.Invalid("cursor", "is not a nextCursor list_tracking_events gave this workspace; pass nextCursor unchanged, or omit cursor to start from the oldest event")
	}
	return position{xid: c.Xid, seq: c.Seq}, nil
}
