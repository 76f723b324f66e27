package guide

import (
	"github.com/giftwell/giftwell/core"
)

// RecipientRules is what each person needs in full, grouped by subject:
// the giftwell://guide/recipients resource. The guide's
// recipientRequirements says the same in short (RecipientRequirements).
type RecipientRules struct {
	// Identity lists the accepted identity forms: each person needs every
	// field of at least one form.
	Identity IdentityRequirement `json:"identity" jsonschema:"who the person is"`
	// Address describes addressMode and the fields of a known address.
	Address AddressRequirement `json:"address" jsonschema:"where the gift goes"`
	// Note describes the personal note and its placeholders.
	Note NoteRequirement `json:"note" jsonschema:"the note printed with the gift"`
	// Details describes gift-specific recipientDetails.
	Details string `json:"details" jsonschema:"gift-specific details (a gift's recipientDetails)"`
	// Personalization describes lettering.
	Personalization string `json:"personalization" jsonschema:"lettering (a gift's personalizationText)"`
	// Artwork describes artwork assets.
	Artwork string `json:"artwork" jsonschema:"artwork for gifts with requiresArtwork"`
	// Photo describes portrait photos.
	Photo PhotoRequirement `json:"photo" jsonschema:"portrait photos for gifts with requiresPortrait"`
	// Adult describes the adult confirmation alcohol gifts need.
	Adult string `json:"adult" jsonschema:"adult confirmation for alcohol gifts"`
	// Drafts says what may stay incomplete.
	Drafts string `json:"drafts" jsonschema:"what drafts may leave incomplete"`
}

// IdentityRequirement is the identity part of RecipientRules.
type IdentityRequirement struct {
	// AnyOf lists the identity forms; a person needs every field of one.
	AnyOf      [][]string `json:"anyOf" jsonschema:"identity forms; each person needs every field of at least one"`
	ProfileURL string     `json:"profileUrl" jsonschema:"the profileUrl rule"`
	Matching   string     `json:"matching" jsonschema:"how a person already added is recognised"`
}

// AddressRequirement is the address part of RecipientRules.
type AddressRequirement struct {
	// Modes maps each addressMode to what it means.
	Modes map[string]string `json:"modes" jsonschema:"each addressMode and what it means"`
	// KnownFields are required with addressMode known.
	KnownFields []string `json:"knownFields" jsonschema:"fields required with addressMode known"`
	Rules       string   `json:"rules" jsonschema:"formats of state, zip and country"`
	Live        string   `json:"live" jsonschema:"what live mode needs"`
}

// NoteRequirement is the note part of RecipientRules.
type NoteRequirement struct {
	MaxCharacters int      `json:"maxCharacters" jsonschema:"longest note after personalization"`
	Placeholders  []string `json:"placeholders" jsonschema:"placeholders a note may use"`
	Rules         string   `json:"rules" jsonschema:"how the note is resolved"`
}

// PhotoRequirement is the portrait part of RecipientRules.
type PhotoRequirement struct {
	Sources       []string `json:"sources" jsonschema:"recipient.photo sources"`
	MinPixels     int      `json:"minPixels" jsonschema:"smallest width and height"`
	MaxSidePixels int      `json:"maxSidePixels" jsonschema:"largest side"`
	MaxMegapixels int      `json:"maxMegapixels" jsonschema:"largest area in megapixels"`
	Rules         string   `json:"rules" jsonschema:"what counts as a portrait"`
}

// Rules returns what each person needs in full (RecipientRules).
func Rules() RecipientRules {
	return RecipientRules{
		Identity: IdentityRequirement{
			AnyOf:      [][]string{{"name"}, {"profileUrl"}, {"sourceSystem", "externalId"}},
			ProfileURL: "A personal LinkedIn profile https://www.linkedin.com/in/<slug> (bare, www or a two-letter country subdomain), saved as https://www.linkedin.com/in/<slug>. Sales Navigator, company and /pub/ URLs are refused.",
			Matching:   "A person already added is matched by sourceSystem+externalId first, then recipientId, email or profileUrl; a person added with none of these is matched by name and company (case and spaces ignored). Resending the same person is safe.",
		},
		Address: AddressRequirement{
			Modes: map[string]string{
				"confirm": "The default: the recipient confirms their own address through the gift link. Live playbooks cannot use it.",
				"known":   "The sender supplies the US address now.",
			},
			KnownFields: []string{"name", "address", "city", "state", "zip"},
			Rules:       "state is a two-letter code or a full name (stored as the code); zip is 5 or 9 digits; country is US only and defaults to US.",
			Live:        "In live mode each gift needs a sender-supplied US address (addressMode known), unless a batch or single campaign's preview returns a prepaidOffer.",
		},
		Note: NoteRequirement{
			MaxCharacters: core.GiftMessageCharacters,
			Placeholders:  []string{"{{firstName}}", "{{name}}", "{{company}}", "{{custom}}"},
			Rules:         "recipient.message overrides the campaign's shared message. {{firstName}} is the first word of name and {{custom}} is customTag (up to 200 characters); values are inserted literally, once, and nothing is taken from profileUrl, email or a source record. Every person needs a resolved note before approval, and a placeholder with no value blocks it; a playbook add without one returns RECIPIENT_MESSAGE_REQUIRED.",
		},
		Details:         "Answer each of the gift's recipientDetails in recipient.details.<key> (kind text or url, at most maxLength characters). Approval, checkout and auto-approve stop with RECIPIENT_DETAILS_REQUIRED until every required one is filled; never invent answers.",
		Personalization: "A gift with personalizationText takes lettering in the campaign's customization.displayText, within its maxLength, maxLines, lineMaxLength, firstLineRequired and allowedCharacters. Approval and checkout without required lettering return PERSONALIZATION_REQUIRED.",
		Artwork:         "A gift with requiresArtwork needs an uploaded artwork asset: recipient.assetIds (up to 5) or customization.logoAssetId for everyone.",
		Photo: PhotoRequirement{
			Sources:       []string{"upload", "linkedin"},
			MinPixels:     256,
			MaxSidePixels: 12000,
			MaxMegapixels: 40,
			Rules:         "A gift with requiresPortrait needs recipient.photo: {source: upload, assetId} or {source: linkedin, profileUrl}. PDFs and logos do not count as portraits; use a photo only with the user's authorization.",
		},
		Adult:  "A gift with fulfillmentKind alcohol needs adultRecipientConfirmed: true, confirmed by the user that the person is 21 or older; never inferred.",
		Drafts: "Drafts may stay incomplete; preview_campaign lists what is missing as blockers.",
	}
}
