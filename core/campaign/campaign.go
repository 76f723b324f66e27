package campaign

import (
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
)

// CampaignMode is a campaign's kind (the spec's `mode`): a playbook, a batch
// or a single gift. It is not the workspace's test/live Mode.
type CampaignMode string

// The campaign kinds, in the order the spec prefers them.
const (
	// ModeAlwaysOn is a playbook: one gift per trigger, people added over the API.
	ModeAlwaysOn CampaignMode = "always_on"
	// ModeBatch is a fixed list of at most RecipientsPerCampaign people.
	ModeBatch CampaignMode = "batch"
	// ModeSingle is one gift (bounded like a batch).
	ModeSingle CampaignMode = "single"
)

// Valid reports whether m is one of the three kinds.
func (m CampaignMode) Valid() bool { return m == ModeAlwaysOn || m == ModeBatch || m == ModeSingle }

// Playbook reports whether m is always_on.
func (m CampaignMode) Playbook() bool { return m == ModeAlwaysOn }

// CampaignStatus is where a campaign is in the spec's Campaign status table.
type CampaignStatus string

// The campaign statuses.
const (
	StatusDraft     CampaignStatus = "draft"
	StatusActive    CampaignStatus = "active"
	StatusPaused    CampaignStatus = "paused"
	StatusCompleted CampaignStatus = "completed"
)

// Valid reports whether s is one of the four statuses.
func (s CampaignStatus) Valid() bool {
	return s == StatusDraft || s == StatusActive || s == StatusPaused || s == StatusCompleted
}

// RecipientSource says where a campaign's people come from.
type RecipientSource string

// The recipient sources.
const (
	SourceManual   RecipientSource = "manual"
	SourceWorkflow RecipientSource = "workflow"
)

// Valid reports whether s is manual or workflow.
func (s RecipientSource) Valid() bool { return s == SourceManual || s == SourceWorkflow }

// Campaign bounds from the spec's Campaign table and Limits (see also
// limits.go). Bounds of batch and single campaigns are RecipientsPerCampaign.
const (
	MaxCampaignNameLength  = 200
	MaxDescriptionLength   = 2000
	MaxSenderLength        = 200
	MaxPerPersonCents      = gift.MaxPriceCents
	MinMonthlyBudgetCents  = 100
	MaxMonthlyBudgetCents  = 100_000_000
	MaxPlaybookSends       = core.RecipientsPerPlaybook
	MaxBatchSends          = core.RecipientsPerCampaign
	PeoplePerAddCall       = 500
	MaxNoteTemplateLength  = 1000
	MaxMeetingURLLength    = 2000
	MaxCustomizationFields = 8
	MaxCustomizationValue  = 400
	MaxCustomizationKey    = 64
	MaxAttributionField    = 200
	MaxAttributionMetadata = 10
	// MaxPolicyVersion is the largest expectedPolicyVersion (2^53-1, the
	// largest integer every JSON client reads exactly).
	MaxPolicyVersion = 9007199254740991
)

// The customization keys the service reads; other keys are stored as text
// for the order.
const (
	CustomizationDisplayText  = "displayText"
	CustomizationLogoAssetID  = "logoAssetId"
	CustomizationWelcome      = "giftLinkWelcome"
	CustomizationContactEmail = "giftLinkContactEmail"
)

// AutoApprove is a playbook's auto-approve rule, set by a signed-in person
// (a later issue); read-only for keys.
type AutoApprove struct {
	Enabled         bool       `json:"enabled" jsonschema:"whether gifts within the limits are approved without a person"`
	PerGiftMaxCents int64      `json:"perGiftMaxCents" jsonschema:"the most one auto-approved gift may cost, in USD cents"`
	EnabledBy       string     `json:"enabledBy" jsonschema:"the user ID of the person who turned it on"`
	EnabledAt       *time.Time `json:"enabledAt" jsonschema:"when it was turned on"`
}

// On reports whether the rule approves gifts: it is set and enabled. A nil
// rule (none was ever set) is off.
func (r *AutoApprove) On() bool { return r != nil && r.Enabled }

// Campaign is a playbook, batch or single gift as every read and write
// returns it. Recipients is the roster on reads of one campaign and absent
// from lists (RecipientCount is always there).
type Campaign struct {
	ID                 string            `json:"id" jsonschema:"the campaign ID (cmp_...)"`
	Name               string            `json:"name" jsonschema:"the campaign's name"`
	Description        string            `json:"description" jsonschema:"internal description"`
	Mode               CampaignMode      `json:"mode" jsonschema:"always_on (a playbook), batch or single" schema:"enum=always_on|batch|single"`
	Status             CampaignStatus    `json:"status" jsonschema:"draft, active, paused or completed" schema:"enum=draft|active|paused|completed"`
	ProductID          string            `json:"productId" jsonschema:"the catalog gift"`
	BudgetCents        int64             `json:"budgetCents" jsonschema:"the campaign's total budget in USD cents"`
	PerPersonCents     int64             `json:"perPersonCents" jsonschema:"the most one person's gift may cost, in USD cents"`
	MaxSends           int               `json:"maxSends" jsonschema:"the most gifts the campaign sends"`
	SpentCents         int64             `json:"spentCents" jsonschema:"committed cost of gifts that are not cancelled, in USD cents (read-only)"`
	SentCount          int               `json:"sentCount" jsonschema:"gifts that are not cancelled (read-only)"`
	MonthlyBudgetCents *int64            `json:"monthlyBudgetCents" jsonschema:"a playbook's spend cap per UTC calendar month, or null"`
	SenderName         string            `json:"senderName" jsonschema:"who the gift is from"`
	SenderCompany      string            `json:"senderCompany" jsonschema:"the sender's company"`
	Message            string            `json:"message" jsonschema:"the shared note template; a person's message overrides it"`
	MeetingURL         string            `json:"meetingUrl" jsonschema:"a meeting link shown with the gift, or empty"`
	RecipientSource    RecipientSource   `json:"recipientSource" jsonschema:"manual or workflow" schema:"enum=manual|workflow"`
	RecipientCount     int               `json:"recipientCount" jsonschema:"how many people are on the roster"`
	Recipients         []Recipient       `json:"recipients,omitzero" jsonschema:"the roster in order (reads of one campaign only)"`
	Customization      map[string]string `json:"customization" jsonschema:"up to eight text fields: displayText (lettering), logoAssetId, giftLinkWelcome, giftLinkContactEmail and others for the order"`
	Attribution        gift.Attribution  `json:"attribution" jsonschema:"references to the customer's records"`
	PolicyVersion      int64             `json:"policyVersion" jsonschema:"send it back as expectedPolicyVersion on the next write"`
	RequiresPayment    bool              `json:"requiresPayment" jsonschema:"true for batch and single campaigns, which a signed-in owner or admin pays at checkout; playbooks are paid from the balance"`
	ReviewURL          string            `json:"reviewUrl" jsonschema:"the page where a signed-in person reviews the campaign and turns it on; hand it to a person"`
	AutoApprove        *AutoApprove      `json:"autoApprove,omitempty" jsonschema:"a playbook's auto-approve rule, once a signed-in person set one"`
	CreatedAt          time.Time         `json:"createdAt" jsonschema:"when the campaign was created"`
	UpdatedAt          time.Time         `json:"updatedAt" jsonschema:"when the campaign last changed"`
	// StatusChange is set by writes that moved the status (withStatusChange).
	StatusChange *StatusChange `json:"statusChange,omitempty" jsonschema:"present on a write's answer when it changed the campaign's status (an active campaign returned to draft by a key's edit: adds meet PLAYBOOK_OFF until a person turns it on at reviewUrl)"`
	// DryRun is set on update_campaign's dry run (UpdateCampaignDryRun).
	DryRun *UpdateDryRun `json:"dryRun,omitempty" jsonschema:"update_campaign's dry run: what the edit would do; nothing was saved"`
}

// CampaignInput is what create_campaign takes: the Campaign fields an agent
// sets, with the spec's bounds. Absent numbers are zero (an explicit zero
// is refused by the schema).
type CampaignInput struct {
	Name               string            `json:"name" jsonschema:"the campaign's name" schema:"minLength=1,maxLength=200"`
	Description        string            `json:"description,omitempty" jsonschema:"internal; never shown to recipients" schema:"maxLength=2000"`
	Mode               CampaignMode      `json:"mode,omitempty" jsonschema:"always_on (a playbook, preferred), batch (up to 500 people) or single" schema:"enum=always_on|batch|single,default=batch"`
	Status             CampaignStatus    `json:"status,omitempty" jsonschema:"agents create drafts only" schema:"enum=draft|active|paused|completed,default=draft"`
	ProductID          string            `json:"productId" jsonschema:"from search_gifts or browse_gifts; never invented" schema:"minLength=1,maxLength=200"`
	BudgetCents        int64             `json:"budgetCents,omitempty" jsonschema:"total budget in USD cents" schema:"minimum=1,maximum=100000000"`
	PerPersonCents     int64             `json:"perPersonCents,omitempty" jsonschema:"the most one gift may cost, at most budgetCents (playbooks: the gift's price)" schema:"minimum=1,maximum=10000000"`
	MaxSends           int               `json:"maxSends,omitempty" jsonschema:"most gifts: 1-500 for batch and single, 2000 for playbooks" schema:"minimum=1,maximum=2000"`
	MonthlyBudgetCents int64             `json:"monthlyBudgetCents,omitempty" jsonschema:"a playbook's cap per UTC month in USD cents; auto-approve needs it" schema:"minimum=100,maximum=100000000"`
	SenderName         string            `json:"senderName" jsonschema:"who the gift is from" schema:"minLength=1,maxLength=200"`
	SenderCompany      string            `json:"senderCompany" jsonschema:"the sender's company" schema:"minLength=1,maxLength=200"`
	Message            string            `json:"message,omitempty" jsonschema:"the shared note: at most 500 characters after personalization; placeholders {{firstName}}, {{name}}, {{company}}, {{custom}}; no default" schema:"maxLength=1000"`
	MeetingURL         string            `json:"meetingUrl,omitempty" jsonschema:"an http(s) link" schema:"maxLength=2000"`
	RecipientSource    RecipientSource   `json:"recipientSource,omitempty" jsonschema:"default workflow for playbooks, manual otherwise" schema:"enum=manual|workflow"`
	Recipients         []RecipientInput  `json:"recipients,omitempty" jsonschema:"batch or single: up to 500; create playbooks with none" schema:"type=array,maxItems=2000"`
	Customization      map[string]string `json:"customization,omitempty" jsonschema:"up to 8 texts of 400 characters: displayText (lettering within personalizationText), logoAssetId, giftLinkWelcome, giftLinkContactEmail" schema:"maxProperties=8,items.maxLength=400"`
	Attribution        *gift.Attribution `json:"attribution,omitempty" jsonschema:"your records' IDs; no personal data or secrets" schema:"type=object"`
	IdempotencyKey     string            `json:"idempotencyKey,omitempty" jsonschema:"the same key and body, resent, return the same campaign" schema:"minLength=8,maxLength=150"`
}

// CampaignPatch is what update_campaign takes: every Campaign field is
// optional and only supplied fields change (null is refused: leave a field
// out to keep it).
// Recipients, when supplied, is the whole new roster: people matched by
// recipientId, SourceSystem+externalId, email or profileUrl keep their
// record (the supplied fields are merged into it; a set
// SourceSystem+externalId never changes), people left out are removed, new
// people are appended. Customization, when supplied, replaces every field.
type CampaignPatch struct {
	Name               *string           `json:"name,omitempty" jsonschema:"the campaign's name" schema:"type=string,minLength=1,maxLength=200"`
	Description        *string           `json:"description,omitempty" jsonschema:"internal description; empty clears" schema:"type=string,maxLength=2000"`
	Mode               *CampaignMode     `json:"mode,omitempty" jsonschema:"always_on, batch or single" schema:"type=string,enum=always_on|batch|single"`
	Status             *CampaignStatus   `json:"status,omitempty" jsonschema:"paused or completed (final); only a signed-in person sets active" schema:"type=string,enum=draft|active|paused|completed"`
	ProductID          *string           `json:"productId,omitempty" jsonschema:"a current catalog productId" schema:"type=string,minLength=1,maxLength=200"`
	BudgetCents        *int64            `json:"budgetCents,omitempty" jsonschema:"total budget in USD cents; never below what is committed" schema:"type=integer,minimum=1,maximum=100000000"`
	PerPersonCents     *int64            `json:"perPersonCents,omitempty" jsonschema:"most one person's gift may cost, at most budgetCents" schema:"type=integer,minimum=1,maximum=10000000"`
	MaxSends           *int              `json:"maxSends,omitempty" jsonschema:"most gifts: 1-500 for batch and single, 2000 for playbooks; never below gifts sent" schema:"type=integer,minimum=1,maximum=2000"`
	MonthlyBudgetCents *int64            `json:"monthlyBudgetCents,omitempty" jsonschema:"a playbook's cap per UTC month; raising it under auto-approve needs a signed-in owner or admin" schema:"type=integer,minimum=100,maximum=100000000"`
	SenderName         *string           `json:"senderName,omitempty" jsonschema:"who the gift is from" schema:"type=string,minLength=1,maxLength=200"`
	SenderCompany      *string           `json:"senderCompany,omitempty" jsonschema:"the sender's company" schema:"type=string,minLength=1,maxLength=200"`
	Message            *string           `json:"message,omitempty" jsonschema:"the shared note; at most 500 characters after personalization; empty clears" schema:"type=string,maxLength=1000"`
	MeetingURL         *string           `json:"meetingUrl,omitempty" jsonschema:"an http(s) link; empty clears" schema:"type=string,maxLength=2000"`
	RecipientSource    *RecipientSource  `json:"recipientSource,omitempty" jsonschema:"manual or workflow" schema:"type=string,enum=manual|workflow"`
	Recipients         []RecipientInput  `json:"recipients,omitempty" jsonschema:"the whole new roster; an active playbook takes, without a version, one that keeps everyone and appends" schema:"type=array,maxItems=2000"`
	Customization      map[string]string `json:"customization,omitempty" jsonschema:"replaces every customization field (see create_campaign)" schema:"maxProperties=8,items.maxLength=400"`
	Attribution        *gift.Attribution `json:"attribution,omitempty" jsonschema:"replaces the attribution" schema:"type=object"`
	// ExpectedPolicyVersion is the campaign's policyVersion as last read;
	// keys and connections must send it (see UpdateCampaign).
	ExpectedPolicyVersion int64 `json:"expectedPolicyVersion,omitempty" jsonschema:"the policyVersion last read; keys need it" schema:"minimum=1,maximum=9007199254740991"`
}
