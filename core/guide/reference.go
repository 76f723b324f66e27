package guide

import (
	"github.com/giftwell/giftwell/core/campaign"
)

// ApprovalState is one approval state of a playbook person and what it
// means for the agent that added them.
type ApprovalState struct {
	State   string
	Meaning string
}

// ApprovalStates lists every approval state in the guide's order with its
// meaning: the giftwell://guide/approval resource (the
// add_people_to_playbook prompt prints the same texts).
func ApprovalStates() []ApprovalState {
	var out []ApprovalState
	for _, s := range campaign.ApprovalStates() {
		out = append(out, ApprovalState{State: string(s), Meaning: s.Meaning()})
	}
	return out
}
