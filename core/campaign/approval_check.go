package campaign

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
)

// One set of checks decides whether a playbook person can get their gift:
// the preview's blockers, the queue's blockers, a person's approval and
// auto-approve all read them, so they never disagree. A check is one reason
// with a message saying exactly what is missing.

// approvalCheck is one thing that stops a gift: its reason and message.
type approvalCheck struct {
	reason  ApprovalReason
	message string
}

// blocker is the check as the queue and preview show it.
func (k approvalCheck) blocker() string {
	if b := k.reason.Blocker(); b != "" {
		return b
	}
	return ReasonNeedsReview.Blocker()
}

// giftChecks are the checks of the campaign's gift that hold for everyone
// on it: the gift is gone or unselectable, its required lettering is
// missing, or (live mode) it is not verified. product is nil when the
// catalog no longer has it.
func giftChecks(c campaignRecord, product *catalog.Product, mode core.Mode) []approvalCheck {
	var out []approvalCheck
	if product == nil {
		return append(out, approvalCheck{ReasonGiftUnavailable,
			fmt.Sprintf("the gift %s is no longer in the catalog; choose a current gift with search_gifts and update productId", c.ProductID)})
	}
	if err := product.Selectable(); err != nil {
		out = append(out, approvalCheck{ReasonGiftUnavailable, strings.TrimPrefix(core.AsError(err).Message, "productId: ")})
	} else if mode == core.ModeLive && !product.Verified {
		out = append(out, approvalCheck{ReasonProductUnverified,
			fmt.Sprintf("%s is not verified: live mode cannot order it (PRODUCT_UNVERIFIED); choose a verified gift", product.ID)})
	}
	if lt := product.PersonalizationText; lt != nil {
		text := c.Customization[CustomizationDisplayText]
		switch {
		case text == "" && lt.FirstLineRequired:
			out = append(out, approvalCheck{ReasonPersonalizationRequired,
				fmt.Sprintf("the gift needs lettering (%s): set customization.displayText (%s)", lt.Label, lt.Help)})
		case text != "":
			if err := lt.Check("customization.displayText", text); err != nil {
				out = append(out, approvalCheck{ReasonPersonalizationRequired, core.AsError(err).Message})
			}
		}
	}
	return out
}

// personChecks are the checks of one person on campaign c: the note,
// required details, artwork, portrait, adult confirmation, an unapproved
// repeat (priorSendID is the earlier gift, "" when none or approved) and,
// in live mode without a prepaid offer, a sender-supplied address. product
// is nil when the catalog no longer has the gift (giftChecks says so).
func personChecks(c campaignRecord, product *catalog.Product, who person, priorSendID string, mode core.Mode, prepaid bool) []approvalCheck {
	var out []approvalCheck
	add := func(r ApprovalReason, format string, args ...any) {
		out = append(out, approvalCheck{r, fmt.Sprintf(format, args...)})
	}
	if note := resolveNote(c.Message, who.Message, who.noteValues()); note.problem != "" {
		add(ReasonNoteRequired, "%s", note.problem)
	}
	if product != nil {
		var missing []string
		for _, d := range product.RecipientDetails {
			if d.Required && strings.TrimSpace(who.Details[d.Key]) == "" {
				missing = append(missing, fmt.Sprintf("details.%s (%s)", d.Key, d.Label))
			}
		}
		if len(missing) > 0 {
			add(ReasonDetailsRequired, "missing %s", strings.Join(missing, ", "))
		}
		if product.RequiresArtwork && len(who.AssetIDs) == 0 && c.Customization[CustomizationLogoAssetID] == "" {
			add(ReasonArtworkRequired, "the gift needs artwork: set this person's assetIds or the campaign's customization.logoAssetId")
		}
		if product.RequiresPortrait && who.Photo == nil {
			add(ReasonPortraitRequired, "the gift needs a portrait: set photo ({source: upload, assetId} or {source: linkedin, profileUrl}) with the user's authorization")
		}
		if product.FulfillmentKind == catalog.FulfillmentAlcohol && !who.AdultConfirmed {
			add(ReasonAdultConfirmation, "an alcohol gift needs adultRecipientConfirmed: true, confirmed by the user; never inferred")
		}
	}
	if priorSendID != "" {
		add(ReasonRepeatReview, "gifted before (%s); a signed-in owner or admin approves the repeat at the review page", priorSendID)
	}
	if who.AddressMode == gift.AddressConfirm && mode == core.ModeLive && !prepaid {
		add(ReasonAddressRequired, "live mode needs a sender-supplied US address: add this person again with addressMode known and their address")
	}
	return out
}

// playbookSpend is what a playbook's limits and the balance have left when a
// gift is considered: the campaign's commitments, this UTC month's part,
// and the balance of the workspace in the gift's mode.
type playbookSpend struct {
	sentCount    int
	spentCents   int64
	monthCents   int64
	balanceCents int64
}

// take records one more gift of cents.
func (s *playbookSpend) take(cents int64) {
	s.sentCount++
	s.spentCents += cents
	s.monthCents += cents
	s.balanceCents -= cents
}

// limitChecks are the checks of one more gift of unit cents from playbook c
// against s: the send limit (maxSends), the playbook budget (budgetCents),
// the monthly budget (monthlyBudgetCents, when set) and the balance.
func limitChecks(c campaignRecord, unit int64, s playbookSpend) []approvalCheck {
	var out []approvalCheck
	if s.sentCount >= c.MaxSends {
		out = append(out, approvalCheck{ReasonSendLimit, fmt.Sprintf("the playbook sent %d of maxSends %d gifts", s.sentCount, c.MaxSends)})
	}
	if s.spentCents+unit > c.BudgetCents {
		out = append(out, approvalCheck{ReasonPlaybookBudget,
			fmt.Sprintf("%s of budgetCents %s is committed; another gift at %s does not fit", core.Dollars(s.spentCents), core.Dollars(c.BudgetCents), core.Dollars(unit))})
	}
	if m := c.MonthlyBudgetCents; m != nil && s.monthCents+unit > *m {
		out = append(out, approvalCheck{ReasonBudgetCap,
			fmt.Sprintf("%s of the monthly budget %s is spent this UTC month; another gift at %s does not fit", core.Dollars(s.monthCents), core.Dollars(*m), core.Dollars(unit))})
	}
	if s.balanceCents < unit {
		out = append(out, approvalCheck{ReasonLowBalance,
			fmt.Sprintf("the balance is %s; the gift costs %s", core.Dollars(max(s.balanceCents, 0)), core.Dollars(unit))})
	}
	return out
}

// autoApproveChecks are why auto-approve (rule, possibly nil or off) does
// not approve a gift of product at unit cents by itself, before the
// person's, the gift's and the limits' checks: no rule, a gift whose
// delivery is not priced, or a price above the per-gift limit.
func autoApproveChecks(rule *AutoApprove, c campaignRecord, product *catalog.Product, unit int64) []approvalCheck {
	if rule == nil || !rule.Enabled {
		return []approvalCheck{{ReasonAutoApproveOff, "the playbook has no auto-approve rule; an owner or admin approves each person"}}
	}
	var out []approvalCheck
	if product != nil && product.ShippingQuoteRequired {
		out = append(out, approvalCheck{ReasonShippingQuote, "the gift's delivery is not priced yet; auto-approve never approves it"})
	}
	if unit > rule.PerGiftMaxCents {
		out = append(out, approvalCheck{ReasonOverPerGiftLimit,
			fmt.Sprintf("the gift costs %s, above auto-approve's per-gift limit %s", core.Dollars(unit), core.Dollars(rule.PerGiftMaxCents))})
	}
	if c.MonthlyBudgetCents == nil {
		out = append(out, approvalCheck{ReasonBudgetCap, "auto-approve needs a monthly budget; an owner or admin sets monthlyBudgetCents"})
	}
	return out
}

// approvalError is the error a person's approval answers for check k of
// campaign campaignID: each reason's own code, with the page to act on.
func (a *Service) approvalError(k approvalCheck, campaignID string, product *catalog.Product) *core.Error {
	e := &core.Error{Message: k.message}
	switch k.reason {
	case ReasonLowBalance:
		e.Code, e.URL = core.CodeInsufficientBalance, a.Config.BalanceURL()
	case ReasonBudgetCap, ReasonPlaybookBudget, ReasonSendLimit:
		e.Code, e.URL = core.CodeBudgetCap, a.Config.CampaignURL(campaignID)
	case ReasonRepeatReview:
		e.Code, e.URL = core.CodeRepeatReviewRequired, a.Config.ReviewURL(campaignID)
		e.Message += "; approve again with approveRepeat: true to gift them again"
	case ReasonAddressRequired:
		e.Code = core.CodeLiveAddresslessUnavailable
	case ReasonProductUnverified:
		e.Code = core.CodeProductUnverified
	case ReasonNoteRequired:
		e.Code = core.CodeRecipientMessageRequired
	case ReasonPersonalizationRequired:
		e.Code = core.CodePersonalizationRequired
	case ReasonDetailsRequired, ReasonArtworkRequired, ReasonPortraitRequired, ReasonAdultConfirmation:
		e.Code = core.CodeRecipientDetailsRequired
	case ReasonGiftUnavailable:
		e.Code = core.CodeGiftUnavailable
		if product != nil {
			if err := product.Selectable(); err != nil {
				return core.AsError(err)
			}
		}
	default:
		e.Code = core.CodeInvalidRequestState
	}
	return e
}
