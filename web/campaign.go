package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/giftwell/giftwell/core"
)

// campaignsData is the content of the campaigns list page.
type campaignsData struct {
	// Campaigns are the workspace's campaigns, newest first.
	Campaigns []core.Campaign
}

// campaigns lists the workspace's campaigns, newest first.
func (h *handler) campaigns(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "campaigns", h.campaignsView)
}

func (h *handler) campaignsView(ctx context.Context, s session) (view, error) {
	list, err := h.app.ListCampaigns(ctx, s.Principal, "")
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
		return view{Nav: "campaigns", Data: d}, nil
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
		_, err = h.app.UpdateCampaign(r.Context(), s.Principal, id, patch)
	}
	if err != nil {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), err)
		return
	}
	http.Redirect(w, r, "/campaigns/"+id+"?done=campaign-"+string(*patch.Status), http.StatusSeeOther)
}

// statusPatch is the status change the form asks for. The version is
// required: the page always sends the one it showed.
func statusPatch(status, version string) (core.CampaignPatch, error) {
	st := core.CampaignStatus(status)
	if st != core.StatusActive && st != core.StatusPaused {
		return core.CampaignPatch{}, core.Invalid("status", "must be active or paused")
	}
	v, err := strconv.ParseInt(version, 10, 64)
	if err != nil || v < 1 || v > core.MaxPolicyVersion {
		return core.CampaignPatch{}, core.Invalid("expectedPolicyVersion", "is missing; reload the page and try again")
	}
	return core.CampaignPatch{Status: &st, ExpectedPolicyVersion: v}, nil
}
