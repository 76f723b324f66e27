package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
)

// SendGiftLinkEmailInput names the gift whose link would have been emailed.
type SendGiftLinkEmailInput struct {
	ID string `json:"id" jsonschema:"the gift ID (send_...)" schema:"minLength=1,maxLength=100"`
}

// UpdateGiftLinkSettingsInput names the campaign whose invitation settings
// would have changed; its other fields are not read.
type UpdateGiftLinkSettingsInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
}

// Retired is the result of a retired route, which never succeeds.
type Retired struct{}

const descSendGiftLinkEmail = "Retired: Giftwell no longer emails gift links. Always 410 CAPABILITY_RETIRED; send the link through your own tools."

const descUpdateGiftLinkSettings = "Retired: invitation email and reminder settings. Always 410 CAPABILITY_RETIRED; customize link messages with customize_campaign_gift_links."

// retiredTools are the REST routes of capabilities the spec retired: they
// authenticate the caller and answer 410 CAPABILITY_RETIRED.
func retiredTools(*giftwell.App) []Tool {
	return []Tool{
		Define("send_gift_link_email", descSendGiftLinkEmail, ScopeDash, core.ActReadWorkspaceDetails,
			func(context.Context, core.Principal, SendGiftLinkEmailInput) (Retired, error) {
				return Retired{}, core.Retired("emailing a gift link")
			},
			Title("Email a gift link (retired)"), RESTOnly(), AnyFields(), REST(http.MethodPost, "/sends/{id}/gift-link/email", http.StatusOK, RetiredRoute())),
		Define("update_gift_link_settings", descUpdateGiftLinkSettings, ScopeDash, core.ActReadWorkspaceDetails,
			func(context.Context, core.Principal, UpdateGiftLinkSettingsInput) (Retired, error) {
				return Retired{}, core.Retired("invitation email and reminder settings")
			},
			Title("Change invitation email settings (retired)"), RESTOnly(), AnyFields(), REST(http.MethodPatch, "/campaigns/{id}/gift-link-settings", http.StatusOK, RetiredRoute())),
	}
}
