package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
)

// CustomizeGiftLinkMessageInput is customize_gift_link_message's input.
type CustomizeGiftLinkMessageInput struct {
	ID                     string             `json:"id" jsonschema:"the gift ID (send_...)" schema:"minLength=1,maxLength=100"`
	Generation             int                `json:"generation" jsonschema:"the link's generation as last read" schema:"minimum=1"`
	ExpectedMessageVersion int                `json:"expectedMessageVersion" jsonschema:"the link's messageVersion as last read" schema:"minimum=1"`
	Message                *string            `json:"message,omitempty" jsonschema:"the landing message: up to 500 characters besides {{firstName}}, {{name}}, {{company}}; shown literally; \"\" restores the default" schema:"type=string,maxLength=2000"`
	Branding               *giftlink.Branding `json:"branding,omitempty" jsonschema:"complete branding: senderName, senderCompany, contactEmail and logoAssetId (empty contact or logo hides it)"`
}

// CustomizeCampaignGiftLinksInput is customize_campaign_gift_links' input.
type CustomizeCampaignGiftLinksInput struct {
	ID       string             `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	Message  *string            `json:"message,omitempty" jsonschema:"the landing message for every link named (see customize_gift_link_message)" schema:"type=string,maxLength=2000"`
	Branding *giftlink.Branding `json:"branding,omitempty" jsonschema:"complete branding for every link named"`
	Links    []giftlink.LinkRef `json:"links" jsonschema:"1-25 links with the generation and messageVersion you last read" schema:"minItems=1,maxItems=25"`
}

// RegiftGiftLinkInput is regift_gift_link's input.
type RegiftGiftLinkInput struct {
	ID         string                   `json:"id" jsonschema:"the gift ID (send_...)" schema:"minLength=1,maxLength=100"`
	Generation int                      `json:"generation" jsonschema:"the link's generation as last read" schema:"minimum=1"`
	Recipient  giftlink.RegiftRecipient `json:"recipient" jsonschema:"who gets the gift now; they confirm their own address"`
	Message    string                   `json:"message" jsonschema:"the new link's landing message; \"\" for the default" schema:"maxLength=2000"`
}

// RevokeGiftLinkInput is revoke_gift_link's input.
type RevokeGiftLinkInput struct {
	ID         string `json:"id" jsonschema:"the gift ID (send_...)" schema:"minLength=1,maxLength=100"`
	Generation int    `json:"generation" jsonschema:"the link's generation as last read" schema:"minimum=1"`
}

const descListCampaignGiftLinks = "A campaign's gift links, one per gift whose recipient confirms their own address: url (while linkState is active), expiry, generation, " +
	"messageVersion and message. Send each url through the user's own tools (Giftwell emails nobody; test-mode links must not reach real prospects); " +
	"change messages with customize_campaign_gift_links. Changes nothing."

const descCustomizeGiftLinkMessage = "Change one gift link's landing message or branding (what the recipient's page says). " +
	"Pass generation and expectedMessageVersion as last read; a stale one is GIFT_LINK_CONFLICT: re-read with list_campaign_gift_links, then retry. " +
	"Never emails anyone and never changes the printed note. Returns the link."

const descCustomizeCampaignGiftLinks = "Give up to 25 links of a campaign one landing message or branding, all or nothing: " +
	"links is [{sendId, generation, expectedMessageVersion}] as last read; any stale one is GIFT_LINK_CONFLICT and nothing changes. Emails nobody. Returns the links."

const descRegiftGiftLink = "Send an unused gift (its link shows canRegift: true) to someone else: keeps the payment, makes a new 14-day link, and the old URL stops working at once. " +
	"Emails nobody: send the returned url yourself. After an uncertain response read the link: an advanced generation with the new recipient means it worked; never retry with the advanced generation."

const descRevokeGiftLink = "Stop an unused gift link at once (no refund; the gift can still be regifted). Pass the generation as last read. Returns the link."

const descGetCampaignInvitations = "A campaign's gift-link settings: the default landing message and branding, and the history of link messages, branding, regifts and revokes, newest first. It changes nothing."

// giftLinkTools are the gift-link tools: the campaign's links, their
// messages, regift, revoke and the settings history.
func giftLinkTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("list_campaign_gift_links", descListCampaignGiftLinks, ScopeLinks, core.ActReadGiftLinks,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) ([]giftlink.Link, error) {
				return app.GiftLinks.CampaignLinks(ctx, p, in.ID)
			},
			Title("List a campaign's gift links"), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/gift-links", http.StatusOK)),
		Define("customize_gift_link_message", descCustomizeGiftLinkMessage, ScopeDash, core.ActManageGiftLinks,
			func(ctx context.Context, p core.Principal, in CustomizeGiftLinkMessageInput) (giftlink.Link, error) {
				return app.GiftLinks.CustomizeMessage(ctx, p, in.ID, giftlink.MessageChange{
					Generation: in.Generation, ExpectedMessageVersion: in.ExpectedMessageVersion, Message: in.Message, Branding: in.Branding,
				})
			},
			Title("Customize a gift link"), REST(http.MethodPost, "/sends/{id}/gift-link/message", http.StatusOK)),
		Define("customize_campaign_gift_links", descCustomizeCampaignGiftLinks, ScopeDash, core.ActManageGiftLinks,
			func(ctx context.Context, p core.Principal, in CustomizeCampaignGiftLinksInput) ([]giftlink.Link, error) {
				return app.GiftLinks.CustomizeCampaignLinks(ctx, p, in.ID, giftlink.CampaignMessageChange{
					Message: in.Message, Branding: in.Branding, Links: in.Links,
				})
			},
			Title("Customize a campaign's gift links"), REST(http.MethodPost, "/campaigns/{id}/gift-links/message", http.StatusOK)),
		Define("regift_gift_link", descRegiftGiftLink, ScopeDash, core.ActManageGiftLinks,
			func(ctx context.Context, p core.Principal, in RegiftGiftLinkInput) (giftlink.Link, error) {
				return app.GiftLinks.Regift(ctx, p, in.ID, giftlink.Regift{Generation: in.Generation, Recipient: in.Recipient, Message: in.Message})
			},
			Title("Regift a gift"), REST(http.MethodPost, "/sends/{id}/gift-link/regift", http.StatusOK)),
		Define("revoke_gift_link", descRevokeGiftLink, ScopeDash, core.ActManageGiftLinks,
			func(ctx context.Context, p core.Principal, in RevokeGiftLinkInput) (giftlink.Link, error) {
				return app.GiftLinks.Revoke(ctx, p, in.ID, in.Generation)
			},
			Title("Revoke a gift link"), Idempotent(), REST(http.MethodPost, "/sends/{id}/gift-link/revoke", http.StatusOK)),
		Define("get_campaign_invitations", descGetCampaignInvitations, ScopeDash, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (giftlink.Invitations, error) {
				return app.GiftLinks.CampaignInvitations(ctx, p, in.ID)
			},
			Title("Gift-link settings and history"), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/gift-link-settings", http.StatusOK)),
	}
}
