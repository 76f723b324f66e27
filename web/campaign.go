package web

import (
	"context"
	"net/http"
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
// US dollars (empty keeps the stored limit), the version is required.
func autoApproveForm(enabled, perGift, monthly, version string) (approval.AutoApproveSettings, error) {
	var in approval.AutoApproveSettings
	switch enabled {
	case "true":
		in.Enabled = true
	case "false":
	default:
		return in, core.Invalid("enabled", "must be true or false")
	}
	for _, f := range []struct {
		name, value string
		dst         **int64
	}{{"perGift", perGift, &in.PerGiftMaxCents}, {"monthlyBudget", monthly, &in.MonthlyBudgetCents}} {
		if strings.TrimSpace(f.value) == "" {
			continue
		}
		cents, err := parseDollars(f.value)
		if err != nil {
			return in, dollarsInvalid(f.name, "100", err)
		}
		*f.dst = &cents
	}
	v, err := strconv.ParseInt(version, 10, 64)
	if err != nil || v < 1 || v > campaign.MaxPolicyVersion {
		return in, core.Invalid("expectedPolicyVersion", "is missing; reload the page and try again")
	}
	in.ExpectedPolicyVersion = v
	return in, nil
}

// autoApproveFormError names the form's fields, in dollars, where core
// names the cents fields.
func autoApproveFormError(err error) error {
	e := core.AsError(err)
	if len(e.Fields) == 0 {
		return err
	}
	switch {
	case e.Code == core.CodeValidation && e.Fields[0] == "perGiftMaxCents":
		return core.Invalid("perGift", "enter the most one gift may cost: between %s and %s, and no more than the monthly budget",
			core.Dollars(approval.MinPerGiftMaxCents), core.Dollars(approval.MaxPerGiftMaxCents))
	case e.Code == core.CodeValidation && e.Fields[0] == "monthlyBudgetCents":
		return core.Invalid("monthlyBudget", "must be between %s and %s", core.Dollars(campaign.MinMonthlyBudgetCents), core.Dollars(campaign.MaxMonthlyBudgetCents))
	case e.Code == core.CodeMonthlyBudgetRequired:
		return &core.Error{Code: e.Code, Fields: []string{"monthlyBudget"}, Message: "monthlyBudget: enter a monthly budget to turn auto-approve on"}
	case e.Code == core.CodeTeamManagerRequired && (e.Fields[0] == "perGiftMaxCents" || e.Fields[0] == "monthlyBudgetCents"):
		field := map[string]string{"perGiftMaxCents": "perGift", "monthlyBudgetCents": "monthlyBudget"}[e.Fields[0]]
		return &core.Error{Code: e.Code, Fields: []string{field}, Message: field +
			": only an owner or admin can raise this while auto-approve is on; you may lower it or turn auto-approve off"}
	case e.Code == core.CodeLimitsBelowCommitments && e.Fields[0] == "monthlyBudgetCents":
		return &core.Error{Code: e.Code, Fields: []string{"monthlyBudget"}, Message: "monthlyBudget: is below what gifts already committed this month"}
	}
	return err
}
