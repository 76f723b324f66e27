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

// Check is one thing that stops a gift: its reason and message.
type Check struct {
	Reason  ApprovalReason
	Message string
}

// Blocker is the check as the queue and preview show it.
func (k Check) Blocker() string {
	if b := k.Reason.Blocker(); b != "" {
		return b
	}
	return ReasonNeedsReview.Blocker()
}

// GiftChecks are the checks of the campaign's gift that hold for everyone
// on it: the gift is gone or unselectable, its required lettering is
// missing, or (live mode) it is not verified. product is nil when the
// catalog no longer has it.
func GiftChecks(c Record, product *catalog.Product, mode core.Mode) []Check {
	var out []Check
	if product == nil {
		return append(out, Check{ReasonGiftUnavailable,
			fmt.Sprintf("the gift %s is no longer in the catalog; choose a current gift with search_gifts and update productId", c.ProductID)})
	}
	if err := product.Selectable(); err != nil {
		out = append(out, Check{ReasonGiftUnavailable, strings.TrimPrefix(core.AsError(err).Message, "productId: ")})
	} else if mode == core.ModeLive && !product.Verified {
		out = append(out, Check{ReasonProductUnverified,
			fmt.Sprintf("%s is not verified: live mode cannot order it (PRODUCT_UNVERIFIED); choose a verified gift", product.ID)})
	}
	if lt := product.PersonalizationText; lt != nil {
		text := c.Customization[CustomizationDisplayText]
		switch {
		case text == "" && lt.FirstLineRequired:
			out = append(out, Check{ReasonPersonalizationRequired,
				fmt.Sprintf("the gift needs lettering (%s): set customization.displayText (%s)", lt.Label, lt.Help)})
		case text != "":
			if err := lt.Check("customization.displayText", text); err != nil {
				out = append(out, Check{ReasonPersonalizationRequired, core.AsError(err).Message})
			}
		}
	}
	return out
}

// PersonChecks are the checks of one person on campaign c: the note,
// required details, artwork, portrait, adult confirmation, an unapproved
// repeat (priorSendID is the earlier gift, "" when none or approved) and,
// in live mode without a prepaid offer, a sender-supplied address. product
// is nil when the catalog no longer has the gift (GiftChecks says so).
func PersonChecks(c Record, product *catalog.Product, who Person, priorSendID string, mode core.Mode, prepaid bool) []Check {
	var out []Check
	add := func(r ApprovalReason, format string, args ...any) {
		out = append(out, Check{r, fmt.Sprintf(format, args...)})
	}
	if note := PersonNote(c.Message, who.Message, who.NoteValues()); note.problem != "" {
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

// Spend is what a playbook's limits and the balance have left when a
// gift is considered: the campaign's commitments, this UTC month's part,
// and the balance of the workspace in the gift's mode.
type Spend struct {
	SentCount    int
	SpentCents   int64
	MonthCents   int64
	BalanceCents int64
}

// take records one more gift of cents.
func (s *Spend) Take(cents int64) {
	s.SentCount++
	s.SpentCents += cents
	s.MonthCents += cents
	s.BalanceCents -= cents
}

// LimitChecks are the checks of one more gift of unit cents from playbook c
// against s: the send limit (maxSends), the playbook budget (budgetCents),
// the monthly budget (monthlyBudgetCents, when set) and the balance.
func LimitChecks(c Record, unit int64, s Spend) []Check {
	var out []Check
	if s.SentCount >= c.MaxSends {
		out = append(out, Check{ReasonSendLimit, fmt.Sprintf("the playbook sent %d of maxSends %d gifts", s.SentCount, c.MaxSends)})
	}
	if s.SpentCents+unit > c.BudgetCents {
		out = append(out, Check{ReasonPlaybookBudget,
			fmt.Sprintf("%s of budgetCents %s is committed; another gift at %s does not fit", core.Dollars(s.SpentCents), core.Dollars(c.BudgetCents), core.Dollars(unit))})
	}
	if m := c.MonthlyBudgetCents; m != nil && s.MonthCents+unit > *m {
		out = append(out, Check{ReasonBudgetCap,
			fmt.Sprintf("%s of the monthly budget %s is spent this UTC month; another gift at %s does not fit", core.Dollars(s.MonthCents), core.Dollars(*m), core.Dollars(unit))})
	}
	if s.BalanceCents < unit {
		out = append(out, Check{ReasonLowBalance,
			fmt.Sprintf("the balance is %s; the gift costs %s", core.Dollars(max(s.BalanceCents, 0)), core.Dollars(unit))})
	}
	return out
}

// AutoApproveChecks are why auto-approve (rule, possibly nil or off) does
// not approve a gift of product at unit cents by itself, before the
// person's, the gift's and the limits' checks: no rule, a gift whose
// delivery is not priced, or a price above the per-gift limit.
func AutoApproveChecks(rule *AutoApprove, c Record, product *catalog.Product, unit int64) []Check {
	if rule == nil || !rule.Enabled {
		return []Check{{ReasonAutoApproveOff, "the playbook has no auto-approve rule; an owner or admin approves each person"}}
	}
	var out []Check
	if product != nil && product.ShippingQuoteRequired {
		out = append(out, Check{ReasonShippingQuote, "the gift's delivery is not priced yet; auto-approve never approves it"})
	}
	if unit > rule.PerGiftMaxCents {
		out = append(out, Check{ReasonOverPerGiftLimit,
			fmt.Sprintf("the gift costs %s, above auto-approve's per-gift limit %s", core.Dollars(unit), core.Dollars(rule.PerGiftMaxCents))})
	}
	if c.MonthlyBudgetCents == nil {
		out = append(out, Check{ReasonBudgetCap, "auto-approve needs a monthly budget; an owner or admin sets monthlyBudgetCents"})
	}
	return out
}

// ApprovalError is the error a person's approval answers for check k of
// campaign campaignID: each reason's own code, with the page to act on.
func (a *Service) ApprovalError(k Check, campaignID string, product *catalog.Product) *core.Error {
	e := &core.Error{Message: k.Message}
	switch k.Reason {
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
