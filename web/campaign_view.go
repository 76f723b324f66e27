package web

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
)

// campaignData is the content of one campaign's page.
type campaignData struct {
	// Campaign is the campaign with its roster; each person's note is
	// resolved by core (ResolvedMessage, or NoteProblem).
	Campaign campaign.Campaign
	// Gift is the campaign's catalog product; nil when the catalog no
	// longer has it.
	Gift *catalog.Product
	// Preview is core's preview: prices, blockers and requirements.
	Preview campaign.Preview
	// Review puts the decision first (?review=1).
	Review bool
	// CanRaiseAutoApprove: the person may turn auto-approve on or raise
	// its limits (an owner or admin); anyone signed in may lower them.
	CanRaiseAutoApprove bool
	// Gifts are the campaign's newest gifts (at most campaignGiftsShown)
	// with their links.
	Gifts []giftRow
	// MoreGifts is set when the campaign has more gifts than Gifts.
	MoreGifts bool
	// CanPay offers Pay and launch (a signed-in owner or admin).
	CanPay bool
	// CheckoutKey is the Pay and launch form's idempotency key, fresh per
	// page: submitting the same form twice opens one checkout.
	CheckoutKey string
	// Waiting are a playbook's people in the approval queue, in queue
	// order, each with why they wait; WaitingCents is what approving all
	// of them would take.
	Waiting      []approval.QueueItem
	WaitingCents int64
	// Totals count the campaign's gifts and their money by core's one
	// definition of each figure (gift.Totals).
	Totals gift.Totals
	// why is each waiting person's why, by recipient ID.
	why map[string]string
}

// PersonState is a playbook person's state in plain words: waiting and
// why, approved (by auto-approve or a person), skipped, or "".
func (d campaignData) PersonState(r campaign.Recipient) string {
	if r.Approval == nil {
		return ""
	}
	switch r.Approval.State {
	case campaign.ApprovalWaiting:
		if w := d.why[r.RecipientID]; w != "" {
			return "Waiting: " + w
		}
		return "Waiting for approval"
	case campaign.ApprovalScheduled:
		return "Auto-approve is deciding now"
	case campaign.ApprovalAutoApproved:
		return "Approved by auto-approve"
	case campaign.ApprovalApproved:
		return "Approved by a person"
	case campaign.ApprovalSkipped:
		return "Skipped"
	}
	return ""
}

// loadCampaignPage reads campaign id, its gift, its preview and its newest
// gifts for p.
func (h *handler) loadCampaignPage(ctx context.Context, p core.Principal, id string) (campaignData, error) {
	c, err := h.app.Campaigns.GetCampaign(ctx, p, id)
	if err != nil {
		return campaignData{}, err
	}
	pv, err := h.app.Campaigns.PreviewCampaign(ctx, p, id)
	if err != nil {
		return campaignData{}, err
	}
	d := campaignData{Campaign: c, Preview: pv, CanRaiseAutoApprove: core.Authorize(p, core.ActRaiseAutoApprove, "") == nil,
		CanPay: core.Authorize(p, core.ActPay, "") == nil, CheckoutKey: "web-" + core.RandomHex(16)}
	if d.Gifts, d.MoreGifts, err = h.loadCampaignGifts(ctx, p, id); err != nil {
		return campaignData{}, err
	}
	if d.Totals, err = h.app.Gifts.CampaignTotals(ctx, p, id); err != nil {
		return campaignData{}, err
	}
	if c.Mode.Playbook() {
		if d.Waiting, err = h.app.Approvals.Queue(ctx, p, id); err != nil {
			return campaignData{}, err
		}
		d.why = make(map[string]string, len(d.Waiting))
		for _, it := range d.Waiting {
			d.WaitingCents += it.PriceCents
			d.why[it.RecipientID] = it.Why
		}
	}
	if g, err := h.app.Catalog.Get(ctx, c.ProductID); err == nil {
		d.Gift = &g
	} else if core.ErrorCode(err) != core.CodeNotFound {
		return campaignData{}, err
	}
	return d, nil
}

// Kind is the campaign's kind in words: Playbook, Batch or Single gift.
func (d campaignData) Kind() string { return kindName(d.Campaign.Mode) }

// CanTurnOn reports whether the page offers turning the campaign on: a
// draft or paused playbook, or any paused campaign (core decides again).
func (d campaignData) CanTurnOn() bool {
	c := d.Campaign
	return c.Status == campaign.StatusPaused || (c.Mode.Playbook() && c.Status == campaign.StatusDraft)
}

// CanPause reports whether the page offers pausing: an active campaign.
func (d campaignData) CanPause() bool { return d.Campaign.Status == campaign.StatusActive }

// NeedsCheckout reports whether the campaign is a draft batch or single
// gift, which is turned on by paying at checkout (Pay and launch).
func (d campaignData) NeedsCheckout() bool {
	return !d.Campaign.Mode.Playbook() && d.Campaign.Status == campaign.StatusDraft
}

// AutoApproveOn reports whether the playbook's auto-approve is on.
func (d campaignData) AutoApproveOn() bool {
	return d.Campaign.AutoApprove != nil && d.Campaign.AutoApprove.Enabled
}

// AutoApproveRule says the playbook's auto-approve rule in words.
func (d campaignData) AutoApproveRule() string {
	c := d.Campaign
	monthly := "no monthly budget"
	if c.MonthlyBudgetCents != nil {
		monthly = "a monthly budget of " + core.Dollars(*c.MonthlyBudgetCents)
	}
	rule := c.AutoApprove
	switch {
	case rule == nil:
		return "Off: every person waits until an owner or admin approves their gift."
	case rule.Enabled:
		s := fmt.Sprintf("On: gifts up to %s each are approved without a person, within %s and the balance.", core.Dollars(rule.PerGiftMaxCents), monthly)
		if rule.EnabledAt != nil {
			s += " Turned on " + formatDateTime(*rule.EnabledAt) + "."
		}
		return s
	}
	return fmt.Sprintf("Off: every person waits until an owner or admin approves their gift. Its limits are kept: %s per gift, %s.", core.Dollars(rule.PerGiftMaxCents), monthly)
}

// autoApproveValues fill the auto-approve form with the current limits in
// dollars (empty where there is none).
func (d campaignData) autoApproveValues() url.Values {
	v := url.Values{}
	if r := d.Campaign.AutoApprove; r != nil && r.PerGiftMaxCents > 0 {
		v.Set("perGift", dollarInput(r.PerGiftMaxCents))
	}
	if m := d.Campaign.MonthlyBudgetCents; m != nil {
		v.Set("monthlyBudget", dollarInput(*m))
	}
	return v
}

// dollarInput is cents as a form's dollar amount: 12345 is "123.45".
func dollarInput(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

// kindName names a campaign kind in words.
func kindName(m campaign.CampaignMode) string {
	switch m {
	case campaign.ModeAlwaysOn:
		return "Playbook"
	case campaign.ModeBatch:
		return "Batch"
	case campaign.ModeSingle:
		return "Single gift"
	}
	return string(m)
}

// recipientIdentity says who a roster person is, beyond their name: email, LinkedIn
// profile and source system ID, those that are set.
func recipientIdentity(r campaign.Recipient) string {
	var parts []string
	if r.Email != "" {
		parts = append(parts, r.Email)
	}
	if r.ProfileURL != "" {
		parts = append(parts, r.ProfileURL)
	}
	if r.SourceSystem != "" || r.ExternalID != "" {
		parts = append(parts, r.SourceSystem+" "+r.ExternalID)
	}
	return strings.Join(parts, " · ")
}

// requirementName says a fulfilment requirement's kind in plain words.
func requirementName(k campaign.FulfillmentRequirementKind) string {
	switch k {
	case campaign.RequirementPhotoSourcing:
		return "Portrait from LinkedIn"
	case campaign.RequirementAddressConfirmation:
		return "Recipient confirms address"
	case campaign.RequirementSenderAddressRequired:
		return "You supply the address"
	}
	return string(k)
}
