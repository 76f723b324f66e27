package tracking

import (
	"context"
	"encoding/json"
	"time"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of get_tracking's pages.
const (
	// DefaultTrackingLimit is the page size when limit is absent.
	DefaultTrackingLimit = 50
	// MaxTrackingLimit is the largest page.
	MaxTrackingLimit = core.MaxPageLimit
)

// Item is one gift as tracking shows it: the spec's tracking item. It
// holds no address, email or note of any kind.
type Item struct {
	SendID         string           `json:"sendId" jsonschema:"the gift (send_...)"`
	CampaignID     string           `json:"campaignId" jsonschema:"the gift's campaign"`
	Attribution    gift.Attribution `json:"attribution" jsonschema:"the gift's attribution (externalId and the rest)"`
	Status         gift.SendStatus  `json:"status" jsonschema:"awaiting_address, ready, in_production, shipped, delivered; or the ends declined, expired, cancelled" schema:"enum=awaiting_address|ready|in_production|shipped|delivered|declined|expired|cancelled"`
	Outcome        Outcome          `json:"outcome" jsonschema:"the customer-reported outcome that occurred last" schema:"enum=none|replied|meeting_booked|meeting_held"`
	OrderState     gift.OrderState  `json:"orderState" jsonschema:"the production order: none until production starts, then placed, shipped, delivered" schema:"enum=none|placed|shipped|delivered"`
	Mode           core.Mode        `json:"mode" jsonschema:"test or live, as created" schema:"enum=test|live"`
	CreatedAt      time.Time        `json:"createdAt" jsonschema:"when the gift was created"`
	TotalCents     int64            `json:"totalCents" jsonschema:"what the gift cost in USD cents, all-in"`
	Carrier        string           `json:"carrier,omitempty" jsonschema:"the shipping carrier; absent until shipped"`
	TrackingNumber string           `json:"trackingNumber,omitempty" jsonschema:"the carrier's tracking number; absent until shipped"`
	TrackingURL    string           `json:"trackingUrl,omitempty" jsonschema:"where the shipment can be followed; absent until shipped, and for a carrier without one"`
}

// ItemFilter narrows get_tracking; empty fields do not narrow.
type ItemFilter struct {
	// CampaignID keeps one campaign's gifts.
	CampaignID string
	// ExternalID keeps gifts whose attribution.externalId it is.
	ExternalID string
	// Status keeps gifts in this status.
	Status string
	// SendID keeps one gift.
	SendID string
}

// ItemsInput is one page of get_tracking.
type ItemsInput struct {
	ItemFilter
	// Limit is the page size, 1-MaxTrackingLimit; 0 means DefaultTrackingLimit.
	Limit int
	// Cursor is the nextCursor of the previous page, or empty.
	Cursor string
}

// ItemPage is one page of tracking items, newest first.
type ItemPage struct {
	Items []Item `json:"items" jsonschema:"gifts, newest first"`
	// NextCursor continues the list; nil on the last page.
	NextCursor *string `json:"nextCursor" jsonschema:"pass as cursor, with the same filters, for the next page; null on the last page"`
}

// Items returns a page of p's workspace's gifts as tracking items, newest
// first, narrowed by in's filters. It returns VALIDATION_ERROR naming
// limit, status, cursor (not one issued to this workspace for these
// filters) or a filter longer than MaxFilterLength; NOT_FOUND naming
// campaignId or sendId outside the workspace; the codes of Authorize
// (ActRead); or INTERNAL_ERROR.
func (a *Service) Items(ctx context.Context, p core.Principal, in ItemsInput) (ItemPage, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return ItemPage{}, err
	}
	limit, err := in.validate()
	if err != nil {
		return ItemPage{}, err
	}
	params := db.SendListParams{
		WorkspaceID: p.WorkspaceID, CampaignID: in.CampaignID, SendID: in.SendID, Status: in.Status,
		ExternalID: in.ExternalID, RowLimit: int32(limit + 1),
	}
	if in.Cursor != "" {
		c, err := decodeItemCursor(p.WorkspaceID, in.ItemFilter, in.Cursor)
		if err != nil {
			return ItemPage{}, err
		}
		params.AfterID, params.AfterCreated = c.ID, c.CreatedAt
	}
	q := db.New(a.DB)
	if err := filterIDsExist(ctx, q, p.WorkspaceID, EventFilter{CampaignID: in.CampaignID, SendID: in.SendID}); err != nil {
		return ItemPage{}, err
	}
	rows, err := q.SendList(ctx, params)
	if err != nil {
		return ItemPage{}, core.Internal(err)
	}
	page := ItemPage{Items: make([]Item, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			last := rows[limit-1]
			next := itemCursor{CreatedAt: last.CreatedAt, ID: last.ID}.encode(p.WorkspaceID, in.ItemFilter)
			page.NextCursor = &next
			break
		}
		item, err := trackingItem(r)
		if err != nil {
			return ItemPage{}, err
		}
		page.Items = append(page.Items, item)
	}
	return page, nil
}

// Item returns one gift of p's workspace as a tracking item. It returns
// NOT_FOUND naming id for a gift outside the workspace, or the codes of
// Items.
func (a *Service) Item(ctx context.Context, p core.Principal, sendID string) (Item, error) {
	if sendID == "" || utf8.RuneCountInString(sendID) > MaxFilterLength {
		if err := core.Authorize(p, core.ActRead, ""); err != nil {
			return Item{}, err
		}
		return Item{}, notFoundGift(sendID)
	}
	page, err := a.Items(ctx, p, ItemsInput{ItemFilter: ItemFilter{SendID: sendID}, Limit: 1})
	if ce, ok := err.(*core.Error); ok && ce.Code == core.CodeNotFound {
		return Item{}, notFoundGift(sendID)
	}
	if err != nil {
		return Item{}, err
	}
	if len(page.Items) == 0 {
		return Item{}, notFoundGift(sendID)
	}
	return page.Items[0], nil
}

// CampaignItems is Items of campaign campaignID (in.CampaignID is
// ignored): NOT_FOUND names id for a campaign outside the workspace.
func (a *Service) CampaignItems(ctx context.Context, p core.Principal, campaignID string, in ItemsInput) (ItemPage, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return ItemPage{}, err
	}
	if _, err := db.New(a.DB).CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: campaignID}); core.IsNoRows(err) {
		return ItemPage{}, core.FieldError(core.CodeNotFound, "id", "no campaign %s in this workspace", core.Clip(campaignID, 60))
	} else if err != nil {
		return ItemPage{}, core.Internal(err)
	}
	in.CampaignID = campaignID
	return a.Items(ctx, p, in)
}

// validate checks the page's input and returns its size.
func (in ItemsInput) validate() (int, error) {
	limit := in.Limit
	switch {
	case limit == 0:
		limit = DefaultTrackingLimit
	case limit < 1 || limit > MaxTrackingLimit:
		return 0, core.Invalid("limit", "must be between 1 and %d", MaxTrackingLimit)
	}
	if in.Status != "" && !gift.SendStatus(in.Status).Valid() {
		return 0, core.Invalid("status", "must be one of awaiting_address, ready, in_production, shipped, delivered, declined, expired, cancelled")
	}
	for _, f := range []struct{ field, value string }{
		{"campaignId", in.CampaignID}, {"externalId", in.ExternalID}, {"sendId", in.SendID},
	} {
		if utf8.RuneCountInString(f.value) > MaxFilterLength {
			return 0, core.Invalid(f.field, "must be at most %d characters", MaxFilterLength)
		}
	}
	return limit, nil
}

// trackingItem maps a stored gift.
func trackingItem(r db.Send) (Item, error) {
	it := Item{
		SendID: r.ID, CampaignID: r.CampaignID, Status: gift.SendStatus(r.Status), Outcome: Outcome(r.Outcome),
		OrderState: gift.OrderStateOf(gift.SendStatus(r.Status)), Mode: core.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(),
		TotalCents: r.TotalCents, Carrier: r.Carrier, TrackingNumber: r.TrackingNumber, TrackingURL: r.TrackingUrl,
	}
	if err := json.Unmarshal(r.Attribution, &it.Attribution); err != nil {
		return Item{}, core.Internal(err)
	}
	return it, nil
}

// itemCursor is a get_tracking cursor: the page's last gift.
type itemCursor struct {
	CreatedAt time.Time `json:"t"`
	ID        string    `json:"i"`
}

// itemCursorBind binds a cursor to the workspace and filters it was issued
// for.
func itemCursorBind(workspaceID string, f ItemFilter) string {
	filters, _ := json.Marshal([]string{workspaceID, f.CampaignID, f.ExternalID, f.Status, f.SendID}) // cannot fail: strings
	return "giftwell tracking cursor\x00" + string(filters)
}

func (c itemCursor) encode(workspaceID string, f ItemFilter) string {
	return core.SealCursor(c, itemCursorBind(workspaceID, f), cursorCheckLen)
}

func decodeItemCursor(workspaceID string, f ItemFilter, s string) (itemCursor, error) {
	var c itemCursor
	if !core.OpenCursor(s, itemCursorBind(workspaceID, f), cursorCheckLen, &c) || c.ID == "" {
		return itemCursor{}, core.Invalid("cursor", "is not a nextCursor get_tracking gave for these filters; pass nextCursor unchanged with the same filters, or omit cursor to start again")
	}
	return c, nil
}
