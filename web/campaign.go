package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// campaignsData is the content of the campaigns list page.
type campaignsData struct {
	// Campaigns are the workspace's campaigns, newest first.
	Campaigns []campaign.Campaign
}

// campaigns lists the workspace's campaigns, newest first.
func (h *handler) campaigns(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "campaigns", h.campaignsView)
}

func (h *handler) campaignsView(ctx context.Context, s session) (view, error) {
	list, err := h.app.Campaigns.ListCampaigns(ctx, s.Principal, "")
	if err != nil {
		return view{}, err
	}
	return view{Nav: "campaigns", Data: campaignsData{Campaigns: list}}, nil
}

// campaign shows one campaign: its details, roster, notes, preview and the
// decision; with ?review=1 the decision comes first.
func (h *handler) campaign(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "campaign", h.campaignLoader(r))
}

// campaignLoader reads the campaign page of the request's {id} and ?review.
func (h *handler) campaignLoader(r *http.Request) pageLoader {
	id, review := r.PathValue("id"), r.URL.Query().Get("review") == "1"
	return func(ctx context.Context, s session) (view, error) {
		d, err := h.loadCampaignPage(ctx, s.Principal, id)
		if err != nil {
			return view{}, err
		}
		d.Review = review
		return view{Nav: "campaigns", Data: d, Values: d.autoApproveValues()}, nil
	}
}

// setCampaignStatus turns the campaign on (status=active) or pauses it
// (status=paused) through core's UpdateCampaign, on the policyVersion the
// page showed, so a campaign changed since is refused (POLICY_CHANGED).
func (h *handler) setCampaignStatus(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	patch, err := statusPatch(r.PostForm.Get("status"), r.PostForm.Get("policyVersion"))
	if err == nil {
		_, err = h.app.Campaigns.UpdateCampaign(r.Context(), s.Principal, id, patch)
	}
	if err != nil {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), err)
		return
	}
	http.Redirect(w, r, "/campaigns/"+id+"?done=campaign-"+string(*patch.Status), http.StatusSeeOther)
}

// statusPatch is the status change the form asks for. The version is
// required: the page always sends the one it showed.
func statusPatch(status, version string) (campaign.CampaignPatch, error) {
	st := campaign.CampaignStatus(status)
	if st != campaign.StatusActive && st != campaign.StatusPaused {
		return campaign.CampaignPatch{}, core.Invalid("status", "must be active or paused")
	}
	v, err := strconv.ParseInt(version, 10, 64)
	if err != nil || v < 1 || v > campaign.MaxPolicyVersion {
		return campaign.CampaignPatch{}, core.Invalid("expectedPolicyVersion", "is missing; reload the page and try again")
	}
	return campaign.CampaignPatch{Status: &st, ExpectedPolicyVersion: v}, nil
}

// autoApproveFields are the auto-approve form's fields, in dollars.
var autoApproveFields = []string{"perGift", "monthlyBudget"}

// setAutoApprove turns a playbook's auto-approve on (enabled=true, with the
// limits in dollars; an empty one keeps the stored limit) or off
// (enabled=false) through core's SetAutoApprove, on the policyVersion the
// page showed.
func (h *handler) setAutoApprove(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	in, err := autoApproveForm(r.PostForm.Get("enabled"), r.PostForm.Get("perGift"), r.PostForm.Get("monthlyBudget"), r.PostForm.Get("policyVersion"))
	if err == nil {
		_, err = h.app.Approvals.SetAutoApprove(r.Context(), s.Principal, id, in)
	}
	if err != nil {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), autoApproveFormError(err), autoApproveFields...)
		return
	}
	done := "auto-approve-off"
	if in.Enabled {
		done = "auto-approve-on"
	}
	http.Redirect(w, r, "/campaigns/"+id+"?done="+done+"#auto-approve", http.StatusSeeOther)
}

// autoApproveForm reads the form: enabled is true or false, the amounts are
// US dollars (empty keeps the stored limit), the version is required. Every
// amount is read before answering: one it cannot read and one out of core's
// bounds (approval.CheckAutoApproveBounds) are named together, in the
// form's words (autoApproveFormError).
func autoApproveForm(enabled, perGift, monthly, version string) (approval.AutoApproveSettings, error) {
	var in approval.AutoApproveSettings
	switch enabled {
	case "true":
		in.Enabled = true
	case "false":
	default:
		return in, core.Invalid("enabled", "must be true or false")
	}
	v, err := strconv.ParseInt(version, 10, 64)
	if err != nil || v < 1 || v > campaign.MaxPolicyVersion {
		return in, core.Invalid("expectedPolicyVersion", "is missing; reload the page and try again")
	}
	in.ExpectedPolicyVersion = v
	var pr core.Problems
	for _, f := range []struct {
		name, value string
		dst         **int64
	}{{"perGift", perGift, &in.PerGiftMaxCents}, {"monthlyBudget", monthly, &in.MonthlyBudgetCents}} {
		if strings.TrimSpace(f.value) == "" {
			continue
		}
		cents, err := parseDollars(f.value)
		if err != nil {
			pr.AddError(dollarsInvalid(f.name, "100", err))
			continue
		}
		*f.dst = &cents
	}
	if pr.Err() == nil {
		return in, nil
	}
	if err := approval.CheckAutoApproveBounds(in); err != nil {
		// The amounts it could read, in dollars, beside those it could not.
		for _, part := range autoApproveParts(core.AsError(err)) {
			pr.Add(part.Field, "%s", part.Message)
		}
	}
	return in, pr.Err()
}

// autoApproveFormNames are the form's fields for core's cents fields.
var autoApproveFormNames = map[string]string{"perGiftMaxCents": "perGift", "monthlyBudgetCents": "monthlyBudget"}

// autoApproveParts words each limit an error of core names as the form
// shows it: the form's field and a message in dollars. A part about any
// other field is left out.
func autoApproveParts(e *core.Error) []fieldProblem {
	var out []fieldProblem
	for _, piece := range strings.Split(e.Message, "; ") {
		f, _, ok := strings.Cut(piece, ": ")
		name, known := autoApproveFormNames[f]
		if !ok || !known || !slices.Contains(e.Fields, f) || slices.ContainsFunc(out, func(p fieldProblem) bool { return p.Field == name }) {
			continue
		}
		var msg string
		switch e.Code {
		case core.CodeValidation:
			msg = map[string]string{
				"perGift": fmt.Sprintf("enter the most one gift may cost: between %s and %s, and no more than the monthly budget",
					core.Dollars(approval.MinPerGiftMaxCents), core.Dollars(approval.MaxPerGiftMaxCents)),
				"monthlyBudget": fmt.Sprintf("must be between %s and %s", core.Dollars(campaign.MinMonthlyBudgetCents), core.Dollars(campaign.MaxMonthlyBudgetCents)),
			}[name]
		case core.CodeMonthlyBudgetRequired:
			msg = map[string]string{
				"perGift":       fmt.Sprintf("enter the most one gift may cost, between %s and %s, to turn auto-approve on", core.Dollars(approval.MinPerGiftMaxCents), core.Dollars(approval.MaxPerGiftMaxCents)),
				"monthlyBudget": "enter a monthly budget to turn auto-approve on",
			}[name]
		case core.CodeTeamManagerRequired:
			msg = "only an owner or admin can raise this while auto-approve is on; you may lower it or turn auto-approve off"
		case core.CodeLimitsBelowCommitments:
			if name == "monthlyBudget" {
				msg = "is below what gifts already committed this month"
			}
		}
		if msg != "" {
			out = append(out, fieldProblem{Field: name, Message: msg})
		}
	}
	return out
}

// autoApproveFormError names the form's fields, in dollars, where core
// names the cents fields: every limit it names, with the error's code.
func autoApproveFormError(err error) error {
	e := core.AsError(err)
	if e == nil || len(e.Fields) == 0 {
		return err
	}
	if _, ok := autoApproveFormNames[e.Fields[0]]; !ok {
		return err // the form's own, or no limit's
	}
	parts := autoApproveParts(e)
	if len(parts) == 0 {
		return err
	}
	out := &core.Error{Code: e.Code, URL: e.URL, RetryAfterMs: e.RetryAfterMs}
	var msgs []string
	for _, p := range parts {
		out.Fields = append(out.Fields, p.Field)
		msgs = append(msgs, p.Field+": "+p.Message)
	}
	out.Message = strings.Join(msgs, "; ")
	return out
}
