package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// AddRecipientsInput is add_recipients' input.
type AddRecipientsInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	campaign.RecipientsAdd
}

// ManageRecipientsInput is manage_recipients' input.
type ManageRecipientsInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	campaign.RecipientsManage
}

// ApproveRepeatsInput is approve_campaign_repeats' input.
type ApproveRepeatsInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	campaign.RepeatApproval
}

const descAddRecipients = "Add 1-500 people to a campaign's roster. Each person needs an identity: a name, a personal LinkedIn profileUrl " +
	"(linkedin.com/in/<slug>; Sales Navigator, company and /pub/ URLs are refused), or sourceSystem plus externalId (the stable identity: use it so resends are safe). " +
	"People already on the roster (same recipientId, sourceSystem+externalId, email or profileUrl; a person sent with none of these: same name and company) are skipped and listed in skipped; identifiers of different people, or another externalId for a person who has one, give RECIPIENT_IDENTITY_CONFLICT, " +
	"the same person twice in one call DUPLICATE_RECIPIENT. addressMode confirm (default) lets the recipient confirm their address through the gift link; known takes the sender's US address " +
	"(name, address, city, state as code or name, zip of 5 or 9 digits; country US only). Fill details keyed by the gift's recipientDetails, assetIds (at most 5), photo and adultRecipientConfirmed as the gift needs; never invent them. " +
	"A person's message overrides the campaign's note. An active playbook needs no expectedPolicyVersion and stays on, but every person added needs a complete note (RECIPIENT_MESSAGE_REQUIRED); " +
	"any other campaign needs the current expectedPolicyVersion, gets a new policyVersion, returns to draft if it was an active batch or single, and a batch's maxSends and budgetCents grow to fit. " +
	"A batch or single holds at most 500 people, a playbook 2000. Returns the campaign with added and skipped."

const descManageRecipients = "Change up to 500 people of a campaign who have no gift yet, chosen by recipientIds and/or emails: action message sets each one's own note " +
	"(an empty message clears it so the campaign's message applies; at most 500 characters after personalization), action remove takes them off the roster. " +
	"Needs the current expectedPolicyVersion; returns the campaign with its new policyVersion. A key's edit returns an active campaign to draft. " +
	"People with a gift cannot change (INVALID_REQUEST); an ID or email not on the roster is NOT_FOUND."

const descApproveCampaignRepeats = "Approve reviewed repeats: people on the roster already gifted by another campaign (get_campaign_repeats). Only a signed-in owner or admin can; " +
	"keys and connections get HUMAN_APPROVAL_REQUIRED with the campaign's review url: hand it to a person and stop. Returns the repeats with their approved state."

// recipientTools are the roster tools, in TOOLS.md's order, then the
// signed-in approval of repeats (TOOLS.md row 51).
func recipientTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("add_recipients", descAddRecipients, ScopeWrite, core.ActAddPeople,
			func(ctx context.Context, p core.Principal, in AddRecipientsInput) (campaign.RecipientsAdded, error) {
				return app.Campaigns.AddRecipients(ctx, p, in.ID, in.RecipientsAdd)
			},
			Title("Add people to a campaign"), ChatGPT(), Idempotent(), REST(http.MethodPost, "/campaigns/{id}/recipients", http.StatusOK)),
		Define("manage_recipients", descManageRecipients, ScopeWrite, core.ActEditDrafts,
			func(ctx context.Context, p core.Principal, in ManageRecipientsInput) (campaign.RecipientsManaged, error) {
				return app.Campaigns.ManageRecipients(ctx, p, in.ID, in.RecipientsManage)
			},
			Title("Change or remove people"), Destructive(), REST(http.MethodPost, "/campaigns/{id}/recipients/bulk", http.StatusOK)),
		Define("approve_campaign_repeats", descApproveCampaignRepeats, ScopeSignedIn, core.ActApprove,
			func(ctx context.Context, p core.Principal, in ApproveRepeatsInput) ([]campaign.RepeatItem, error) {
				return app.Campaigns.ApproveRepeats(ctx, p, in.ID, in.RepeatApproval)
			},
			Title("Approve repeat recipients"), Idempotent(), PersonURL(reviewPage(app)), REST(http.MethodPost, "/campaigns/{id}/repeat-approvals", http.StatusOK)),
	}
}
