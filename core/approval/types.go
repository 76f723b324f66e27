package approval

import (
	"time"

	"github.com/giftwell/giftwell/core/campaign"
)

// AddPersonResult is add_to_playbook's answer.
type AddPersonResult struct {
	Queued        bool                      `json:"queued" jsonschema:"true when the person is on the playbook (now or from an earlier add)"`
	RecipientID   string                    `json:"recipientId" jsonschema:"the person's roster ID"`
	AlreadyQueued bool                      `json:"alreadyQueued" jsonschema:"true when an earlier add already queued this person (matched by sourceSystem+externalId, then recipientId, email or profileUrl; an add with none of these by name and company); the person's current state is returned; a waiting person takes the fields sent and auto-approve runs again when on"`
	ApprovalURL   string                    `json:"approvalUrl" jsonschema:"the queue page for this playbook, to hand to an owner or admin"`
	Approval      campaign.PlaybookApproval `json:"approval" jsonschema:"the person's approval state"`
	// Blockers, Why and TopUpURL are set for a waiting person (explainWaiting).
	Blockers []string `json:"blockers,omitzero" jsonschema:"for a waiting person: what stops approval now, in the queue's words (as list_queue shows them); empty when an owner or admin can approve at approvalUrl"`
	Why      string   `json:"why,omitempty" jsonschema:"for a waiting person: why, and the way out"`
	TopUpURL string   `json:"topUpUrl,omitempty" jsonschema:"for a waiting person when the balance is low (get_balance's lowBalance) or their blockers include Add funds: the page where a signed-in owner or admin adds funds; hand it to a person"`
	// DryRun and PriceCents are set on a dry run's answer (AddToPlaybook).
	DryRun     bool  `json:"dryRun,omitempty" jsonschema:"true: nothing was saved; approval is what an add would reach now (no sendId; recipientId only for a person already on the playbook)"`
	PriceCents int64 `json:"priceCents,omitempty" jsonschema:"on a dry run: one gift's price in USD cents"`
	// unitCents is the gift's price, for a dry run's PriceCents; decided
	// is true when auto-approve decided Approval in this add.
	unitCents int64
	decided   bool
	// grouped is true when the person was committed scheduled for the
	// group committer (addForGroup).
	grouped bool
}

// PlaybookPersonAdd is add_to_playbook's input besides the playbook.
type PlaybookPersonAdd struct {
	Recipient campaign.RecipientInput `json:"recipient" jsonschema:"the one person this trigger is about; send sourceSystem+externalId so a resend after a timeout is safe"`
	DryRun    bool                    `json:"dryRun,omitempty" jsonschema:"true: save nothing, answer what would happen now"`
}

// QueueDecision names a waiting person for approve_gift.
type QueueDecision struct {
	CampaignID    string `json:"campaignId" jsonschema:"the playbook" schema:"minLength=1,maxLength=200"`
	RecipientID   string `json:"recipientId" jsonschema:"the waiting person" schema:"minLength=1,maxLength=200"`
	ApproveRepeat bool   `json:"approveRepeat,omitempty" jsonschema:"true to approve gifting a person who was gifted before (otherwise REPEAT_REVIEW_REQUIRED)"`
}

// QueueSkip names a waiting person for skip_gift.
type QueueSkip struct {
	CampaignID  string `json:"campaignId" jsonschema:"the playbook" schema:"minLength=1,maxLength=200"`
	RecipientID string `json:"recipientId" jsonschema:"the waiting person" schema:"minLength=1,maxLength=200"`
	Reason      string `json:"reason,omitempty" jsonschema:"why, up to 200 characters; shown in the skipped list" schema:"maxLength=200"`
}

// QueueUnskip names a skipped person for unskip_gift.
type QueueUnskip struct {
	CampaignID  string `json:"campaignId" jsonschema:"the playbook" schema:"minLength=1,maxLength=200"`
	RecipientID string `json:"recipientId" jsonschema:"the skipped person" schema:"minLength=1,maxLength=200"`
}

// SkipResult is skip_gift's and unskip_gift's answer.
type SkipResult struct {
	Skipped bool `json:"skipped" jsonschema:"whether the person is now skipped"`
}

// QueueItem is one waiting person in the approval queue, with what blocks
// their approval computed in queue order: the balance, the monthly budget
// and the playbook limits are shared by the people ahead.
type QueueItem struct {
	CampaignID   string                  `json:"campaignId" jsonschema:"the playbook"`
	CampaignName string                  `json:"campaignName" jsonschema:"its name"`
	ProductID    string                  `json:"productId" jsonschema:"the gift"`
	RecipientID  string                  `json:"recipientId" jsonschema:"the waiting person"`
	Recipient    QueuePerson             `json:"recipient" jsonschema:"who they are"`
	Message      string                  `json:"message,omitempty" jsonschema:"the note as it will be printed; absent while it cannot be resolved"`
	PriceCents   int64                   `json:"priceCents" jsonschema:"what approving costs in USD cents (priceCents + shippingCents); excludes delivery for gifts whose delivery is quoted later"`
	Blockers     []string                `json:"blockers" jsonschema:"what stops approval now, in the queue's words (Add funds, Monthly budget reached, Needs a shipping address, ...); empty when an owner or admin can approve"`
	Why          string                  `json:"why" jsonschema:"why they wait and the way out, in words for a person"`
	State        campaign.ApprovalState  `json:"state" jsonschema:"waiting or scheduled" schema:"enum=waiting|scheduled"`
	Reason       campaign.ApprovalReason `json:"reason,omitempty" jsonschema:"why the person started waiting"`
	ApprovalURL  string                  `json:"approvalUrl" jsonschema:"the queue page to hand to an owner or admin"`
	AutoApprove  *campaign.AutoApprove   `json:"autoApprove,omitempty" jsonschema:"the playbook's auto-approve rule, when one is set"`
	QueuedAt     time.Time               `json:"queuedAt" jsonschema:"when the person was added"`
	// WaitsFor is the reason behind Why: the first check that stops them
	// now, or the reason their playbook leaves them to a person. The web
	// queue groups and filters people by it.
	WaitsFor campaign.ApprovalReason `json:"-"`
	// FundsShortCents, for a person who waits only for funds, is what to
	// add to the balance to pay for everyone who does (campaign.FundsWhy's
	// amount); 0 otherwise. Emails to approvers say it (core/notify).
	FundsShortCents int64 `json:"-"`
}

// QueuePerson is who a queue item or skipped item is about.
type QueuePerson struct {
	Name    string `json:"name" jsonschema:"the person's name"`
	Company string `json:"company,omitempty" jsonschema:"their company"`
	Title   string `json:"title,omitempty" jsonschema:"their title"`
}

// SkippedItem is a person an owner or admin skipped.
type SkippedItem struct {
	CampaignID   string      `json:"campaignId" jsonschema:"the playbook"`
	CampaignName string      `json:"campaignName" jsonschema:"its name"`
	RecipientID  string      `json:"recipientId" jsonschema:"the skipped person"`
	Recipient    QueuePerson `json:"recipient" jsonschema:"who they are"`
	Reason       string      `json:"reason,omitempty" jsonschema:"why they were skipped; absent when not said"`
	SkippedAt    time.Time   `json:"skippedAt" jsonschema:"when they were skipped"`
}
