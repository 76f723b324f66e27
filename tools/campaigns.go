package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// ListCampaignsInput is list_campaigns' input.
type ListCampaignsInput struct {
	Mode campaign.CampaignMode `json:"mode,omitempty" jsonschema:"only campaigns of this kind: always_on (playbooks), batch or single" schema:"enum=always_on|batch|single"`
}

// CampaignIDInput names one campaign.
type CampaignIDInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...) from list_campaigns or create_campaign" schema:"minLength=1,maxLength=100"`
}

// CreateCampaignInput is create_campaign's input.
type CreateCampaignInput struct {
	campaign.CampaignInput
}

// UpdateCampaignInput is update_campaign's input: the campaign and the
// fields to change.
type UpdateCampaignInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	campaign.CampaignPatch
}

// SetAutoApproveInput is set_auto_approve's input: the playbook and its
// auto-approve settings.
type SetAutoApproveInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...) of a playbook" schema:"minLength=1,maxLength=100"`
	campaign.AutoApproveSettings
}

const campaignVersionRule = "Every write returns the campaign's new policyVersion: send it as expectedPolicyVersion on the next write (keys must; a stale one gives POLICY_CHANGED: read the campaign with get_campaign and retry with its policyVersion)."

const descListCampaigns = "List the workspace's campaigns (playbooks, batches and single gifts), newest first, without their rosters: each has its id, mode, status, " +
	"productId, limits, spentCents, sentCount, recipientCount, policyVersion and reviewUrl. Filter with mode (always_on, batch or single). " +
	"A 200 with a list, even an empty one, also proves the credentials work. It changes nothing."

const descGetCampaign = "Read one campaign with its whole roster: every person with their recipientId, identity, address mode, details, " +
	"resolvedMessage (the note as it will be printed) or noteProblem, sendId once a gift exists, and the campaign's policyVersion to send back as expectedPolicyVersion. " +
	"An unknown or other workspace's id is NOT_FOUND. It changes nothing."

const descPreviewCampaign = "Preview what approving a campaign involves, without moving money or creating anything: unitCents (price + shipping per gift), " +
	"totalCents for everyone without a gift yet, alreadySent, blockers to fix before a person can approve or pay (missing notes, gift details, lettering, artwork, portraits, " +
	"21+ confirmation, repeats, addresses in live mode, limits), fulfillmentRequirements per person (photo_sourcing, address_confirmation, sender_address_required), " +
	"unavailableReason, and for batch and single campaigns a prepaidOffer when the gift has one. When deliveryIncluded is false the totals exclude delivery: never present them as delivered totals. " +
	"Then follow nextAction: review (hand url, the review page, to a person) or provide_sender_address (live mode needs sender-supplied US addresses: give the user url and stop)."

const descGetCampaignRepeats = "List the people on a campaign's roster who were already gifted by another campaign of the workspace (matched by email, " +
	"sourceSystem+externalId or LinkedIn profile, in the workspace's current mode): recipientId, email, name, priorSendId and approved. " +
	"An unapproved repeat blocks approval; only a signed-in owner or admin approves it (hand the campaign's reviewUrl to one). It changes nothing."

const descCreateCampaign = "Create a campaign as a draft. Prefer a playbook (mode always_on: one gift per trigger, people added over time; " +
	"budgetCents defaults to 100000000, perPersonCents to the gift's price, maxSends to 2000; create it with no recipients), then a batch (a fixed list of at most 500 people) or a single gift, " +
	"which need budgetCents, perPersonCents (at most the budget) and maxSends (1-500). Required: name, productId (a current catalog gift from search_gifts; a retired, " +
	"unavailable or unpriced one gives GIFT_RETIRED, GIFT_UNAVAILABLE or PRICE_QUOTE_REQUIRED, an unknown one VALIDATION_ERROR), senderName and senderCompany. " +
	"message is the shared note (at most 500 characters after personalization; placeholders {{firstName}}, {{name}}, {{company}}, {{custom}}, each filled once, literally; no default note is applied). " +
	"Lettering goes in customization.displayText within the gift's personalizationText. Unknown fields are refused. " +
	"Send an idempotencyKey (8-150 characters): after a timeout resend the identical body with the same key and get the same campaign back (201); " +
	"the same key with a different body is IDEMPOTENCY_CONFLICT (ask the user; do not rotate the key). " +
	"Agents create drafts only: a signed-in person turns a campaign on at its reviewUrl ({site_url}/campaigns/<id>?review=1). " + campaignVersionRule

const descUpdateCampaign = "Change a campaign: only the fields you send change; unknown fields are refused. Keys must send expectedPolicyVersion (missing: VALIDATION_ERROR; stale: POLICY_CHANGED, then read and retry). " +
	"A key's content edit returns an active campaign to draft for review (a paused one stays paused). status paused or completed pauses or ends it (completed is final: every later change gives CAMPAIGN_COMPLETED); " +
	"keys can never set active (HUMAN_APPROVAL_REQUIRED: hand url to a person). recipients, when sent, is the whole roster: people matched by recipientId, sourceSystem+externalId, email or profileUrl keep their record (a set sourceSystem+externalId never changes) with the fields you send merged in, " +
	"people left out are removed (never people with a gift), new people are appended; to only add people use add_recipients. An active playbook accepts, without a version, recipients that keep every current person unchanged and append new ones, and stays on. " +
	"Limits never drop below what gifts already committed (LIMITS_BELOW_COMMITMENTS). Sign-in connections edit drafts only. " + campaignVersionRule

// descExportCampaign names the export's columns from core's list.
var descExportCampaign = "A CSV of the campaign's gifts, oldest first, with the columns " + strings.Join(campaign.CampaignExportColumns, ", ") +
	": gift, campaign and reference IDs, mode, status, outcome and total cents. It never carries addresses, emails, notes or links. " +
	"A campaign without gifts yet gives the header row only."

const descSetAutoApprove = "Set a playbook's auto-approve rule: with enabled true, gifts within perGiftMaxCents (100-100000 cents) and the monthly budget " +
	"(monthlyBudgetCents, 100-100000000 cents, the campaign's own cap shared with PATCH) are approved without a person; enabled false turns it off and keeps the limits. " +
	"Absent limits keep the stored ones. Turning it on needs a monthly budget (MONTHLY_BUDGET_REQUIRED) and a per-gift limit no higher than it (VALIDATION_ERROR). " +
	"Only a signed-in person may: keys and connections get HUMAN_APPROVAL_REQUIRED with the review page; turning it on or raising a limit needs an owner or admin " +
	"(TEAM_MANAGER_REQUIRED), while any signed-in role may lower the limits or turn it off. A batch or single is NOT_ALWAYS_ON; a stale expectedPolicyVersion is POLICY_CHANGED. " +
	"Returns the campaign with autoApprove (enabledBy and enabledAt record who turned it on) and its new policyVersion."

// reviewPage is the url handed to a person for the campaign a tool's
// arguments name: its review page, or the campaigns page without an id.
func reviewPage(app *giftwell.App) func(args json.RawMessage) string {
	return func(args json.RawMessage) string {
		var in struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(args, &in) != nil || in.ID == "" {
			return app.Config.SiteURL + "/campaigns"
		}
		return app.Config.ReviewURL(in.ID)
	}
}

// campaignTools are the campaign tools, in TOOLS.md's order, then the
// campaign routes only REST serves: the CSV export and the auto-approve
// rule.
func campaignTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("list_campaigns", descListCampaigns, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in ListCampaignsInput) ([]campaign.Campaign, error) {
				return app.Campaigns.ListCampaigns(ctx, p, in.Mode)
			},
			Title("List campaigns"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/campaigns", http.StatusOK)),
		Define("get_campaign", descGetCampaign, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (campaign.Campaign, error) {
				return app.Campaigns.GetCampaign(ctx, p, in.ID)
			},
			Title("Read a campaign"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}", http.StatusOK)),
		Define("preview_campaign", descPreviewCampaign, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (campaign.Preview, error) {
				return app.Campaigns.PreviewCampaign(ctx, p, in.ID)
			},
			Title("Preview a campaign"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/preview", http.StatusOK)),
		Define("get_campaign_repeats", descGetCampaignRepeats, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) ([]campaign.RepeatItem, error) {
				return app.Campaigns.CampaignRepeats(ctx, p, in.ID)
			},
			Title("List repeat recipients"), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/repeats", http.StatusOK)),
		Define("create_campaign", descCreateCampaign, ScopeWrite, core.ActEditDrafts,
			func(ctx context.Context, p core.Principal, in CreateCampaignInput) (campaign.Campaign, error) {
				return app.Campaigns.CreateCampaign(ctx, p, in.CampaignInput)
			},
			Title("Create a campaign draft"), ChatGPT(), REST(http.MethodPost, "/campaigns", http.StatusCreated)),
		Define("update_campaign", descUpdateCampaign, ScopeWrite, core.ActEditDrafts,
			func(ctx context.Context, p core.Principal, in UpdateCampaignInput) (campaign.Campaign, error) {
				return app.Campaigns.UpdateCampaign(ctx, p, in.ID, in.CampaignPatch)
			},
			Title("Update a campaign"), ChatGPT(), Destructive(), PersonURL(reviewPage(app)), REST(http.MethodPatch, "/campaigns/{id}", http.StatusOK)),
		Define("export_campaign", descExportCampaign, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (File, error) {
				export, err := app.Campaigns.ExportCampaign(ctx, p, in.ID)
				if err != nil {
					return File{}, err
				}
				return File{Name: export.Filename, Body: export.CSV}, nil
			},
			Title("Export a campaign's gifts as CSV"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/export", http.StatusOK, Produces("text/csv"))),
		Define("set_auto_approve", descSetAutoApprove, ScopeSignedIn, core.ActLowerAutoApprove,
			func(ctx context.Context, p core.Principal, in SetAutoApproveInput) (campaign.Campaign, error) {
				return app.Campaigns.SetAutoApprove(ctx, p, in.ID, in.AutoApproveSettings)
			},
			Title("Set a playbook's auto-approve rule"), RESTOnly(), PersonURL(reviewPage(app)), REST(http.MethodPost, "/campaigns/{id}/auto-approve", http.StatusOK)),
	}
}
