package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
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
	approval.RepeatApproval
}

const descAddRecipients = "Add 1-500 people to a campaign's roster (a playbook holds 2000). Each needs an identity: a name, a personal LinkedIn profileUrl " +
	"or, best, sourceSystem+externalId (resends are then safe); people already there (or, name-only, the same name and company) are skipped. Fill what the gift needs; never invent it. " +
	"An active playbook needs no expectedPolicyVersion, stays on and needs each person's complete note; " +
	"other campaigns need expectedPolicyVersion, an active one returns to draft and a batch's limits grow to fit."

const descManageRecipients = "Change people who have no gift yet, chosen by recipientIds and/or emails (up to 500): action message sets each one's own note " +
	"(empty clears it), action remove takes them off the roster. Needs the current expectedPolicyVersion and returns the new one; " +
	"a key's edit returns an active campaign to draft."

const descApproveCampaignRepeats = "Approve reviewed repeats: people on the roster already gifted by another campaign (get_campaign_repeats). Only a signed-in owner or admin can; " +
	"keys and connections get HUMAN_APPROVAL_REQUIRED with the campaign's review url: hand it to a person and stop. Returns the repeats with their approved state."

// recipientTools are the roster tools, in TOOLS.md's order, then the
// signed-in approval of repeats (TOOLS.md row 51).
func recipientTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("add_recipients", descAddRecipients, ScopeWrite, core.ActAddPeople,
			func(ctx context.Context, p core.Principal, in AddRecipientsInput) (campaign.RecipientsAddedPage, error) {
				out, err := app.Campaigns.AddRecipients(ctx, p, in.ID, in.RecipientsAdd)
				return out.Page(p.WorkspaceID), err
			},
			Title("Add people to a campaign"), ChatGPT(), Idempotent(), REST(http.MethodPost, "/campaigns/{id}/recipients", http.StatusOK,
				RESTForm("", func(ctx context.Context, p core.Principal, in AddRecipientsInput) (campaign.RecipientsAdded, error) {
					return app.Campaigns.AddRecipients(ctx, p, in.ID, in.RecipientsAdd)
				}))),
		Define("manage_recipients", descManageRecipients, ScopeWrite, core.ActEditDrafts,
			func(ctx context.Context, p core.Principal, in ManageRecipientsInput) (campaign.RecipientsManagedPage, error) {
				out, err := app.Campaigns.ManageRecipients(ctx, p, in.ID, in.RecipientsManage)
				return out.Page(p.WorkspaceID), err
			},
			Title("Change or remove people"), Destructive(), REST(http.MethodPost, "/campaigns/{id}/recipients/bulk", http.StatusOK,
				RESTForm("", func(ctx context.Context, p core.Principal, in ManageRecipientsInput) (campaign.RecipientsManaged, error) {
					return app.Campaigns.ManageRecipients(ctx, p, in.ID, in.RecipientsManage)
				}))),
		Define("approve_campaign_repeats", descApproveCampaignRepeats, ScopeSignedIn, core.ActApprove,
			func(ctx context.Context, p core.Principal, in ApproveRepeatsInput) ([]campaign.RepeatItem, error) {
				return app.Approvals.ApproveRepeats(ctx, p, in.ID, in.RepeatApproval)
			},
			Title("Approve repeat recipients"), Idempotent(), PersonURL(reviewPage(app)), REST(http.MethodPost, "/campaigns/{id}/repeat-approvals", http.StatusOK)),
	}
}
