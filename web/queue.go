package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/ledger"
)

// The queue page, {site_url}/?queue=<campaignId> (every add's approvalUrl):
// the waiting people of one playbook, or of the whole workspace with
// ?queue=, with their blockers; a signed-in owner or admin approves or
// skips one or many, and unskips the recently skipped.

// queueParam is the home route's query parameter that opens the queue page.
const queueParam = "queue"

// maxQueueDecisions is the most people one queue form may decide on, the
// size of a page of list_queue.
const maxQueueDecisions = core.MaxPageLimit

// queueSkippedShown is how many of the skipped people the page lists.
const queueSkippedShown = 50

// queueData is the content of the queue page.
type queueData struct {
	// CampaignID is the playbook the page is about; "" is the whole workspace.
	CampaignID string
	// Campaign is that playbook; nil for the whole workspace.
	Campaign *campaign.Campaign
	// Items are the waiting people in queue order, all of them.
	Items []approval.QueueItem
	// Groups are the people under the filter by playbook, with the people
	// of this page (queueGroups).
	Groups []*queueGroup
	// Filters are the "Show" choices; Reason is the chosen one ("" = all).
	Filters []queueFilter
	Reason  string
	// Page and Pages page the people; PrevURL and NextURL are "" at the ends.
	Page, Pages      int
	PrevURL, NextURL string
	// Skipped are the newest skipped people, at most queueSkippedShown.
	Skipped []approval.SkippedItem
	// MoreSkipped counts the skipped people not listed.
	MoreSkipped int
	// Balance is the balance of the workspace's mode.
	Balance ledger.Balance
	// CanDecide shows the checkboxes and buttons: a signed-in owner or admin.
	CanDecide bool
	// Flash is what the last queue form did, after its redirect.
	Flash *queueNotice
	// MaxSkipReason bounds the skip reason inputs.
	MaxSkipReason int
	// Products are the waiting people's gifts by product ID (pictures.go).
	Products map[string]*catalog.Product
}

// Workspace reports whether the page lists the whole workspace's queue.
func (d queueData) Workspace() bool { return d.Campaign == nil }

// NeedsFunds reports whether anyone waits for funds ("Add funds").
func (d queueData) NeedsFunds() bool {
	for _, it := range d.Items {
		if isTopUpBlocker(it.Blockers) {
			return true
		}
	}
	return false
}

// FundsWhy is what the page says when people wait for funds: how much to
// add (the queue's own sentence), or "".
func (d queueData) FundsWhy() string {
	for _, it := range d.Items {
		if it.WaitsFor == campaign.ReasonLowBalance {
			return it.Why
		}
	}
	return ""
}

// GroupConfirm is the confirmation of approving all of group g: how many
// people, the total, and the balance before and after.
func (d queueData) GroupConfirm(g *queueGroup) string {
	gifts := plural(g.People, "gift", "gifts")
	bal := d.Balance.Cents
	if g.Cents <= bal {
		return fmt.Sprintf("Approve %s for %s, paid from the balance? The balance is %s now and %s after.",
			gifts, core.Dollars(g.Cents), core.Dollars(bal), core.Dollars(bal-g.Cents))
	}
	return fmt.Sprintf("Approve %s for %s, paid from the balance? The balance is %s, so only the gifts it covers are approved, in queue order; add %s to approve them all.",
		gifts, core.Dollars(g.Cents), core.Dollars(bal), core.Dollars(g.Cents-bal))
}

// GroupSkipConfirm is the confirmation of skipping all of group g.
func (d queueData) GroupSkipConfirm(g *queueGroup) string {
	return fmt.Sprintf("Skip %s on %s? Nothing is charged; you can unskip them later.", plural(g.People, "person", "people"), g.CampaignName)
}

// plural is "1 gift" or "n gifts".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// IsRepeat reports whether blockers ask to approve a repeat gift, so the
// row offers "Approve the repeat".
func (queueData) IsRepeat(blockers []string) bool {
	return hasBlocker(blockers, campaign.ReasonRepeatReview.Blocker())
}

// isTopUpBlocker reports whether blockers include "Add funds".
func isTopUpBlocker(blockers []string) bool {
	return hasBlocker(blockers, campaign.ReasonLowBalance.Blocker())
}

func hasBlocker(blockers []string, text string) bool {
	for _, b := range blockers {
		if b == text {
			return true
		}
	}
	return false
}

// queuePage shows the queue page: /?queue=<campaignId>, or /?queue= for
// the whole workspace. It shows the flash of the queue form that redirected
// here once, then clears it.
func (h *handler) queuePage(w http.ResponseWriter, r *http.Request, s session) {
	scope := r.URL.Query().Get(queueParam)
	flash := h.takeQueueFlash(w, r, s, scope)
	h.show(w, r, s, "queue", func(ctx context.Context, s session) (view, error) {
		d, err := h.loadQueuePage(ctx, s.Principal, scope)
		if err != nil {
			return view{}, err
		}
		d.Reason = r.URL.Query().Get("reason")
		d.Page, _ = strconv.Atoi(r.URL.Query().Get("page"))
		d.Page = max(d.Page, 1)
		d.Groups, d.Filters, d.Pages = groupQueue(d.Items, d.Reason, d.Page)
		if d.Page > d.Pages {
			d.Page = d.Pages
			d.Groups, d.Filters, d.Pages = groupQueue(d.Items, d.Reason, d.Page)
		}
		if d.Page > 1 {
			d.PrevURL = queuePageURL(scope, d.Reason, d.Page-1)
		}
		if d.Page < d.Pages {
			d.NextURL = queuePageURL(scope, d.Reason, d.Page+1)
		}
		if flash != nil {
			d.Flash = flash.notice(d)
		}
		return view{Nav: "queue", Data: d}, nil
	})
}

// loadQueuePage reads the queue page of playbook id ("" = the workspace) for p.
func (h *handler) loadQueuePage(ctx context.Context, p core.Principal, id string) (queueData, error) {
	d := queueData{CampaignID: id, MaxSkipReason: approval.MaxSkipReason, CanDecide: core.Authorize(p, core.ActApprove, "") == nil}
	if id != "" {
		c, err := h.app.Campaigns.GetCampaign(ctx, p, id)
		if err != nil {
			return queueData{}, err
		}
		d.Campaign = &c
	}
	var err error
	if d.Items, err = h.app.Approvals.Queue(ctx, p, id); err != nil {
		return queueData{}, err
	}
	if d.Products, err = h.queueProducts(ctx, d.Items); err != nil {
		return queueData{}, err
	}
	skipped, err := h.app.Approvals.SkippedPeople(ctx, p, id)
	if err != nil {
		return queueData{}, err
	}
	d.Skipped, d.MoreSkipped = skipped[:min(len(skipped), queueSkippedShown)], max(0, len(skipped)-queueSkippedShown)
	if d.Balance, err = h.app.Approvals.Balance(ctx, p); err != nil {
		return queueData{}, err
	}
	return d, nil
}

// queueAction is what a queue form asks core to do with one person.
type queueAction string

// The queue forms' actions.
const (
	queueApprove queueAction = "approve"
	queueSkip    queueAction = "skip"
	queueUnskip  queueAction = "unskip"
)

// queuePerson names one person of a queue form: a playbook and a roster ID.
type queuePerson struct {
	CampaignID  string
	RecipientID string
}

// approveQueued approves the people the form names (POST /queue/approve).
func (h *handler) approveQueued(w http.ResponseWriter, r *http.Request, s session) {
	h.decideQueued(w, r, s, queueApprove)
}

// skipQueued skips the people the form names (POST /queue/skip).
func (h *handler) skipQueued(w http.ResponseWriter, r *http.Request, s session) {
	h.decideQueued(w, r, s, queueSkip)
}

// unskipQueued unskips the people the form names (POST /queue/unskip).
func (h *handler) unskipQueued(w http.ResponseWriter, r *http.Request, s session) {
	h.decideQueued(w, r, s, queueUnskip)
}

// decideQueued runs one core call per person the form names, in the
// form's order (the queue's), and goes back to the queue page the form was
// on with a flash of what happened (post, redirect, get). Core decides each
// person; an error about one person does not stop the others.
func (h *handler) decideQueued(w http.ResponseWriter, r *http.Request, s session, act queueAction) {
	if !h.parseForm(w, r) {
		return
	}
	f := r.PostForm
	scope := strings.TrimSpace(f.Get(queueParam))
	flash := queueFlash{Action: act, Scope: scope}
	people, problem := queuePeople(f)
	if problem != "" {
		flash.Problem = problem
		h.backToQueue(w, r, s, flash)
		return
	}
	names := h.queueNames(r.Context(), s.Principal, act, scope)
	for _, who := range people {
		name, cents, err := h.decideOne(r.Context(), s.Principal, act, who, f)
		if err == nil {
			if name == "" {
				name = names[who]
			}
			flash.decided(name, cents)
			continue
		}
		if core.ErrorCode(err) == core.CodeAuthRequired {
			h.clearSessionCookie(w)
			h.toLogin(w, r)
			return
		}
		flash.Failed = append(flash.Failed, queueFailure{
			CampaignID: who.CampaignID, RecipientID: who.RecipientID, Message: h.problemFor(r, err).Message,
			TopUp: core.ErrorCode(err) == core.CodeInsufficientBalance,
		})
	}
	h.backToQueue(w, r, s, flash)
}

// queueNames names the people a skip or unskip form may name, for its
// flash: the waiting people of scope, or the skipped ones. An approval
// needs none: its gift names the person.
func (h *handler) queueNames(ctx context.Context, p core.Principal, act queueAction, scope string) map[queuePerson]string {
	names := map[queuePerson]string{}
	switch act {
	case queueUnskip:
		if items, err := h.app.Approvals.SkippedPeople(ctx, p, scope); err == nil {
			for _, it := range items {
				names[queuePerson{it.CampaignID, it.RecipientID}] = it.Recipient.Name
			}
		}
	case queueSkip:
		if items, err := h.app.Approvals.Queue(ctx, p, scope); err == nil {
			for _, it := range items {
				names[queuePerson{it.CampaignID, it.RecipientID}] = it.Recipient.Name
			}
		}
	}
	return names
}

// decideOne asks core to do act with one person; an approval answers the
// person's name and what it took from the balance.
func (h *handler) decideOne(ctx context.Context, p core.Principal, act queueAction, who queuePerson, f url.Values) (name string, cents int64, err error) {
	switch act {
	case queueApprove:
		var g gift.Gift
		g, err = h.app.Approvals.ApproveGift(ctx, p, approval.QueueDecision{
			CampaignID: who.CampaignID, RecipientID: who.RecipientID, ApproveRepeat: f.Get("approve_repeat") == "1",
		})
		name, cents = g.Recipient.Name, g.TotalCents
	case queueSkip:
		_, err = h.app.Approvals.SkipGift(ctx, p, approval.QueueSkip{CampaignID: who.CampaignID, RecipientID: who.RecipientID, Reason: f.Get("reason")})
	case queueUnskip:
		_, err = h.app.Approvals.UnskipGift(ctx, p, approval.QueueUnskip{CampaignID: who.CampaignID, RecipientID: who.RecipientID})
	}
	return name, cents, err
}

// backToQueue stores the flash and redirects to the queue page the form was on.
func (h *handler) backToQueue(w http.ResponseWriter, r *http.Request, s session, flash queueFlash) {
	h.putQueueFlash(w, s, flash)
	http.Redirect(w, r, queuePath(flash.Scope), http.StatusSeeOther)
}

// queuePath is the address of the queue page of playbook id ("" = the workspace).
func queuePath(id string) string { return "/?" + queueParam + "=" + url.QueryEscape(id) }

// queuePeople reads the people a queue form names, without repeats, in the
// form's order: each ticked checkbox sends person=<campaignId>/<recipientId>
// (a checkbox carries one value), and a row's own form sends campaign_id and
// recipient_id, repeatable and paired by position. It returns a sentence
// for the person instead when the form names nobody, more than
// maxQueueDecisions people, or unpaired IDs.
func queuePeople(f url.Values) ([]queuePerson, string) {
	var people []queuePerson
	seen := map[queuePerson]bool{}
	add := func(c, rcp string) {
		p := queuePerson{CampaignID: strings.TrimSpace(c), RecipientID: strings.TrimSpace(rcp)}
		if !seen[p] {
			seen[p] = true
			people = append(people, p)
		}
	}
	for _, v := range f["person"] {
		c, rcp, _ := strings.Cut(v, "/")
		add(c, rcp)
	}
	cs, rs := f["campaign_id"], f["recipient_id"]
	if len(cs) != len(rs) {
		return nil, "The form named playbooks and people that do not pair up, so nothing was changed. Reload the page and try again."
	}
	for i := range cs {
		add(cs[i], rs[i])
	}
	switch {
	case len(people) == 0:
		return nil, "Tick at least one person first; nothing was changed."
	case len(people) > maxQueueDecisions:
		return nil, fmt.Sprintf("Choose at most %d people at a time; nothing was changed.", maxQueueDecisions)
	}
	return people, ""
}
