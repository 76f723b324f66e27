package tracking

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// MaxGiftEvents is the most events GiftEvents returns for one gift: far
// more than a gift's life records, unless outcomes are reported again and
// again.
const MaxGiftEvents = 500

// MaxRecentEvents is the most events RecentEvents returns.
const MaxRecentEvents = 50

// GiftTimeline is one gift's events, oldest first.
type GiftTimeline struct {
	// Events are the gift's feed events in feed order, at most
	// MaxGiftEvents.
	Events []EventItem
	// More is set when the gift has more events than Events holds.
	More bool
}

// GiftEvents returns the feed events of gift sendID, oldest first (feed
// order), for the web app's gift page: what the feed would return with a
// sendId filter, read at once instead of by cursor. Like the feed it never
// holds an address, email, note or link, nor playbook.person_waiting. It
// returns NOT_FOUND naming id for a gift of another workspace or none, or
// the codes of Authorize (ActRead).
func (a *Service) GiftEvents(ctx context.Context, p core.Principal, sendID string) (GiftTimeline, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return GiftTimeline{}, err
	}
	var rows []db.GiftEventListRow
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		if _, err := q.SendGet(ctx, db.SendGetParams{WorkspaceID: p.WorkspaceID, ID: sendID}); core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "id", "no gift %s in this workspace", core.Clip(sendID, 60))
		} else if err != nil {
			return core.Internal(err)
		}
		var err error
		rows, err = q.GiftEventList(ctx, db.GiftEventListParams{WorkspaceID: p.WorkspaceID, SendID: sendID, MaxRows: MaxGiftEvents + 1})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if err != nil {
		return GiftTimeline{}, err
	}
	t := GiftTimeline{Events: make([]EventItem, 0, min(len(rows), MaxGiftEvents)), More: len(rows) > MaxGiftEvents}
	for _, r := range rows[:min(len(rows), MaxGiftEvents)] {
		item, err := itemFromRow(p.WorkspaceID, db.EventFeedListRow(r))
		if err != nil {
			return GiftTimeline{}, err
		}
		t.Events = append(t.Events, item)
	}
	return t, nil
}

// RecentEvent is one of the workspace's newest events with the name of its
// gift's recipient.
type RecentEvent struct {
	EventItem
	// RecipientName is who the gift is for now.
	RecipientName string
}

// RecentEvents returns the newest limit (1-MaxRecentEvents) feed events of
// p's workspace, newest first, for the web app's home page. It returns
// VALIDATION_ERROR naming limit, or the codes of Authorize (ActRead).
func (a *Service) RecentEvents(ctx context.Context, p core.Principal, limit int) ([]RecentEvent, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return nil, err
	}
	if limit < 1 || limit > MaxRecentEvents {
		return nil, core.Invalid("limit", "must be between 1 and %d", MaxRecentEvents)
	}
	rows, err := db.New(a.DB).GiftEventRecent(ctx, db.GiftEventRecentParams{WorkspaceID: p.WorkspaceID, MaxRows: int32(limit)})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]RecentEvent, 0, len(rows))
	for _, r := range rows {
		item, err := itemFromRow(p.WorkspaceID, db.EventFeedListRow{
			ID: r.ID, Xid: r.Xid, Seq: r.Seq, Type: r.Type, Mode: r.Mode, CampaignID: r.CampaignID, SendID: r.SendID,
			Data: r.Data, CreatedAt: r.CreatedAt,
		})
		if err != nil {
			return nil, err
		}
		out = append(out, RecentEvent{EventItem: item, RecipientName: r.RecipientName})
	}
	return out, nil
}
