package web

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell/core/campaign"
)

// homeRecent is how many campaigns the home page lists.
const homeRecent = 5

// homeData is the content of the home page.
type homeData struct {
	// APIBaseURL, MCPURL and ChatGPTMCPURL are where agents connect.
	APIBaseURL, MCPURL, ChatGPTMCPURL string
	// Recent are the workspace's newest campaigns.
	Recent []campaign.Campaign
	// MoreCampaigns is set when there are more than Recent shows.
	MoreCampaigns bool
}

// home shows the workspace, its recent campaigns, and how agents connect.
// With ?queue= it is the queue page instead (every add's approvalUrl is
// {site_url}/?queue=<campaignId>).
func (h *handler) home(w http.ResponseWriter, r *http.Request, s session) {
	if r.URL.Query().Has(queueParam) {
		h.queuePage(w, r, s)
		return
	}
	h.show(w, r, s, "home", h.homeView)
}

func (h *handler) homeView(ctx context.Context, s session) (view, error) {
	list, err := h.app.Campaigns.ListCampaigns(ctx, s.Principal, "")
	if err != nil {
		return view{}, err
	}
	cfg := h.app.Config
	d := homeData{APIBaseURL: cfg.BaseURL(), MCPURL: cfg.MCPURL(), ChatGPTMCPURL: cfg.ChatGPTMCPURL()}
	d.Recent, d.MoreCampaigns = list[:min(len(list), homeRecent)], len(list) > homeRecent
	return view{Nav: "home", Data: d}, nil
}
