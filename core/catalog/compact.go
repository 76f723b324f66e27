package catalog

// CompactProduct is the short form of a Product that browse_gifts (detail
// compact) and search_gifts return: what an agent needs to choose a gift and
// to apply the selection rules. get_gift returns the whole Product.
type CompactProduct struct {
	ID                       string          `json:"id" jsonschema:"the product ID; pass it as productId, never invent one"`
	Name                     string          `json:"name" jsonschema:"the gift's name"`
	Tagline                  string          `json:"tagline" jsonschema:"one line about the gift"`
	Category                 string          `json:"category" jsonschema:"catalog category"`
	Occasion                 string          `json:"occasion" jsonschema:"occasions the gift suits"`
	GiftType                 string          `json:"giftType" jsonschema:"kind of gift"`
	Image                    string          `json:"image" jsonschema:"image path under the site URL"`
	PriceCents               int64           `json:"priceCents" jsonschema:"gift price in USD cents; 0 is an unpriced placeholder"`
	ShippingCents            int64           `json:"shippingCents" jsonschema:"US delivery in USD cents"`
	PriceLabel               string          `json:"priceLabel" jsonschema:"price as display text"`
	ShippingLabel            string          `json:"shippingLabel" jsonschema:"delivery as display text"`
	LeadDays                 string          `json:"leadDays" jsonschema:"production-time estimate as text; not a delivery date"`
	FulfillmentKind          FulfillmentKind `json:"fulfillmentKind" jsonschema:"standard, food or alcohol" schema:"enum=standard|food|alcohol"`
	Verified                 bool            `json:"verified" jsonschema:"only verified gifts can be ordered in live mode"`
	Retired                  bool            `json:"retired" jsonschema:"archived; never choose it for a new campaign"`
	Available                *bool           `json:"available,omitempty" jsonschema:"false = cannot be ordered now; absent means available"`
	Featured                 bool            `json:"featured,omitempty" jsonschema:"a featured gift"`
	PriceQuoteRequired       bool            `json:"priceQuoteRequired,omitempty" jsonschema:"price not set; cannot be ordered"`
	ShippingQuoteRequired    bool            `json:"shippingQuoteRequired,omitempty" jsonschema:"delivery not priced yet; never present the price as a delivered total"`
	FixedPrice               bool            `json:"fixedPrice,omitempty" jsonschema:"the price covers the listed configuration"`
	EstimateIncludesDelivery bool            `json:"estimateIncludesDelivery,omitempty" jsonschema:"the estimate already includes US delivery"`
	RequiresArtwork          bool            `json:"requiresArtwork,omitempty" jsonschema:"each person needs artwork"`
	RequiresPortrait         bool            `json:"requiresPortrait,omitempty" jsonschema:"each person needs a portrait photo"`
	// HasLettering is true when the gift has personalizationText limits.
	HasLettering bool `json:"hasLettering,omitempty" jsonschema:"the gift takes lettering (customization.displayText); read its limits with get_gift"`
	// RequiredDetails are the keys of the recipient details approval waits for.
	RequiredDetails []string `json:"requiredDetails,omitempty" jsonschema:"recipient.details keys every person needs; read them with get_gift"`
}

// ProductDetails holds the fields of a Product that CompactProduct leaves
// out. A CatalogItem carries them for detail full.
type ProductDetails struct {
	Description         string               `json:"description,omitempty" jsonschema:"what the recipient gets"`
	CatalogStatus       string               `json:"catalogStatus,omitempty" jsonschema:"the supplier's catalog status (display text)"`
	Color               string               `json:"color,omitempty" jsonschema:"colour or finish"`
	ImageLabel          string               `json:"imageLabel,omitempty" jsonschema:"alternative text for the image"`
	Personalization     []string             `json:"personalization,omitempty" jsonschema:"personalization options, as texts"`
	PersonalizationText *PersonalizationText `json:"personalizationText,omitempty" jsonschema:"lettering limits; lettering goes in customization.displayText"`
	Message             string               `json:"message,omitempty" jsonschema:"a suggested note"`
	DeliveryNote        string               `json:"deliveryNote,omitempty" jsonschema:"delivery conditions"`
	DietaryNote         string               `json:"dietaryNote,omitempty" jsonschema:"ingredients and allergens (food gifts)"`
	QuoteDetails        *QuoteDetails        `json:"quoteDetails,omitempty" jsonschema:"how a quoted gift is configured and what the sender provides"`
	Example             *GiftExample         `json:"example,omitempty" jsonschema:"an example use of the gift"`
	RecipientDetails    []DetailField        `json:"recipientDetails,omitempty" jsonschema:"details each person needs, answered in recipient.details.<key>"`
	PrepaidOffer        *PrepaidOffer        `json:"prepaidOffer,omitempty" jsonschema:"present when the service has qualified the gift for a prepaid offer on batch and single campaigns"`
}

// CatalogItem is one item of browse_gifts: the compact fields, plus the
// details when detail is full. A full item carries every non-empty field of
// the Product.
type CatalogItem struct {
	CompactProduct
	*ProductDetails
}

// Compact returns the short form of p.
func (p Product) Compact() CompactProduct {
	return CompactProduct{
		ID: p.ID, Name: p.Name, Tagline: p.Tagline, Category: p.Category, Occasion: p.Occasion,
		GiftType: p.GiftType, Image: p.Image, PriceCents: p.PriceCents, ShippingCents: p.ShippingCents,
		PriceLabel: p.PriceLabel, ShippingLabel: p.ShippingLabel, LeadDays: p.LeadDays,
		FulfillmentKind: p.FulfillmentKind, Verified: p.Verified, Retired: p.Retired,
		Available: p.Available, Featured: p.Featured, PriceQuoteRequired: p.PriceQuoteRequired,
		ShippingQuoteRequired: p.ShippingQuoteRequired, FixedPrice: p.FixedPrice,
		EstimateIncludesDelivery: p.EstimateIncludesDelivery, RequiresArtwork: p.RequiresArtwork,
		RequiresPortrait: p.RequiresPortrait, HasLettering: p.PersonalizationText != nil,
		RequiredDetails: p.RequiredDetails(),
	}
}

// Details returns the fields of p that the compact form leaves out.
func (p Product) Details() *ProductDetails {
	return &ProductDetails{
		Description: p.Description, CatalogStatus: p.CatalogStatus, Color: p.Color,
		ImageLabel: p.ImageLabel, Personalization: p.Personalization,
		PersonalizationText: p.PersonalizationText, Message: p.Message,
		DeliveryNote: p.DeliveryNote, DietaryNote: p.DietaryNote, QuoteDetails: p.QuoteDetails,
		Example: p.Example, RecipientDetails: p.RecipientDetails, PrepaidOffer: p.PrepaidOffer,
	}
}
