package guide

import (
	"context"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// WorkflowGuide is what get_workflow_guide (GET /workflow) returns: how an
// agent works with Giftwell, for the caller asking. Every field of the
// spec's Workflow guide is present.
type WorkflowGuide struct {
	Mode                  core.Mode             `json:"mode" jsonschema:"the workspace mode: test or live" schema:"enum=test|live"`
	ConnectorCanSend      bool                  `json:"connectorCanSend" jsonschema:"whether this caller can itself approve or pay for gifts; false for every key and connection"`
	ApprovalRequired      bool                  `json:"approvalRequired" jsonschema:"whether a signed-in owner or admin must approve or pay before gifts are made for this caller (auto-approve aside)"`
	Capabilities          Capabilities          `json:"capabilities" jsonschema:"what this caller may do"`
	Instructions          string                `json:"instructions" jsonschema:"how to work with Giftwell, in words"`
	APIBase               string                `json:"apiBase" jsonschema:"the REST base URL"`
	MCPEndpoint           string                `json:"mcpEndpoint" jsonschema:"the MCP endpoint"`
	ReviewURLTemplate     string                `json:"reviewUrlTemplate" jsonschema:"the page where a signed-in person reviews and turns on a campaign; replace <campaign_id>"`
	Documentation         Documentation         `json:"documentation" jsonschema:"documentation URLs"`
	Status                string                `json:"status" jsonschema:"what the workspace's mode means right now"`
	UsageOrder            []string              `json:"usageOrder" jsonschema:"campaign modes in order of preference"`
	Steps                 []string              `json:"steps" jsonschema:"the playbook flow, step by step"`
	BatchSteps            []string              `json:"batchSteps" jsonschema:"the batch (and single) flow, step by step"`
	ApprovalReasons       map[string]string     `json:"approvalReasons" jsonschema:"every approval.reason a waiting person can have, with what it means and what to do"`
	Tracking              string                `json:"tracking" jsonschema:"how to follow gifts after approval"`
	Limits                GuideLimits           `json:"limits" jsonschema:"the service's limits"`
	Recovery              map[string]string     `json:"recovery" jsonschema:"every error code, with what to do (the error's message says what went wrong; documentation.recovery has both)"`
	RecipientRequirements RecipientRequirements `json:"recipientRequirements" jsonschema:"what each person needs before approval, in short (documentation.recipients has the rules in full)"`
}

// Capabilities says what the caller may do.
type Capabilities struct {
	PrepareCampaigns            bool `json:"prepareCampaigns" jsonschema:"create and edit drafts and add people"`
	ManageExistingInvitations   bool `json:"manageExistingInvitations" jsonschema:"read, regift, revoke and reword existing gift links"`
	ManageWorkspaceWithinRole   bool `json:"manageWorkspaceWithinRole" jsonschema:"pause or complete campaigns and read or change workspace settings as the caller's role allows"`
	ChangeTeamMembersOrWebhooks bool `json:"changeTeamMembersOrWebhooks" jsonschema:"invite or remove teammates, create or remove webhooks (signed-in owners and admins only)"`
	PurchaseOrAuthorizeNewSends bool `json:"purchaseOrAuthorizeNewSends" jsonschema:"approve gifts, pay checkouts, add funds (signed-in owners and admins only)"`
	ProspectEmailAvailable      bool `json:"prospectEmailAvailable" jsonschema:"always false: prospect invitation email is retired; send gift links through your own tools"`
	PrivateLinks                bool `json:"privateLinks" jsonschema:"read private gift links and their CSV exports"`
}

// Documentation lists documentation URLs.
type Documentation struct {
	OpenAPI   string `json:"openapi" jsonschema:"the OpenAPI 3.1 description of the REST API"`
	OpenAPI30 string `json:"openapi30" jsonschema:"the same description in OpenAPI 3.0.3"`
	Workflow  string `json:"workflow" jsonschema:"this guide over REST"`
	Catalog   string `json:"catalog" jsonschema:"the public catalog (JSON)"`
	MCP       string `json:"mcp" jsonschema:"the MCP endpoint"`
	OAuth     string `json:"oauthProtectedResource" jsonschema:"OAuth protected-resource metadata for MCP connectors"`
	// The MCP resources that hold the guide's deeper text.
	Guide      string `json:"guide" jsonschema:"MCP resource: this guide with its deeper text, as markdown"`
	Recovery   string `json:"recovery" jsonschema:"MCP resource: every error code, what went wrong and what to do"`
	Recipients string `json:"recipients" jsonschema:"MCP resource: what each person needs, in full"`
	Approval   string `json:"approval" jsonschema:"MCP resource: each approval state (who has paid, what comes next) and reason"`
}

// The MCP resources the guide's documentation links to (package resources
// serves them).
const (
	GuideURI      = "giftwell://guide"
	RecoveryURI   = "giftwell://guide/recovery"
	RecipientsURI = "giftwell://guide/recipients"
	ApprovalURI   = "giftwell://guide/approval"
)

// GuideLimits are the limits the guide reports, under the spec's names.
type GuideLimits struct {
	RecipientsPerCampaign         int `json:"recipientsPerCampaign" jsonschema:"most people in a batch or single campaign"`
	RecipientsPerPlaybook         int `json:"recipientsPerPlaybook" jsonschema:"most people in a playbook"`
	GiftMessageCharacters         int `json:"giftMessageCharacters" jsonschema:"longest note, after personalization"`
	RequestBytes                  int `json:"requestBytes" jsonschema:"largest request body"`
	RequestsPerWorkspacePerMinute int `json:"requestsPerWorkspacePerMinute" jsonschema:"requests per workspace per clock minute, shared by every key, connection and face"`
	GiftLinkExpiryDays            int `json:"giftLinkExpiryDays" jsonschema:"days a gift link works"`
	SourceUploadPartBytes         int `json:"sourceUploadPartBytes" jsonschema:"largest source-upload chunk before base64"`
	SourceUploadParts             int `json:"sourceUploadParts" jsonschema:"most chunks in one source upload"`
	SourceUploadSerializedBytes   int `json:"sourceUploadSerializedBytes" jsonschema:"largest source upload in all"`
	SourceUploadExpiryHours       int `json:"sourceUploadExpiryHours" jsonschema:"hours an unfinished source upload is kept"`
}

// Limits returns the guide's limits under cfg: the requests limit is the
// operator's (GIFTWELL_RATE_LIMIT_PER_MINUTE), the spec's 240 by default.
func Limits(cfg core.Config) GuideLimits {
	return GuideLimits{
		RecipientsPerCampaign:         core.RecipientsPerCampaign,
		RecipientsPerPlaybook:         core.RecipientsPerPlaybook,
		GiftMessageCharacters:         core.GiftMessageCharacters,
		RequestBytes:                  core.RequestBytes,
		RequestsPerWorkspacePerMinute: cfg.RateLimitFor(core.RateRequests),
		GiftLinkExpiryDays:            core.GiftLinkExpiryDays,
		SourceUploadPartBytes:         core.SourceUploadPartBytes,
		SourceUploadParts:             core.SourceUploadParts,
		SourceUploadSerializedBytes:   core.SourceUploadSerializedBytes,
		SourceUploadExpiryHours:       core.SourceUploadExpiryHours,
	}
}

// WorkflowGuide returns the guide for p. It reads nothing from the database.
// Returns AUTH_REQUIRED for an anonymous principal.
func (a *Service) WorkflowGuide(ctx context.Context, p core.Principal) (WorkflowGuide, error) {
	if p.Anonymous() {
		return WorkflowGuide{}, &core.Error{Code: core.CodeAuthRequired, Message: "a workspace key, a sign-in connection or a signed-in session is required"}
	}
	caps := CapabilitiesOf(p)
	mode := p.Mode
	if mode == "" {
		mode = core.ModeTest
	}
	site := a.Config.SiteURL
	return WorkflowGuide{
		Mode:              mode,
		ConnectorCanSend:  caps.PurchaseOrAuthorizeNewSends,
		ApprovalRequired:  !caps.PurchaseOrAuthorizeNewSends,
		Capabilities:      caps,
		Instructions:      guideInstructions(p, caps),
		APIBase:           a.Config.BaseURL(),
		MCPEndpoint:       a.Config.MCPURL(),
		ReviewURLTemplate: site + "/campaigns/<campaign_id>?review=1",
		Documentation: Documentation{
			OpenAPI:    a.Config.BaseURL() + "/openapi.json",
			OpenAPI30:  a.Config.BaseURL() + "/openapi-3.0.json",
			Workflow:   a.Config.BaseURL() + "/workflow",
			Catalog:    a.Config.BaseURL() + "/catalog",
			MCP:        a.Config.MCPURL(),
			OAuth:      site + "/.well-known/oauth-protected-resource/mcp",
			Guide:      GuideURI,
			Recovery:   RecoveryURI,
			Recipients: RecipientsURI,
			Approval:   ApprovalURI,
		},
		Status:                guideStatus(mode, p.IsDemo),
		UsageOrder:            []string{"always_on", "batch", "single"},
		Steps:                 guideSteps(site),
		BatchSteps:            guideBatchSteps(site),
		ApprovalReasons:       approvalReasonTexts(),
		Tracking:              guideTracking,
		Limits:                Limits(a.Config),
		Recovery:              RecoveryActions(),
		RecipientRequirements: Requirements(),
	}, nil
}

// CapabilitiesOf derives the guide's capabilities from the role matrix:
// agents (keys and connections) prepare and track but never purchase or
// authorize; a connection's scopes narrow what it may prepare and read.
func CapabilitiesOf(p core.Principal) Capabilities {
	can := func(a core.Action) bool { return core.Authorize(p, a, "") == nil }
	return Capabilities{
		PrepareCampaigns:            can(core.ActEditDrafts) && can(core.ActAddPeople),
		ManageExistingInvitations:   p.Via != core.ViaConnection && can(core.ActReadGiftLinks),
		ManageWorkspaceWithinRole:   can(core.ActPauseOrComplete),
		ChangeTeamMembersOrWebhooks: can(core.ActManageWebhooks) || can(core.ActInviteOrRemove),
		PurchaseOrAuthorizeNewSends: can(core.ActApprove) && can(core.ActPay),
		ProspectEmailAvailable:      false,
		PrivateLinks:                can(core.ActReadGiftLinks),
	}
}

func approvalReasonTexts() map[string]string {
	m := make(map[string]string, len(campaign.ReasonOrder))
	for _, r := range campaign.ReasonOrder {
		m[string(r)] = r.Text()
	}
	return m
}

// RecoveryTexts maps every wire error code to its recovery text in full
// (the giftwell://guide/recovery resource). Codes that share a wire code
// (INVALID_REQUEST as 400 or 409, SERVICE_UNAVAILABLE on a read or after a
// write) are merged, each part prefixed by its nextAction.
func RecoveryTexts() map[string]string { return recoveryTexts(func(s string) string { return s }) }

// RecoveryActions is the guide's recovery: RecoveryTexts without the
// sentence that says what went wrong (the error's message says it), so
// each code keeps what to do.
func RecoveryActions() map[string]string { return recoveryTexts(RecoveryAction) }

// RecoveryAction is a recovery text without its first sentence, what went
// wrong; a text of one sentence is kept whole.
func RecoveryAction(text string) string {
	if i := strings.Index(text, ". "); i >= 0 && strings.TrimSpace(text[i+2:]) != "" {
		return strings.TrimSpace(text[i+2:])
	}
	return text
}

func recoveryTexts(part func(string) string) map[string]string {
	parts := map[string][]core.Code{}
	var order []string
	for _, c := range core.Codes() {
		w := c.Wire()
		if _, ok := parts[w]; !ok {
			order = append(order, w)
		}
		parts[w] = append(parts[w], c)
	}
	m := make(map[string]string, len(order))
	for _, w := range order {
		codes := parts[w]
		if len(codes) == 1 {
			m[w] = part(codes[0].Info().Recovery)
			continue
		}
		var b strings.Builder
		for i, c := range codes {
			if i > 0 {
				b.WriteString(" ")
			}
			info := c.Info()
			b.WriteString("When nextAction is " + string(info.NextAction) + ": " + part(info.Recovery))
		}
		m[w] = b.String()
	}
	return m
}

func guideInstructions(p core.Principal, caps Capabilities) string {
	var b strings.Builder
	b.WriteString("Giftwell prepares, approves, pays for and ships personalized physical gifts to people in the United States. ")
	if caps.PurchaseOrAuthorizeNewSends {
		b.WriteString("You are signed in as an owner or admin: you can approve, pay and top up in the web app, while agents only prepare and track. ")
	} else {
		b.WriteString("You prepare and track; signed-in people approve, skip, pay and top up. Never claim a gift was sent or paid for until tracking shows it; hand the url of any HUMAN_APPROVAL_REQUIRED, approval or top-up response to a person and stop. ")
	}
	b.WriteString("Choose gifts only with search_gifts, browse_gifts or get_gift, following their selection rules; never invent a product ID, a link or an input. ")
	b.WriteString("Nothing is charged when a draft is saved, a person is added or anything is read. ")
	b.WriteString("Gift links are private: send them through your own tools; Giftwell never emails them. ")
	if p.Via == core.ViaConnection && !caps.PrivateLinks {
		b.WriteString("This connection lacks gifts:links:read, so it cannot read gift links; ask the user to reconnect and grant it if links are needed. ")
	}
	if p.Via == core.ViaConnection && !caps.PrepareCampaigns {
		b.WriteString("This connection lacks gifts:write, so it can only read; ask the user to reconnect and grant it to prepare campaigns. ")
	}
	b.WriteString("On an error, follow its nextAction and the recovery text for its code. Deeper text: the MCP resources in documentation.")
	return b.String()
}

func guideStatus(mode core.Mode, demo bool) string {
	var s string
	if mode == core.ModeLive {
		s = "Live: gifts are produced and shipped. Only verified gifts can be ordered, and each gift needs a sender-supplied US address (addressMode known); only a batch or single campaign whose preview returns a prepaidOffer lets recipients confirm their own address."
	} else {
		s = "Test: everything works end to end, but no gift is produced or shipped and payments use the processor's test environment. Gift links from test gifts must not be sent to real prospects. Staff enable live gifting on request."
	}
	if demo {
		s += " This is a demo (preview-only) workspace: keys, webhooks, uploads and imports are not available."
	}
	return s
}

func guideSteps(site string) []string {
	review := site + "/campaigns/<campaign_id>?review=1"
	return []string{
		"1. Choose a gift: search_gifts or browse_gifts, then get_gift for the chosen productId.",
		"2. Create a playbook draft with no recipients: create_campaign with mode always_on and a shared message. Keep its id and policyVersion.",
		"3. Hand the review URL " + review + " to a signed-in person, who turns the playbook on (and may set auto-approve). Agents cannot; adds to a draft or paused playbook return PLAYBOOK_OFF. Edits of a live playbook can turn it off: send update_campaign with dryRun first.",
		"4. For each trigger, add one person (add_to_playbook) with a stable sourceSystem and externalId, and read approval.state: only auto_approved and approved are paid; scheduled may still end up waiting; waiting carries blockers. Resending the same person is safe (alreadyQueued).",
		"5. Hand people who wait to an owner or admin: approvalUrl (" + site + "/?queue=<campaign_id>) and the reason's text from approvalReasons. Agents never approve or skip.",
		"6. When lowBalance is true, hand topUpUrl to an owner or admin. When funds arrive, people who waited only for funds on auto-approving playbooks are decided again in queue order.",
		"7. Once gifts exist, read gift links (get_gift_link_records) and send them through the user's own tools. Never build a link from an ID.",
		"8. Track with list_tracking_events or get_tracking, or ask an owner or admin for a webhook; record outcomes only when the user reports them.",
	}
}

func guideBatchSteps(site string) []string {
	review := site + "/campaigns/<campaign_id>?review=1"
	return []string{
		"1. Choose a gift with search_gifts (with recipientCount) and confirm it with get_gift.",
		"2. create_campaign with mode batch (or single), budgetCents, perPersonCents, maxSends (at most 500), a message and an idempotencyKey.",
		"3. Add people with add_recipients and the current expectedPolicyVersion, with every detail the gift needs.",
		"4. preview_campaign, and fix every blocker. Nothing is charged.",
		"5. Hand the review URL " + review + " to a signed-in owner or admin, who pays at checkout and launches. Agents never pay.",
		"6. After payment, read gift links, send them through the user's own tools, and track.",
	}
}

const guideTracking = "Follow gifts with get_tracking (one campaign) or the event feed, list_tracking_events, whose description says how to poll it. " +
	"An owner or admin may add a signed webhook instead. Record an outcome only when the user reports it."
