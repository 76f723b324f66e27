package giftlink

import (
	"github.com/giftwell/giftwell/core"
)

// recordCursorCheckLen is how many bytes of SHA-256 guard a records cursor.
const recordCursorCheckLen = 8

// maxRecordCursor is the longest cursor accepted; a sealed cursor is far
// shorter.
const maxRecordCursor = 500

// recordCursor is the decoded form of a get_gift_link_records cursor: the
// page's last record (roster position and recipient ID), the digest of the
// filters and the fingerprint of the selection it was issued for.
type recordCursor struct {
	Position int32  `json:"p"`
	ID       string `json:"i"`
	Filters  string `json:"f"`
	Roster   string `json:"r"`
}

// recordCursorBind binds a cursor to its workspace and campaign.
func recordCursorBind(workspaceID, campaignID string) string {
	return "giftwell gift-link records cursor\x00" + workspaceID + "\x00" + campaignID
}

// seal is the opaque cursor of c for campaignID of workspaceID.
func (c recordCursor) seal(workspaceID, campaignID string) string {
	return core.SealCursor(c, recordCursorBind(workspaceID, campaignID), recordCursorCheckLen)
}

// openRecordCursor decodes a cursor issued for campaignID of workspaceID
// with the filters of digest. It returns VALIDATION_ERROR naming cursor
// for anything else: malformed, edited, another campaign's, or issued for
// other filters.
func openRecordCursor(s, workspaceID, campaignID, digest string) (recordCursor, error) {
	var c recordCursor
	if !core.OpenCursor(s, recordCursorBind(workspaceID, campaignID), recordCursorCheckLen, &c) || c.ID == "" || c.Position < 0 {
		return recordCursor{}, core.Invalid("cursor",
			"is not a cursor from get_gift_link_records for this campaign; pass nextCursor unchanged, or omit cursor to start from the beginning")
	}
	if c.Filters != digest {
		return recordCursor{}, core.Invalid("cursor",
			"was issued for other filters; keep recipientIds, giftIds, search and availability the same while paging, or omit cursor to start again")
	}
	return c, nil
}
