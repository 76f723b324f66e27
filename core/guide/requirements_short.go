package guide

import (
	"fmt"

	"github.com/giftwell/giftwell/core"
)

// RecipientRequirements is the guide's recipientRequirements: what each
// person needs, grouped by subject, each a short rule. The spec leaves its
// shape open (docs/decisions/0026); the rules in full are the
// giftwell://guide/recipients resource (Rules).
type RecipientRequirements struct {
	Identity        [][]string `json:"identity" jsonschema:"identity forms; each person needs every field of at least one"`
	Address         string     `json:"address" jsonschema:"where the gift goes"`
	Note            string     `json:"note" jsonschema:"the note printed with the gift"`
	Details         string     `json:"details" jsonschema:"gift-specific details (a gift's recipientDetails)"`
	Personalization string     `json:"personalization" jsonschema:"lettering (a gift's personalizationText)"`
	Artwork         string     `json:"artwork" jsonschema:"artwork for gifts with requiresArtwork"`
	Photo           string     `json:"photo" jsonschema:"portrait photos for gifts with requiresPortrait"`
	Adult           string     `json:"adult" jsonschema:"adult confirmation for alcohol gifts"`
	Drafts          string     `json:"drafts" jsonschema:"what drafts may leave incomplete"`
}

// Requirements returns the guide's recipientRequirements: Rules in short.
func Requirements() RecipientRequirements {
	r := Rules()
	return RecipientRequirements{
		Identity:        r.Identity.AnyOf,
		Address:         "addressMode confirm (the default: the recipient confirms it; not for live playbooks) or known (name, address, city, state, zip in the US).",
		Note:            fmt.Sprintf("At most %d characters after placeholders {{firstName}}, {{name}}, {{company}}, {{custom}}; a placeholder without a value blocks approval.", core.GiftMessageCharacters),
		Details:         "recipient.details.<key> for each of the gift's required recipientDetails; never invented.",
		Personalization: "customization.displayText within the gift's personalizationText limits.",
		Artwork:         "recipient.assetIds or customization.logoAssetId (an uploaded asset).",
		Photo:           "recipient.photo: an upload or a LinkedIn profile, with the user's authorization.",
		Adult:           "adultRecipientConfirmed: true for alcohol, confirmed by the user; never inferred.",
		Drafts:          r.Drafts,
	}
}
