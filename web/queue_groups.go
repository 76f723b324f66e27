package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// The queue page groups waiting people by playbook, each group with its
// count, its total and why its people wait, and pages the people so that a
// queue of any size stays a small page. A group is decided at once ("Approve
// all N") behind one confirmation.

// queuePageSize is how many people one queue page lists, over all groups.
const queuePageSize = 100

// queueGroup is one playbook's waiting people on the queue page.
type queueGroup struct {
	CampaignID   string
	CampaignName string
	// People and Cents count every waiting person of the group (under the
	// filter), not only those this page lists.
	People int
	Cents  int64
	// Causes count the people by why they wait, most first.
	Causes []queueCause
	// Items are the people this page lists.
	Items []approval.QueueItem
}

// queueCause is how many people wait for one reason.
type queueCause struct {
	Reason campaign.ApprovalReason
	Words  string
	People int
}

// queueFilter is one choice of the page's "Show" filter.
type queueFilter struct {
	Reason   campaign.ApprovalReason
	Words    string
	People   int
	Selected bool
}

// reasonWords names each reason in a few plain words, for the filter and
// the groups' counts ("36 wait for funds").
var reasonWords = map[campaign.ApprovalReason]string{
	campaign.ReasonAutoApproveOff:          "auto-approve is off",
	campaign.ReasonLowBalance:              "waiting for funds",
	campaign.ReasonShippingQuote:           "delivery priced per address",
	campaign.ReasonOverPerGiftLimit:        "over the per-gift limit",
	campaign.ReasonBudgetCap:               "monthly budget",
	campaign.ReasonPlaybookBudget:          "playbook budget reached",
	campaign.ReasonSendLimit:               "send limit reached",
	campaign.ReasonRepeatReview:            "gifted before",
	campaign.ReasonDetailsRequired:         "gift details missing",
	campaign.ReasonPersonalizationRequired: "lettering unfinished",
	campaign.ReasonArtworkRequired:         "artwork missing",
	campaign.ReasonNoteRequired:            "note unfinished",
	campaign.ReasonPortraitRequired:        "photo missing",
	campaign.ReasonAdultConfirmation:       "age not confirmed",
	campaign.ReasonAddressRequired:         "address missing",
	campaign.ReasonGiftUnavailable:         "gift unavailable",
	campaign.ReasonProductUnverified:       "gift not verified",
	campaign.ReasonNeedsReview:             "needs a look",
}

// ready is the cause of people nothing stops.
const readyWords = "ready to approve"

// causeWords names reason r ("" = nothing stops the person).
func causeWords(r campaign.ApprovalReason) string {
	if w, ok := reasonWords[r]; ok {
		return w
	}
	return readyWords
}

// groupQueue groups items (in queue order) by playbook, in the order each
// playbook's first person comes, keeping only those who wait for reason
// when it is set ("ready" for people nothing stops), and lists the people
// of page (from 1) of queuePageSize. It returns the groups, the filter's
// choices over all items, and the number of pages.
func groupQueue(items []approval.QueueItem, reason string, page int) ([]*queueGroup, []queueFilter, int) {
	counts := map[string]int{}
	var order []campaign.ApprovalReason
	for _, it := range items {
		k := string(it.WaitsFor)
		if counts[k] == 0 {
			order = append(order, it.WaitsFor)
		}
		counts[k]++
	}
	filters := make([]queueFilter, 0, len(order))
	for _, r := range order {
		filters = append(filters, queueFilter{Reason: r, Words: causeWords(r), People: counts[string(r)], Selected: filterKey(r) == reason})
	}
	slices.SortStableFunc(filters, func(a, b queueFilter) int { return b.People - a.People })

	groups := []*queueGroup{}
	byID := map[string]*queueGroup{}
	shown, first := 0, (max(page, 1)-1)*queuePageSize
	for _, it := range items {
		if reason != "" && filterKey(it.WaitsFor) != reason {
			continue
		}
		g := byID[it.CampaignID]
		if g == nil {
			g = &queueGroup{CampaignID: it.CampaignID, CampaignName: it.CampaignName}
			byID[it.CampaignID] = g
			groups = append(groups, g)
		}
		g.People++
		g.Cents += it.PriceCents
		if i := slices.IndexFunc(g.Causes, func(c queueCause) bool { return c.Reason == it.WaitsFor }); i >= 0 {
			g.Causes[i].People++
		} else {
			g.Causes = append(g.Causes, queueCause{Reason: it.WaitsFor, Words: causeWords(it.WaitsFor), People: 1})
		}
		if shown >= first && shown < first+queuePageSize {
			g.Items = append(g.Items, it)
		}
		shown++
	}
	for _, g := range groups {
		slices.SortStableFunc(g.Causes, func(a, b queueCause) int { return b.People - a.People })
	}
	return groups, filters, max(1, (shown+queuePageSize-1)/queuePageSize)
}

// filterKey is reason r as the filter's query value: "ready" for people
// nothing stops.
func filterKey(r campaign.ApprovalReason) string {
	if r == "" {
		return "ready"
	}
	return string(r)
}

// reasonOfFilter is the reason a filter value selects ("" for ready or none).
func reasonOfFilter(v string) campaign.ApprovalReason {
	if v == "ready" {
		return ""
	}
	return campaign.ApprovalReason(v)
}

// queuePageURL is the address of page n of the queue page of scope under
// filter reason.
func queuePageURL(scope, reason string, n int) string {
	v := url.Values{queueParam: {scope}}
	if reason != "" {
		v.Set("reason", reason)
	}
	if n > 1 {
		v.Set("page", strconv.Itoa(n))
	}
	return "/?" + v.Encode()
}

// approveGroup approves everyone of one group the confirmation named
// (POST /queue/approve-group).
func (h *handler) approveGroup(w http.ResponseWriter, r *http.Request, s session) {
	h.decideGroup(w, r, s, queueApprove)
}

// skipGroup skips everyone of one group (POST /queue/skip-group).
func (h *handler) skipGroup(w http.ResponseWriter, r *http.Request, s session) {
	h.decideGroup(w, r, s, queueSkip)
}

// decideGroup reads a group confirmation (campaign_id, the filter's reason,
// and the people and cents it stated), has core decide the group and goes
// back to the queue page with one sentence saying who, whom and how much.
func (h *handler) decideGroup(w http.ResponseWriter, r *http.Request, s session, act queueAction) {
	if !h.parseForm(w, r) {
		return
	}
	f := r.PostForm
	scope := strings.TrimSpace(f.Get(queueParam))
	flash := queueFlash{Action: act, Scope: scope}
	g := approval.GroupDecision{CampaignID: strings.TrimSpace(f.Get("campaign_id")), SkipReason: f.Get("reason_text")}
	if v, ok := f["reason"]; ok && v[0] != "" {
		only := reasonOfFilter(v[0])
		g.Only = &only
	}
	people, perr := strconv.Atoi(f.Get("people"))
	cents, cerr := strconv.ParseInt(f.Get("cents"), 10, 64)
	if perr != nil || cerr != nil || people < 1 || cents < 0 {
		flash.Problem = "The confirmation did not say how many people and how much, so nothing was changed. Reload the page and try again."
		h.backToQueue(w, r, s, flash)
		return
	}
	g.People, g.Cents = people, cents
	var res approval.GroupResult
	var err error
	if act == queueApprove {
		res, err = h.app.Approvals.ApproveGroup(r.Context(), s.Principal, g)
	} else {
		res, err = h.app.Approvals.SkipGroup(r.Context(), s.Principal, g)
	}
	if err != nil {
		if core.ErrorCode(err) == core.CodeAuthRequired {
			h.clearSessionCookie(w)
			h.toLogin(w, r)
			return
		}
		flash.Problem = h.problemFor(r, err).Message
		h.backToQueue(w, r, s, flash)
		return
	}
	flash.Done, flash.Cents, flash.Text = res.Decided, res.Cents, groupSummary(act, res)
	h.backToQueue(w, r, s, flash)
}

// groupSummary says what a group decision did: "Approved 120 gifts for
// Closed-won thank-you, $4,188 from the balance; 3 still wait: 2 not enough
// funds, 1 the note is unfinished."
func groupSummary(act queueAction, res approval.GroupResult) string {
	var out string
	if act == queueApprove {
		out = fmt.Sprintf("Approved %s for %s, %s from the balance", plural(res.Decided, "gift", "gifts"), res.CampaignName, core.Dollars(res.Cents))
	} else {
		out = fmt.Sprintf("Skipped %s on %s", plural(res.Decided, "person", "people"), res.CampaignName)
	}
	if n := res.Waiting(); n > 0 {
		causes := make([]string, 0, len(res.Left))
		for _, l := range res.Left {
			causes = append(causes, fmt.Sprintf("%d %s", l.People, l.Cause))
		}
		if len(res.Left) == 1 {
			causes[0] = res.Left[0].Cause
		}
		out += fmt.Sprintf("; %d still %s: %s", n, map[bool]string{true: "waits", false: "wait"}[n == 1], strings.Join(causes, ", "))
	}
	return out + "."
}
