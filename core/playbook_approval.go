package core

// ApprovalState is a playbook person's approval state (PlaybookApproval.state).
type ApprovalState string

// The approval states of the spec's "Playbook approval state of a person".
const (
	// ApprovalAutoApproved: auto-approve paid for the gift when the person was added.
	ApprovalAutoApproved ApprovalState = "auto_approved"
	// ApprovalWaiting: the person waits for a signed-in owner or admin; see the reason.
	ApprovalWaiting ApprovalState = "waiting"
	// ApprovalScheduled: auto-approve decides in the background, usually within minutes.
	ApprovalScheduled ApprovalState = "scheduled"
	// ApprovalApproved: a signed-in owner or admin approved the gift.
	ApprovalApproved ApprovalState = "approved"
	// ApprovalSkipped: an owner or admin skipped the person.
	ApprovalSkipped ApprovalState = "skipped"
)

// PlaybookApproval is what happened to a person added to a playbook.
type PlaybookApproval struct {
	State  ApprovalState  `json:"state" jsonschema:"auto_approved (paid from the balance), waiting (see reason; hand approvalUrl to an owner or admin), scheduled (auto-approve decides within minutes), approved or skipped" schema:"enum=auto_approved|waiting|scheduled|approved|skipped"`
	Reason ApprovalReason `json:"reason,omitempty" jsonschema:"why a waiting person waits; get_workflow_guide's approvalReasons explains each"`
	SendID string         `json:"sendId,omitempty" jsonschema:"the gift, once approved"`
}

// AddPersonResult is add_to_playbook's answer.
type AddPersonResult struct {
	Queued        bool             `json:"queued" jsonschema:"true when the person is on the playbook (now or from an earlier add)"`
	RecipientID   string           `json:"recipientId" jsonschema:"the person's roster ID"`
	AlreadyQueued bool             `json:"alreadyQueued" jsonschema:"true when an earlier add already queued this person (matched by sourceSystem+externalId, then recipientId, email or profileUrl); nothing new was saved"`
	ApprovalURL   string           `json:"approvalUrl" jsonschema:"the queue page for this playbook, to hand to an owner or admin"`
	Approval      PlaybookApproval `json:"approval" jsonschema:"the person's approval state"`
}

// QueueURL is the queue page of a playbook ({site_url}/?queue=<campaign_id>),
// every add's approvalUrl.
func (c Config) QueueURL(campaignID string) string { return c.SiteURL + "/?queue=" + campaignID }
