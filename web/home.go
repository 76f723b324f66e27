package web

import (
	"context"
	"net/http"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/tracking"
)

// homeRecent is how many campaigns the home page lists.
const homeRecent = 5

// homeEvents is how many recent gift events the home page lists.
const homeEvents = 5

// homeData is the content of the home page.
type homeData struct {
	// APIBaseURL, MCPURL and ChatGPTMCPURL are where agents connect.
	APIBaseURL, MCPURL, ChatGPTMCPURL string
	// Recent are the workspace's newest campaigns.
	Recent []campaign.Campaign
	// MoreCampaigns is set when there are more than Recent shows.
	MoreCampaigns bool
	// Drafts counts the draft campaigns, which wait for a decision.
	Drafts int
	// Waiting counts the people waiting in playbooks' approval queues, in
	// WaitingPlaybooks playbooks.
	Waiting, WaitingPlaybooks int
	// CanApprove: the person may approve (an owner or admin).
	CanApprove bool
	// Address counts the gifts waiting for their recipient's address.
	Address tracking.AddressWait
	// Events are the workspace's newest gift events.
	Events []homeEvent
}

// homeEvent is one recent gift event, in words.
type homeEvent struct {
	At            time.Time
	SendID        string
	RecipientName string
	Text          string
}

// Nothing reports whether nothing waits for the person.
func (d homeData) Nothing() bool { return d.Drafts == 0 && d.Waiting == 0 && d.Address.Awaiting == 0 }

// home shows the workspace, what waits for the person, recent gift events,
// recent campaigns, and how agents connect. With ?queue= it is the queue
// page instead (every add's approvalUrl is {site_url}/?queue=<campaignId>).
func (h *handler) home(w http.ResponseWriter, r *http.Request, s session) {
	if r.URL.Query().Has(queueParam) {
		h.queuePage(w, r, s)
		return
	}
	h.show(w, r, s, "home", h.homeView)
}

func (h *handler) homeView(ctx context.Context, s session) (view, error) {
	p := s.Principal
	list, err := h.app.Campaigns.ListCampaigns(ctx, p, "")
	if err != nil {
		return view{}, err
	}
	cfg := h.app.Config
	d := homeData{APIBaseURL: cfg.BaseURL(), MCPURL: cfg.MCPURL(), ChatGPTMCPURL: cfg.ChatGPTMCPURL(),
		CanApprove: core.Authorize(p, core.ActApprove, "") == nil}
	d.Recent, d.MoreCampaigns = list[:min(len(list), homeRecent)], len(list) > homeRecent
	for _, c := range list {
		if c.Status == campaign.StatusDraft {
			d.Drafts++
		}
	}
	queue, err := h.app.Approvals.Queue(ctx, p, "")
	if err != nil {
		return view{}, err
	}
	playbooks := map[string]bool{}
	for _, it := range queue {
		playbooks[it.CampaignID] = true
	}
	d.Waiting, d.WaitingPlaybooks = len(queue), len(playbooks)
	if d.Address, err = h.app.Tracking.AwaitingAddress(ctx, p, soonWindow); err != nil {
		return view{}, err
	}
	events, err := h.app.Tracking.RecentEvents(ctx, p, homeEvents)
	if err != nil {
		return view{}, err
	}
	for _, e := range events {
		d.Events = append(d.Events, homeEvent{At: e.CreatedAt, SendID: e.SendID, RecipientName: e.RecipientName, Text: eventSentence(e.EventItem)})
	}
	return view{Nav: "home", Data: d}, nil
}
