package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// ListCampaignsInput is list_campaigns' input.
type ListCampaignsInput struct {
	Mode campaign.CampaignMode `json:"mode,omitempty" jsonschema:"only this kind (always_on: playbooks)" schema:"enum=always_on|batch|single"`
}

// CampaignIDInput names one campaign.
type CampaignIDInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
}

// GetCampaignInput is get_campaign's input: the campaign and one page of
// its roster.
type GetCampaignInput struct {
	ID           string `json:"id" jsonschema:"the campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	RosterLimit  int    `json:"rosterLimit,omitempty" jsonschema:"people per page" schema:"minimum=1,maximum=500,default=50"`
	RosterCursor string `json:"rosterCursor,omitempty" jsonschema:"a rosterNextCursor" schema:"maxLength=500"`
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
	DryRun bool `json:"dryRun,omitempty" jsonschema:"true: save nothing; answer what the edit would do"`
}

// update runs in on app: the edit, or its dry run.
func (in UpdateCampaignInput) update(ctx context.Context, app *giftwell.App, p core.Principal) (campaign.Campaign, error) {
	if in.DryRun {
		return app.Campaigns.UpdateCampaignDryRun(ctx, p, in.ID, in.CampaignPatch)
	}
	return app.Campaigns.UpdateCampaign(ctx, p, in.ID, in.CampaignPatch)
}

// SetAutoApproveInput is set_auto_approve's input: the playbook and its
// auto-approve settings.
type SetAutoApproveInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...) of a playbook" schema:"minLength=1,maxLength=100"`
	approval.AutoApproveSettings
}

const campaignVersionRule = "Each write returns a new policyVersion: send it as expectedPolicyVersion next (stale: POLICY_CHANGED; reread with get_campaign)."

const descListCampaigns = "List the workspace's campaigns, newest first, without rosters: id, mode, status, limits, spending, counts, policyVersion, reviewUrl. " +
	"Also proves the credentials work. Changes nothing."

const descGetCampaign = "Read one campaign with a page of its roster (each person's recipientId, identity, resolvedMessage or noteProblem, sendId once gifted), " +
	"rosterCounts, rosterNextCursor and its policyVersion for the next write. Changes nothing."

// descGetCampaignREST is get_campaign's description in the REST documents.
const descGetCampaignREST = "Read one campaign with its whole roster (each person's recipientId, identity, resolvedMessage or noteProblem, sendId once gifted) " +
	"and its policyVersion for the next write. Changes nothing."

const descPreviewCampaign = "Before a person approves, see what it involves, moving no money: price per gift, total for those without a gift, blockers to fix " +
	"(notes, details, lettering, artwork, portraits, 21+ confirmation, repeats, addresses, limits); without delivery when deliveryIncluded is false. " +
	"Then follow nextAction: review (hand url to a person) or provide_sender_address (give the user url and stop)."

const descGetCampaignRepeats = "List roster people already gifted by another campaign of the workspace (same email, sourceSystem+externalId or LinkedIn profile). " +
	"An unapproved repeat blocks approval, and only a signed-in owner or admin approves it: hand them the campaign's reviewUrl. Changes nothing."

const descCreateCampaign = "Create a campaign draft once the user has chosen a gift. Prefer a playbook (mode always_on, created with no recipients); " +
	"a batch or single gift needs budgetCents, perPersonCents and maxSends. Send an idempotencyKey; after a timeout resend the identical body with it. " +
	"Only a signed-in person turns a campaign on: hand them reviewUrl. " + campaignVersionRule

const descUpdateCampaign = "Change a campaign: send only what changes, fields as in create_campaign (empty text clears; customization and attribution are replaced whole; " +
	"limits never drop below what is committed). A key's content edit returns an active campaign to draft (even meetingUrl): on a live playbook send dryRun true first. recipients replaces the roster: people matched " +
	"by recipientId, sourceSystem+externalId, email or profileUrl stay, others leave (never the gifted). Connections edit drafts only. " + campaignVersionRule

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
	return idPage(app, func(id string) string { return app.Config.ReviewURL(id) })
}

// idPage is the url handed to a person for what a tool's arguments name by
// id: pageOf(id), or the campaigns page without an id.
func idPage(app *giftwell.App, pageOf func(id string) string) func(args json.RawMessage) string {
	return func(args json.RawMessage) string {
		var in struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(args, &in) != nil || in.ID == "" {
			return app.Config.SiteURL + "/campaigns"
		}
		return pageOf(in.ID)
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
			func(ctx context.Context, p core.Principal, in GetCampaignInput) (campaign.CampaignPage, error) {
				return app.Campaigns.GetCampaignPage(ctx, p, in.ID, campaign.RosterPageInput{Limit: in.RosterLimit, Cursor: in.RosterCursor})
			},
			Title("Read a campaign"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}", http.StatusOK,
				RESTForm(descGetCampaignREST, func(ctx context.Context, p core.Principal, in CampaignIDInput) (campaign.Campaign, error) {
					return app.Campaigns.GetCampaign(ctx, p, in.ID)
				}))),
		Define("preview_campaign", descPreviewCampaign, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (campaign.Preview, error) {
				return app.Campaigns.PreviewCampaign(ctx, p, in.ID)
			},
			Title("Preview a campaign"), ChatGPT(), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/preview", http.StatusOK)),
		Define("get_campaign_repeats", descGetCampaignRepeats, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) ([]campaign.RepeatItem, error) {
				return app.Approvals.CampaignRepeats(ctx, p, in.ID)
			},
			Title("List repeat recipients"), ReadOnly(), REST(http.MethodGet, "/campaigns/{id}/repeats", http.StatusOK)),
		Define("create_campaign", descCreateCampaign, ScopeWrite, core.ActEditDrafts,
			func(ctx context.Context, p core.Principal, in CreateCampaignInput) (campaign.CampaignPage, error) {
				c, err := app.Campaigns.CreateCampaign(ctx, p, in.CampaignInput)
				return campaign.FirstPage(c, p.WorkspaceID), err
			},
			Title("Create a campaign draft"), ChatGPT(), FieldsAs("recipients", "add_recipients", "recipients items"), REST(http.MethodPost, "/campaigns", http.StatusCreated,
				RESTForm("", func(ctx context.Context, p core.Principal, in CreateCampaignInput) (campaign.Campaign, error) {
					return app.Campaigns.CreateCampaign(ctx, p, in.CampaignInput)
				}))),
		Define("update_campaign", descUpdateCampaign, ScopeWrite, core.ActEditDrafts,
			func(ctx context.Context, p core.Principal, in UpdateCampaignInput) (campaign.CampaignPage, error) {
				c, err := in.update(ctx, app, p)
				return campaign.FirstPage(c, p.WorkspaceID), err
			},
			Title("Update a campaign"), ChatGPT(), Destructive(), FieldsAs("recipients", "add_recipients", "recipients items"),
			DescribedBy("create_campaign", "id", "status", "monthlyBudgetCents", "recipients", "expectedPolicyVersion", "dryRun"), PersonURL(reviewPage(app)), REST(http.MethodPatch, "/campaigns/{id}", http.StatusOK,
				RESTForm("", func(ctx context.Context, p core.Principal, in UpdateCampaignInput) (campaign.Campaign, error) {
					return in.update(ctx, app, p)
				}))),
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
				return app.Approvals.SetAutoApprove(ctx, p, in.ID, in.AutoApproveSettings)
			},
			Title("Set a playbook's auto-approve rule"), RESTOnly(), PersonURL(reviewPage(app)), REST(http.MethodPost, "/campaigns/{id}/auto-approve", http.StatusOK)),
	}
}
