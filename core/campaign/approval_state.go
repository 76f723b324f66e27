package campaign

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

// stateMeanings say what each approval state means for the agent that
// added the person: who has paid, and what comes next. The guide's
// giftwell://guide/approval resource and the add_people_to_playbook prompt
// show them.
var stateMeanings = map[ApprovalState]string{
	ApprovalAutoApproved: "Paid: auto-approve paid for the gift from the balance when the person was added; sendId is the gift. Nothing more to do.",
	ApprovalScheduled:    "Not paid yet: the add met another approval, so auto-approve decides in the background within moments. The person then becomes auto_approved, or waiting with a reason (the balance, the monthly budget or a limit may run out first). Never report a scheduled gift as paid; add the same person again later (alreadyQueued answers their current state) or read list_queue.",
	ApprovalWaiting:      "Not paid and nothing charged: a signed-in owner or admin must approve at approvalUrl. reason says why the person started waiting; blockers say what still stops approval (Add funds: hand topUpUrl to an owner or admin). Adding the same person again with missing fields fills them.",
	ApprovalApproved:     "Paid: a signed-in owner or admin approved the gift, charged to the balance; sendId is the gift.",
	ApprovalSkipped:      "No gift: an owner or admin skipped the person; they are never counted as owed, and adding them again returns RECIPIENT_SKIPPED.",
}

// stateOrder is the order the guide and prompts list the states in.
var stateOrder = []ApprovalState{ApprovalAutoApproved, ApprovalScheduled, ApprovalWaiting, ApprovalApproved, ApprovalSkipped}

// ApprovalStates returns every approval state in a fixed order.
func ApprovalStates() []ApprovalState { return append([]ApprovalState(nil), stateOrder...) }

// Meaning says what state s means for the agent that added the person.
func (s ApprovalState) Meaning() string { return stateMeanings[s] }
