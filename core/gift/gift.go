package gift

import (
	"context"
	"encoding/json"
	"maps"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/sql/db"
)

// GiftRecipient is the person a gift is for, as they were when the gift was
// created: later roster edits never change a gift. The address is the one
// the sender supplied (addressMode known), or empty when the recipient
// confirms their own.
type GiftRecipient struct {
	Name         string      `json:"name,omitempty" jsonschema:"the person's name"`
	Email        string      `json:"email,omitempty" jsonschema:"their email"`
	Company      string      `json:"company,omitempty" jsonschema:"their company"`
	Title        string      `json:"title,omitempty" jsonschema:"their title"`
	SourceSystem string      `json:"sourceSystem,omitempty" jsonschema:"the system the person came from"`
	ExternalID   string      `json:"externalId,omitempty" jsonschema:"their ID in sourceSystem"`
	ProfileURL   string      `json:"profileUrl,omitempty" jsonschema:"their LinkedIn profile"`
	AddressMode  AddressMode `json:"addressMode" jsonschema:"known: the sender supplied the address; confirm: the recipient confirms it through the gift link" schema:"enum=confirm|known"`
	Address      string      `json:"address,omitempty" jsonschema:"the sender-supplied street address"`
	City         string      `json:"city,omitempty" jsonschema:"city"`
	State        string      `json:"state,omitempty" jsonschema:"two-letter state code"`
	Zip          string      `json:"zip,omitempty" jsonschema:"ZIP code"`
	Country      string      `json:"country,omitempty" jsonschema:"always US"`
}

// Gift is a gift (a send): what approval created and charged. sendId,
// giftId and gift_id name the same ID.
type Gift struct {
	ID           string        `json:"id" jsonschema:"the gift ID (send_...); sendId, giftId and gift_id are the same ID"`
	CampaignID   string        `json:"campaignId" jsonschema:"the campaign"`
	RecipientID  string        `json:"recipientId" jsonschema:"the roster person"`
	Recipient    GiftRecipient `json:"recipient" jsonschema:"the person as they were when the gift was created"`
	ProductID    string        `json:"productId" jsonschema:"the catalog gift"`
	Status       SendStatus    `json:"status" jsonschema:"awaiting_address (the recipient confirms it through the gift link), ready (address known, waiting for production), in_production, shipped, delivered; or the ends declined, expired, cancelled" schema:"enum=awaiting_address|ready|in_production|shipped|delivered|declined|expired|cancelled"`
	OrderState   OrderState    `json:"orderState" jsonschema:"the production order: none until production starts, then placed, shipped, delivered" schema:"enum=none|placed|shipped|delivered"`
	Mode         core.Mode     `json:"mode" jsonschema:"test or live, as created; never changes" schema:"enum=test|live"`
	TotalCents   int64         `json:"totalCents" jsonschema:"what the gift cost in USD cents (priceCents + shippingCents), all-in"`
	FundedBy     FundedBy      `json:"fundedBy" jsonschema:"balance (a playbook gift paid from the prepaid balance) or checkout" schema:"enum=balance|checkout"`
	Attribution  Attribution   `json:"attribution" jsonschema:"the gift's attribution: its own values over the campaign's; the person's externalId by default"`
	AutoApproved bool          `json:"autoApproved" jsonschema:"true when auto-approve approved it"`
	ApprovedBy   string        `json:"approvedBy,omitempty" jsonschema:"the user ID of the person who approved it; empty for auto-approve"`
	Outcome      string        `json:"outcome" jsonschema:"none, replied, meeting_booked or meeting_held, as the customer reported" schema:"enum=none|replied|meeting_booked|meeting_held"`
	// PreparedBy, DecidedBy and DecidedAt are the gift's trail (Trail).
	PreparedBy *PreparedBy `json:"preparedBy,omitempty" jsonschema:"who prepared it: the key, the connected app and its person, or a person"`
	DecidedBy  *DecidedBy  `json:"decidedBy,omitempty" jsonschema:"who approved it: a person or the auto-approve rule"`
	DecidedAt  *time.Time  `json:"decidedAt,omitempty" jsonschema:"when it was approved"`
	// Portrait is the portrait of a gift whose product requiresPortrait.
	Portrait *artwork.Portrait `json:"portrait,omitempty" jsonschema:"the portrait's state; absent when the gift needs no portrait"`
	// GiftLinkGeneration advances on regift; 0 while the gift has no link.
	GiftLinkGeneration int `json:"giftLinkGeneration" jsonschema:"the gift link's generation; 0 while the gift has no link"`
	// AddressConfirmedAt is when the recipient confirmed an address through
	// the gift link; the address itself is never shown to keys or
	// connections.
	AddressConfirmedAt *time.Time `json:"addressConfirmedAt,omitempty" jsonschema:"when the recipient confirmed an address through the gift link; the address itself is never shown"`
	Carrier            string     `json:"carrier,omitempty" jsonschema:"the shipping carrier, once shipped"`
	TrackingNumber     string     `json:"trackingNumber,omitempty" jsonschema:"the carrier's tracking number, once shipped"`
	TrackingURL        string     `json:"trackingUrl,omitempty" jsonschema:"where the shipment can be followed, once shipped"`
	// FinalPriceCents is a shipping-quote gift's final price once staff
	// confirmed it; PriceReview says whether it stands.
	FinalPriceCents *int64      `json:"finalPriceCents,omitempty" jsonschema:"a shipping-quote gift's final price in USD cents, once the service confirmed it"`
	PriceReview     PriceReview `json:"priceReview,omitempty" jsonschema:"confirmed (the final price stands) or balance_mismatch (a balance-paid gift's amount changed; it waits for staff and the balance is never charged more)" schema:"enum=confirmed|balance_mismatch"`
	// ShippingStates are the US states its recipient may confirm an
	// address in (a prepaid offer's); empty allows every state.
	ShippingStates []string  `json:"shippingStates,omitempty" jsonschema:"the two-letter US states the recipient may confirm an address in; absent allows all"`
	CreatedAt      time.Time `json:"createdAt" jsonschema:"when the gift was created"`
	UpdatedAt      time.Time `json:"updatedAt" jsonschema:"when the gift last changed"`
}

// New describes a gift to create: everything about it is settled by the
// caller (the approval, checkout or quote that creates it), which has
// locked the campaign.
type New struct {
	// ID is the gift's ID when the caller chose it (core.NewID with
	// core.PrefixSend: a group names its gifts before they are stored);
	// empty draws one.
	ID          string
	WorkspaceID string
	CampaignID  string
	RecipientID string
	ProductID   string
	// Recipient is the person as they are now; the gift keeps this copy.
	Recipient GiftRecipient
	// UnitCents is what the gift costs (the product's price + shipping).
	UnitCents int64
	// Mode is test or live; empty means test.
	Mode     core.Mode
	FundedBy FundedBy
	// Status is the gift's first status; empty means the one its address
	// mode gives (ready with a known address, awaiting_address otherwise).
	Status SendStatus
	// ApprovedBy is the approving user, "" for auto-approve.
	ApprovedBy   string
	AutoApproved bool
	// PerGiftMaxCents is the auto-approve limit an auto-approved gift was
	// approved under, for its send.auto_approved event; nil leaves it out.
	PerGiftMaxCents *int64
	// Attribution is the gift's whole attribution, already resolved.
	Attribution Attribution
	// Outcome is none unless given.
	Outcome string
	// ShippingStates limit where the recipient may confirm an address (a
	// prepaid offer's two-letter states); nil allows every state.
	ShippingStates []string
	// Note is the gift's note with its placeholders filled.
	Note string
	// Customization is the campaign's customization the gift is made with.
	Customization map[string]string
	// PortraitAssetID is the person's uploaded photo, for a product that
	// requiresPortrait; "" starts the portrait awaiting a photo.
	PortraitAssetID string
	// Trail is who prepared and who decided the gift; decided now.
	Trail Trail
	// RecordOnly records a gift that was paid elsewhere (InsertSend's
	// history): no debit, no link and no events.
	RecordOnly bool
}

// Create creates gift n inside the caller's transaction: a balance-funded
// gift is debited first (402 INSUFFICIENT_BALANCE when the balance cannot
// cover it), then the send row (one gift per person, whatever races: the
// unique index sends_recipient_once), its portrait, its first gift link
// when the recipient confirms the address, and the send.created event, plus
// send.auto_approved for auto-approve. Either all of it lands or none. A
// test gift created ready starts the fulfilment simulator
// (scheduleSimulation).
func (a *Service) Create(ctx context.Context, tx pgx.Tx, n New) (Gift, error) {
	g := a.giftOf(n)
	if g.FundedBy == FundedByBalance && !n.RecordOnly {
		if _, err := a.Ledger.Debit(ctx, db.New(tx), n.WorkspaceID, g.Mode, g.TotalCents, g.ID, n.CampaignID); err != nil {
			return Gift{}, err
		}
	}
	return a.store(ctx, tx, n, g, nil)
}

// giftOf is the gift n describes, with its ID, first status and creation
// time, before anything is stored.
func (a *Service) giftOf(n New) Gift {
	id := n.ID
	if id == "" {
		id = core.NewID(core.PrefixSend)
	}
	g := Gift{
		ID: id, CampaignID: n.CampaignID, RecipientID: n.RecipientID, ProductID: n.ProductID,
		Status: n.Status, Mode: n.Mode, TotalCents: n.UnitCents, FundedBy: n.FundedBy, Attribution: n.Attribution,
		AutoApproved: n.AutoApproved, ApprovedBy: n.ApprovedBy, Outcome: n.Outcome, CreatedAt: a.Clock.Now(),
		Recipient: n.Recipient,
	}
	if g.Status == "" {
		g.Status = initialStatus(n.Recipient.AddressMode)
	}
	g.OrderState = OrderStateOf(g.Status)
	g.UpdatedAt = g.CreatedAt
	if g.Mode == "" {
		g.Mode = core.ModeTest
	}
	if g.Outcome == "" {
		g.Outcome = "none"
	}
	return g
}

// store writes gift g of n, already paid for, inside tx: the send row, its
// portrait, its first gift link and its events (Create's rest). With
// events the events are added to it for the caller to record, in order,
// with other gifts' (CreateMany).
func (a *Service) store(ctx context.Context, tx pgx.Tx, n New, g Gift, events *[]core.EventRecord) (Gift, error) {
	q := db.New(tx)
	attr, err := json.Marshal(g.Attribution)
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	snap, err := json.Marshal(g.Recipient)
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	cust := n.Customization
	if cust == nil {
		cust = map[string]string{}
	}
	custJSON, err := json.Marshal(cust)
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	prepared, decided, err := n.Trail.trailJSON()
	if err != nil {
		return Gift{}, core.Internal(err)
	}
	g.PreparedBy, g.DecidedBy = n.Trail.PreparedBy, n.Trail.DecidedBy
	var decidedAt *time.Time
	if g.DecidedBy != nil {
		at := g.CreatedAt.UTC()
		decidedAt, g.DecidedAt = &at, &at
	}
	who := g.Recipient
	// A gift that waits for its recipient's address is inserted with its
	// link's first generation; the link follows (newGiftLink).
	linked := g.Status == SendAwaitingAddress && !n.RecordOnly
	if linked {
		g.GiftLinkGeneration = 1
	}
	if err := q.SendInsert(ctx, db.SendInsertParams{
		ID: g.ID, WorkspaceID: n.WorkspaceID, CampaignID: n.CampaignID, RecipientID: n.RecipientID, ProductID: n.ProductID,
		Status: string(g.Status), Mode: string(g.Mode), TotalCents: g.TotalCents, FundedBy: string(g.FundedBy),
		Attribution: attr, Outcome: g.Outcome, RecipientEmail: who.Email, RecipientSourceSystem: who.SourceSystem,
		RecipientExternalID: who.ExternalID, RecipientProfileUrl: who.ProfileURL, RecipientName: who.Name,
		AutoApproved: g.AutoApproved, ApprovedBy: g.ApprovedBy, Recipient: snap, Message: n.Note,
		Customization: custJSON, PreparedBy: prepared, DecidedBy: decided, DecidedAt: decidedAt,
		GiftLinkGeneration: int32(g.GiftLinkGeneration), CreatedAt: g.CreatedAt,
	}); err != nil {
		if name, ok := core.ViolatedUnique(err); ok && name == "sends_recipient_once" {
			return Gift{}, core.FieldError(core.CodeInvalidRequestState, "recipientId", "%s already has a gift", n.RecipientID)
		}
		return Gift{}, core.Internal(err)
	}
	if len(n.ShippingStates) > 0 {
		if err := q.SendSetShippingStates(ctx, db.SendSetShippingStatesParams{ShippingStates: n.ShippingStates, ID: g.ID}); err != nil {
			return Gift{}, core.Internal(err)
		}
		g.ShippingStates = n.ShippingStates
	}
	if err := a.startPortrait(ctx, q, n.WorkspaceID, &g, n.PortraitAssetID); err != nil {
		return Gift{}, err
	}
	if n.RecordOnly {
		return g, nil
	}
	if linked {
		if err := a.newGiftLink(ctx, q, n.WorkspaceID, n.CampaignID, g.ID, g.CreatedAt); err != nil {
			return Gift{}, err
		}
	}
	data := map[string]any{
		"campaignId": n.CampaignID, "sendId": g.ID, "recipientId": n.RecipientID, "productId": g.ProductID, "status": g.Status,
		"totalCents": g.TotalCents, "fundedBy": g.FundedBy, "attribution": g.Attribution, "autoApproved": g.AutoApproved,
	}
	// Events never carry an email (the feed and webhooks leave the
	// workspace): the trail's kinds and names only.
	if pb := g.PreparedBy; pb != nil {
		data["preparedBy"] = PreparedBy{Kind: pb.Kind, Name: pb.Name}
	}
	if dc := g.DecidedBy; dc != nil {
		data["decidedBy"], data["decidedAt"] = DecidedBy{Kind: dc.Kind, Name: dc.Name, RuleVersion: dc.RuleVersion}, g.DecidedAt
	}
	ev := core.EventRecord{WorkspaceID: n.WorkspaceID, Type: core.EventSendCreated, Mode: g.Mode, CampaignID: n.CampaignID, SendID: g.ID, RecipientID: n.RecipientID, Data: data}
	evs := []core.EventRecord{ev}
	if g.AutoApproved {
		ev.Type = core.EventSendAutoApproved
		if n.PerGiftMaxCents != nil {
			ev.Data = maps.Clone(data)
			ev.Data["perGiftMaxCents"] = *n.PerGiftMaxCents
		}
		evs = append(evs, ev)
	}
	if events != nil {
		*events = append(*events, evs...)
	} else if err := a.RecordEvents(ctx, tx, evs); err != nil {
		return Gift{}, err
	}
	if err := a.scheduleSimulation(ctx, tx, g.ID, g.Mode, g.Status); err != nil {
		return Gift{}, err
	}
	return g, nil
}

// AttributionOf is a gift's attribution: the campaign's values, the
// person's externalId over the campaign's, and the gift's own values (own)
// over both.
func AttributionOf(campaign Attribution, externalID string, own *Attribution) Attribution {
	attr := campaign
	attr.Metadata = maps.Clone(attr.Metadata)
	if externalID != "" {
		attr.ExternalID = externalID
	}
	if own == nil {
		return attr
	}
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&attr.ExternalID, own.ExternalID}, {&attr.Source, own.Source}, {&attr.ContactID, own.ContactID},
		{&attr.AccountID, own.AccountID}, {&attr.OpportunityID, own.OpportunityID},
	} {
		if f.v != "" {
			*f.dst = f.v
		}
	}
	if len(own.Metadata) > 0 && attr.Metadata == nil {
		attr.Metadata = map[string]string{}
	}
	maps.Copy(attr.Metadata, own.Metadata)
	return attr
}

// FromRow maps a stored send.
func FromRow(r db.Send) (Gift, error) {
	g := Gift{
		ID: r.ID, CampaignID: r.CampaignID, RecipientID: r.RecipientID, ProductID: r.ProductID,
		Status: SendStatus(r.Status), Mode: core.Mode(r.Mode), TotalCents: r.TotalCents, FundedBy: FundedBy(r.FundedBy),
		AutoApproved: r.AutoApproved, ApprovedBy: r.ApprovedBy, Outcome: r.Outcome, CreatedAt: r.CreatedAt,
		UpdatedAt: r.UpdatedAt, OrderState: OrderStateOf(SendStatus(r.Status)), Carrier: r.Carrier,
		TrackingNumber: r.TrackingNumber, TrackingURL: r.TrackingUrl, GiftLinkGeneration: int(r.GiftLinkGeneration),
		AddressConfirmedAt: r.AddressConfirmedAt, FinalPriceCents: r.FinalPriceCents, ShippingStates: r.ShippingStates,
		Portrait: artwork.PortraitOf(r.PortraitState, r.PortraitVersion, r.PortraitAssetID, r.PortraitSourceUrl, r.PortraitApprovedAt),
	}
	if r.PriceReview != nil {
		g.PriceReview = PriceReview(*r.PriceReview)
	}
	if err := json.Unmarshal(r.Attribution, &g.Attribution); err != nil {
		return Gift{}, core.Internal(err)
	}
	if err := json.Unmarshal(r.Recipient, &g.Recipient); err != nil {
		return Gift{}, core.Internal(err)
	}
	if g.Recipient.AddressMode == "" {
		g.Recipient.AddressMode = AddressConfirm
	}
	if err := readTrail(&g, r.PreparedBy, r.DecidedBy, r.DecidedAt); err != nil {
		return Gift{}, core.Internal(err)
	}
	return g, nil
}
