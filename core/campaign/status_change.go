package campaign

import "fmt"

// StatusChange tells the caller of a write that the campaign's status moved
// (Campaign.statusChange): most of all a key's content edit that returns an
// active campaign to draft, after which a playbook's adds meet PLAYBOOK_OFF
// until a signed-in person turns it on again at reviewUrl.
type StatusChange struct {
	From      CampaignStatus `json:"from" jsonschema:"the status before the write" schema:"enum=draft|active|paused|completed"`
	To        CampaignStatus `json:"to" jsonschema:"the status after it" schema:"enum=draft|active|paused|completed"`
	ReviewURL string         `json:"reviewUrl" jsonschema:"the review page, where a signed-in person turns the campaign on again; hand it to a person"`
	Message   string         `json:"message" jsonschema:"what the change means for the next step"`
}

// withStatusChange sets out.StatusChange when the write moved the campaign
// from status from; a write that kept its status leaves it absent.
func (a *Service) withStatusChange(from CampaignStatus, out *Campaign) {
	if out.ID == "" || from == out.Status {
		return
	}
	sc := &StatusChange{From: from, To: out.Status, ReviewURL: a.Config.ReviewURL(out.ID)}
	switch {
	case from == StatusActive && out.Status == StatusDraft && out.Mode.Playbook():
		sc.Message = "the edit returned the playbook to draft for review: adds now get PLAYBOOK_OFF and nobody is auto-approved until a signed-in teammate turns it on at reviewUrl"
	case from == StatusActive && out.Status == StatusDraft:
		sc.Message = "the edit returned the campaign to draft for review: a signed-in owner or admin reviews it at reviewUrl and pays again at checkout"
	case out.Status == StatusActive:
		sc.Message = "the campaign is on"
	default:
		sc.Message = fmt.Sprintf("the campaign is %s; a signed-in teammate turns it on at reviewUrl", out.Status)
	}
	out.StatusChange = sc
}
