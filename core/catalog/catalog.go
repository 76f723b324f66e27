package catalog

import (
	"github.com/giftwell/giftwell/core"
)

// Product is one gift of the public catalog, with the fields of the spec's
// "Catalog product (public)" table under the spec's JSON names. Money is
// integer USD cents; the price per gift is UnitCents. A flag described as
// absent (omitted from JSON) means false.
//
// Products are read-only once loaded: the Store shares one copy
// between all readers.
type Product struct {
	ID            string `json:"id" jsonschema:"the product ID; pass it as productId, never invent one"`
	Name          string `json:"name" jsonschema:"the gift's name"`
	Tagline       string `json:"tagline" jsonschema:"one line about the gift"`
	Description   string `json:"description" jsonschema:"what the recipient gets"`
	Category      string `json:"category" jsonschema:"catalog category"`
	Occasion      string `json:"occasion" jsonschema:"occasions the gift suits"`
	CatalogStatus string `json:"catalogStatus" jsonschema:"the supplier's catalog status (display text)"`
	GiftType      string `json:"giftType" jsonschema:"kind of gift"`
	Color         string `json:"color" jsonschema:"colour or finish"`
	Image         string `json:"image" jsonschema:"image path under the site URL"`
	ImageLabel    string `json:"imageLabel" jsonschema:"alternative text for the image"`
	PriceCents    int64  `json:"priceCents" jsonschema:"gift price in USD cents; 0 is an unpriced placeholder"`
	ShippingCents int64  `json:"shippingCents" jsonschema:"US delivery in USD cents; priceCents + shippingCents is the price per gift"`
	PriceLabel    string `json:"priceLabel" jsonschema:"price as display text"`
	ShippingLabel string `json:"shippingLabel" jsonschema:"delivery as display text"`
	LeadDays      string `json:"leadDays" jsonschema:"production-time estimate as text; not a delivery date"`
	// Personalization lists the personalization options as texts.
	Personalization []string `json:"personalization" jsonschema:"personalization options, as texts"`
	// PersonalizationText is present when the gift carries lettering, which
	// goes in the campaign's customization.displayText.
	PersonalizationText *PersonalizationText `json:"personalizationText,omitempty" jsonschema:"lettering limits; lettering goes in customization.displayText"`
	Message             string               `json:"message" jsonschema:"a suggested note"`
	Verified            bool                 `json:"verified" jsonschema:"true once supplier, price and delivery are confirmed; only verified gifts can be ordered in live mode"`
	Featured            bool                 `json:"featured,omitempty" jsonschema:"a featured gift"`
	RequiresArtwork     bool                 `json:"requiresArtwork,omitempty" jsonschema:"each person needs artwork (assetIds or customization.logoAssetId)"`
	RequiresPortrait    bool                 `json:"requiresPortrait,omitempty" jsonschema:"each person needs a portrait photo"`
	FulfillmentKind     FulfillmentKind      `json:"fulfillmentKind" jsonschema:"standard, food or alcohol" schema:"enum=standard|food|alcohol"`
	DeliveryNote        string               `json:"deliveryNote,omitempty" jsonschema:"delivery conditions"`
	DietaryNote         string               `json:"dietaryNote,omitempty" jsonschema:"ingredients and allergens (food gifts)"`
	Retired             bool                 `json:"retired" jsonschema:"archived; never choose it for a new campaign"`
	// Available is absent unless the gift cannot be ordered now; absent
	// means not false. It does not reflect Retired.
	Available                *bool         `json:"available,omitempty" jsonschema:"false = cannot be ordered now; absent means available; does not reflect retired"`
	PriceQuoteRequired       bool          `json:"priceQuoteRequired,omitempty" jsonschema:"price not set; cannot be ordered"`
	ShippingQuoteRequired    bool          `json:"shippingQuoteRequired,omitempty" jsonschema:"delivery not priced yet: budgets and previews exclude it, auto-approve never approves it, and the final price may be higher"`
	FixedPrice               bool          `json:"fixedPrice,omitempty" jsonschema:"the price covers the listed configuration; delivery included unless shippingQuoteRequired"`
	EstimateIncludesDelivery bool          `json:"estimateIncludesDelivery,omitempty" jsonschema:"the estimate already includes US delivery"`
	QuoteDetails             *QuoteDetails `json:"quoteDetails,omitempty" jsonschema:"how a quoted gift is configured and what the sender provides"`
	Example                  *GiftExample  `json:"example,omitempty" jsonschema:"an example use of the gift"`
	RecipientDetails         []DetailField `json:"recipientDetails,omitempty" jsonschema:"details each person needs, answered in recipient.details.<key>"`
	PrepaidOffer             *PrepaidOffer `json:"prepaidOffer,omitempty" jsonschema:"present when the service has qualified the gift for a prepaid offer on batch and single campaigns"`
}

// FulfillmentKind is how a gift is fulfilled.
type FulfillmentKind string

// The fulfillment kinds.
const (
	FulfillmentStandard FulfillmentKind = "standard"
	FulfillmentFood     FulfillmentKind = "food"
	FulfillmentAlcohol  FulfillmentKind = "alcohol"
)

// Valid reports whether k is one of the three kinds.
func (k FulfillmentKind) Valid() bool {
	return k == FulfillmentStandard || k == FulfillmentFood || k == FulfillmentAlcohol
}

// PersonalizationText is a gift's lettering limits. Lettering is
// customization.displayText; lines are separated by newlines. Check applies
// the limits.
type PersonalizationText struct {
	Label         string `json:"label" jsonschema:"what the lettering is, for example Engraving"`
	MaxLength     int    `json:"maxLength" jsonschema:"most characters in all, newlines not counted"`
	MaxLines      int    `json:"maxLines" jsonschema:"most lines"`
	LineMaxLength int    `json:"lineMaxLength" jsonschema:"most characters on one line"`
	// FirstLineRequired means the first line must not be blank.
	FirstLineRequired bool `json:"firstLineRequired,omitempty" jsonschema:"the first line must not be blank"`
	// AllowedCharacters, when set, lists literally every character lettering
	// may use (newlines always separate lines). Empty means any printable
	// character.
	AllowedCharacters string `json:"allowedCharacters,omitempty" jsonschema:"when present, every character the lettering may use, listed literally"`
	Help              string `json:"help" jsonschema:"advice to show the person writing the lettering"`
}

// QuoteDetails describes a quoted or configured gift. Inputs lists what the
// sender provides; there is no field for each (lettering goes in
// customization.displayText, a logo in customization.logoAssetId).
type QuoteDetails struct {
	Configuration string   `json:"configuration" jsonschema:"the configuration the price covers"`
	Decoration    string   `json:"decoration" jsonschema:"how the gift is decorated"`
	Inputs        []string `json:"inputs" jsonschema:"what the sender provides; never invent inputs"`
	Proof         string   `json:"proof" jsonschema:"how the proof is approved"`
}

// GiftExample is an example use of a gift.
type GiftExample struct {
	Occasion string `json:"occasion" jsonschema:"an occasion the gift was sent for"`
	Artwork  string `json:"artwork" jsonschema:"the artwork or lettering used"`
}

// DetailKind is the kind of a recipient detail's answer.
type DetailKind string

// The recipient detail kinds.
const (
	DetailText DetailKind = "text"
	DetailURL  DetailKind = "url"
)

// DetailField is one of a gift's recipientDetails: a question each person's
// gift needs answered, in recipient.details.<Key>. Until every required
// detail is filled, approval, checkout and auto-approve stop with
// RECIPIENT_DETAILS_REQUIRED.
type DetailField struct {
	Key       string     `json:"key" jsonschema:"the key under recipient.details"`
	Label     string     `json:"label" jsonschema:"the question"`
	Help      string     `json:"help" jsonschema:"advice for answering"`
	Kind      DetailKind `json:"kind" jsonschema:"text or url" schema:"enum=text|url"`
	MaxLength int        `json:"maxLength" jsonschema:"most characters in the answer"`
	Required  bool       `json:"required" jsonschema:"approval waits until it is answered"`
}

// PrepaidOffer is the service's qualification of a gift for a prepaid offer:
// a fixed, tax-inclusive price per recipient, paid at checkout before links
// work, that lets live recipients confirm their own address within
// ShippingStates. The campaign preview (a later issue) reads it and shows a
// prepaidOffer for batch and single campaigns only, never for playbooks.
type PrepaidOffer struct {
	UnitCents      int64    `json:"unitCents" jsonschema:"fixed tax-inclusive price per recipient in USD cents"`
	ShippingStates []string `json:"shippingStates" jsonschema:"two-letter US state codes recipients may confirm addresses in"`
}

// UnitCents is the price per gift: priceCents + shippingCents. For a gift
// with shippingQuoteRequired it excludes delivery.
func (p Product) UnitCents() int64 { return p.PriceCents + p.ShippingCents }

// IsAvailable reports whether available is not false.
func (p Product) IsAvailable() bool { return p.Available == nil || *p.Available }

// RequiredDetails lists the keys of the recipient details approval waits for.
func (p Product) RequiredDetails() []string {
	var keys []string
	for _, d := range p.RecipientDetails {
		if d.Required {
			keys = append(keys, d.Key)
		}
	}
	return keys
}

// Selectable applies the spec's selection rules 1-3 (§12) to one gift: it
// returns nil when a new campaign may choose it, else GIFT_RETIRED (rule 1),
// GIFT_UNAVAILABLE or PRICE_QUOTE_REQUIRED (rule 2), or PRICE_QUOTE_REQUIRED
// for an unpriced placeholder (rule 3). Each error names productId.
func (p Product) Selectable() error {
	switch {
	case p.Retired:
		return &core.Error{Code: core.CodeGiftRetired, Message: "productId: " + p.ID + " is retired; choose a current gift with search_gifts", Fields: []string{"productId"}}
	case !p.IsAvailable():
		return &core.Error{Code: core.CodeGiftUnavailable, Message: "productId: " + p.ID + " cannot be ordered now; choose another gift", Fields: []string{"productId"}}
	case p.PriceQuoteRequired:
		return &core.Error{Code: core.CodePriceQuoteRequired, Message: "productId: " + p.ID + " has no price yet; choose a priced gift", Fields: []string{"productId"}}
	case p.PriceCents == 0:
		return &core.Error{Code: core.CodePriceQuoteRequired, Message: "productId: " + p.ID + " is an unpriced placeholder; choose a priced gift", Fields: []string{"productId"}}
	}
	return nil
}
