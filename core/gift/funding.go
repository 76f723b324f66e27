package gift

// FundedBy says how a gift was paid.
type FundedBy string

// The ways a gift is paid.
const (
	FundedByBalance  FundedBy = "balance"
	FundedByCheckout FundedBy = "checkout"
)

// MaxPriceCents is the most one gift may cost, in USD cents: a campaign's
// perPersonCents and a confirmed final price are bounded by it.
const MaxPriceCents = 10_000_000

// AddressMode says who supplies a person's shipping address.
type AddressMode string

// The address modes.
const (
	// AddressConfirm (the default): the recipient confirms their address
	// through the gift link.
	AddressConfirm AddressMode = "confirm"
	// AddressKnown: the sender supplies the US address now.
	AddressKnown AddressMode = "known"
)

// Attribution ties gifts to the customer's records. Gift values override
// campaign values; a recipient's externalId becomes the gift's externalId by
// default. Personal data and secrets must not be put in it.
type Attribution struct {
	ExternalID    string            `json:"externalId,omitempty" jsonschema:"your ID for the campaign or gift" schema:"maxLength=200"`
	Source        string            `json:"source,omitempty" jsonschema:"e.g. a CRM or workflow" schema:"maxLength=200"`
	ContactID     string            `json:"contactId,omitempty" schema:"maxLength=200"`
	AccountID     string            `json:"accountId,omitempty" schema:"maxLength=200"`
	OpportunityID string            `json:"opportunityId,omitempty" schema:"maxLength=200"`
	Metadata      map[string]string `json:"metadata,omitempty" jsonschema:"up to 10 more values; no personal data or secrets" schema:"maxProperties=10,items.maxLength=200"`
}
