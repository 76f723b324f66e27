package campaign

import (
	"time"

	"github.com/giftwell/giftwell/core/gift"
)

// PhotoSource is the discriminator of a RecipientPhoto.
type PhotoSource string

// The photo sources.
const (
	PhotoUpload   PhotoSource = "upload"
	PhotoLinkedIn PhotoSource = "linkedin"
)

// RecipientPhoto is a portrait for gifts with requiresPortrait, discriminated
// by Source: {source: upload, assetId} or {source: linkedin, profileUrl}.
type RecipientPhoto struct {
	Source     PhotoSource `json:"source" jsonschema:"upload (with assetId) or linkedin (with profileUrl)" schema:"enum=upload|linkedin"`
	AssetID    string      `json:"assetId,omitempty" jsonschema:"the uploaded photo (asset_...)" schema:"maxLength=100"`
	ProfileURL string      `json:"profileUrl,omitempty" jsonschema:"the person's LinkedIn profile" schema:"maxLength=500"`
}

// Recipient bounds (the spec gives customTag and assetIds; the others are
// Giftwell's, see docs/decisions/).
const (
	MaxRecipientText      = 200
	MaxSourceSystemLength = 100
	MaxProfileURLLength   = 500
	MaxContextLength      = 2000
	MaxCustomTagLength    = 200
	MaxAssetIDs           = 5
	MaxAssetIDLength      = 100
	MaxImportIDLength     = 100
	MaxDetailsKeys        = 20
	MaxDetailValue        = 2000
)

// RecipientInput is one person as create_campaign, update_campaign and
// add_recipients take them. Each person needs at least one identity: a
// name, a personal profileUrl, or SourceSystem plus externalId. Empty
// strings are absent.
type RecipientInput struct {
	RecipientID             string            `json:"recipientId,omitempty" jsonschema:"someone already on the roster" schema:"maxLength=100"`
	Name                    string            `json:"name,omitempty" jsonschema:"full name; {{firstName}} is its first word" schema:"maxLength=200"`
	Email                   string            `json:"email,omitempty" jsonschema:"never printed; matches the person on later adds" schema:"maxLength=254"`
	Company                 string            `json:"company,omitempty" jsonschema:"fills {{company}}" schema:"maxLength=200"`
	Title                   string            `json:"title,omitempty" jsonschema:"job title" schema:"maxLength=200"`
	SourceSystem            string            `json:"sourceSystem,omitempty" jsonschema:"where the person comes from (e.g. hubspot); with externalId a stable identity that makes resends safe and never changes" schema:"maxLength=100"`
	ExternalID              string            `json:"externalId,omitempty" jsonschema:"the ID in sourceSystem; the gift's attribution.externalId by default" schema:"maxLength=200"`
	ProfileURL              string            `json:"profileUrl,omitempty" jsonschema:"a personal LinkedIn profile, linkedin.com/in/<slug> (not Sales Navigator, company or /pub/)" schema:"maxLength=500"`
	Context                 string            `json:"context,omitempty" jsonschema:"research notes; never printed" schema:"maxLength=2000"`
	Message                 string            `json:"message,omitempty" jsonschema:"this person's own note instead of the campaign's; at most 500 characters after personalization" schema:"maxLength=1000"`
	CustomTag               string            `json:"customTag,omitempty" jsonschema:"fills {{custom}}" schema:"maxLength=200"`
	AssetIDs                []string          `json:"assetIds,omitempty" jsonschema:"up to 5 artwork asset IDs (asset_...)" schema:"type=array,items.maxLength=100"`
	Photo                   *RecipientPhoto   `json:"photo,omitempty" jsonschema:"a portrait, for requiresPortrait gifts, only with the user's authorization" schema:"type=object"`
	AdultRecipientConfirmed *bool             `json:"adultRecipientConfirmed,omitempty" jsonschema:"true only when the user confirmed the person is 21 or older (alcohol); never inferred" schema:"type=boolean"`
	Details                 map[string]string `json:"details,omitempty" jsonschema:"answers keyed by the gift's recipientDetails; empty clears one" schema:"maxProperties=20,items.maxLength=2000"`
	ImportID                string            `json:"importId,omitempty" jsonschema:"with importRowId" schema:"maxLength=100"`
	ImportRowID             string            `json:"importRowId,omitempty" jsonschema:"the row of importId" schema:"maxLength=100"`
	AddressMode             gift.AddressMode  `json:"addressMode,omitempty" jsonschema:"confirm (default: the recipient confirms it by gift link) or known (you give the US address, city, state and zip)" schema:"enum=confirm|known"`
	Address                 string            `json:"address,omitempty" jsonschema:"street, with addressMode known" schema:"maxLength=200"`
	City                    string            `json:"city,omitempty" jsonschema:"with addressMode known" schema:"maxLength=200"`
	State                   string            `json:"state,omitempty" jsonschema:"US state code or name" schema:"maxLength=100"`
	Zip                     string            `json:"zip,omitempty" jsonschema:"12345 or 12345-6789" schema:"maxLength=20"`
	Country                 string            `json:"country,omitempty" jsonschema:"US only" schema:"maxLength=20"`
}

// Recipient is one person of a campaign's roster, as reads return it. Empty
// fields are left out.
type Recipient struct {
	RecipientID             string            `json:"recipientId" jsonschema:"the person's roster ID; stable"`
	Name                    string            `json:"name,omitempty" jsonschema:"full name"`
	Email                   string            `json:"email,omitempty" jsonschema:"email, lowercased"`
	Company                 string            `json:"company,omitempty" jsonschema:"company"`
	Title                   string            `json:"title,omitempty" jsonschema:"job title"`
	SourceSystem            string            `json:"sourceSystem,omitempty" jsonschema:"source system"`
	ExternalID              string            `json:"externalId,omitempty" jsonschema:"ID in the source system"`
	ProfileURL              string            `json:"profileUrl,omitempty" jsonschema:"normalised LinkedIn profile"`
	Context                 string            `json:"context,omitempty" jsonschema:"research notes; never printed"`
	Message                 string            `json:"message,omitempty" jsonschema:"the person's own note template, overriding the campaign's"`
	CustomTag               string            `json:"customTag,omitempty" jsonschema:"fills {{custom}}"`
	AssetIDs                []string          `json:"assetIds,omitempty" jsonschema:"artwork asset IDs"`
	Photo                   *RecipientPhoto   `json:"photo,omitempty" jsonschema:"portrait source"`
	AdultRecipientConfirmed bool              `json:"adultRecipientConfirmed" jsonschema:"the user confirmed the person is 21 or older"`
	Details                 map[string]string `json:"details,omitempty" jsonschema:"answers to the gift's recipientDetails"`
	ImportID                string            `json:"importId,omitempty" jsonschema:"source import"`
	ImportRowID             string            `json:"importRowId,omitempty" jsonschema:"row of the source import"`
	AddressMode             gift.AddressMode  `json:"addressMode" jsonschema:"confirm or known" schema:"enum=confirm|known"`
	Address                 string            `json:"address,omitempty" jsonschema:"street address (addressMode known)"`
	City                    string            `json:"city,omitempty" jsonschema:"city"`
	State                   string            `json:"state,omitempty" jsonschema:"two-letter state code"`
	Zip                     string            `json:"zip,omitempty" jsonschema:"ZIP code"`
	Country                 string            `json:"country" jsonschema:"always US"`
	// ResolvedMessage is the note as it will be printed: the person's
	// message or the campaign's, placeholders filled. Absent while it
	// cannot be resolved (NoteProblem says why).
	ResolvedMessage string `json:"resolvedMessage,omitempty" jsonschema:"the note as it will be printed; absent while it cannot be resolved (see noteProblem)"`
	NoteProblem     string `json:"noteProblem,omitempty" jsonschema:"why the note cannot be resolved yet; approval waits until it can"`
	// SendID is the person's gift, once one exists; a person with a gift
	// cannot be removed or changed.
	SendID         string `json:"sendId,omitempty" jsonschema:"the person's gift (send_...), once created"`
	RepeatApproved bool   `json:"repeatApproved,omitempty" jsonschema:"a signed-in owner or admin approved gifting this person again"`
	// Approval is a playbook person's place in the queue; absent on other
	// campaigns.
	Approval  *PlaybookApproval `json:"approval,omitempty" jsonschema:"playbooks only: waiting (with reason), scheduled (not paid yet), approved or auto_approved (with sendId), or skipped"`
	CreatedAt time.Time         `json:"createdAt" jsonschema:"when the person was added"`
}
