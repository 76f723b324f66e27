package tracking

// CursorPosition decodes a cursor issued to workspaceID into its position,
// for tests that check the position never goes backwards.
func CursorPosition(workspaceID, cursor string) (xid uint64, seq int64, err error) {
	pos, err := decodeCursor(workspaceID, cursor)
	return pos.xid, pos.seq, err
}

// Cursor is the cursor of position (xid, seq) in workspaceID's feed, for
// tests that hand the service an edited one.
func Cursor(workspaceID string, xid uint64, seq int64) string {
	return encodeCursor(workspaceID, position{xid: xid, seq: seq})
}
