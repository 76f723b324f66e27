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

// Check is one thing that stops a gift: its reason, its message for an
// agent (field names and tools) and Why, the same thing in words for a
// person with the way out ("$75 is over this playbook's $60 limit: approve
// by hand or raise the limit"), which the queue shows on every face.
type Check struct {
	Reason  ApprovalReason
	Message string
	Why     string
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
		return append(out, Check{Reason: ReasonGiftUnavailable,
			Message: fmt.Sprintf("the gift %s is no longer in the catalog; choose a current gift with search_gifts and update productId", c.ProductID),
			Why:     "This playbook's gift is no longer in the catalog: choose another gift for the playbook."})
	}
	if err := product.Selectable(); err != nil {
		out = append(out, Check{Reason: ReasonGiftUnavailable, Message: strings.TrimPrefix(core.AsError(err).Message, "productId: "),
			Why: fmt.Sprintf("%s is not available now: choose another gift for the playbook.", product.Name)})
	} else if mode == core.ModeLive && !product.Verified {
		out = append(out, Check{Reason: ReasonProductUnverified, Why: fmt.Sprintf("%s cannot be ordered for real yet: choose a verified gift.", product.Name),
			Message: fmt.Sprintf("%s is not verified: live mode cannot order it (PRODUCT_UNVERIFIED); choose a verified gift", product.ID)})
	}
	if lt := product.PersonalizationText; lt != nil {
		text := c.Customization[CustomizationDisplayText]
		switch {
		case text == "" && lt.FirstLineRequired:
			out = append(out, Check{Reason: ReasonPersonalizationRequired,
				Message: fmt.Sprintf("the gift needs lettering (%s): set customization.displayText (%s)", lt.Label, lt.Help),
				Why:     fmt.Sprintf("The gift's %s text is missing: write it on the playbook.", strings.ToLower(lt.Label))})
		case text != "":
			if err := lt.Check("customization.displayText", text); err != nil {
				out = append(out, Check{Reason: ReasonPersonalizationRequired, Message: core.AsError(err).Message,
					Why: fmt.Sprintf("The gift's %s text does not fit (%s): change it on the playbook.", strings.ToLower(lt.Label), lt.Help)})
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
	add := func(r ApprovalReason, why, format string, args ...any) {
		out = append(out, Check{Reason: r, Message: fmt.Sprintf(format, args...), Why: why})
	}
	if note := PersonNote(c.Message, who.Message, who.NoteValues()); note.problem != "" {
		add(ReasonNoteRequired, note.why, "%s", note.problem)
	}
	if product != nil {
		var missing, labels []string
		for _, d := range product.RecipientDetails {
			if d.Required && strings.TrimSpace(who.Details[d.Key]) == "" {
				missing = append(missing, fmt.Sprintf("details.%s (%s)", d.Key, d.Label))
				labels = append(labels, d.Label)
			}
		}
		if len(missing) > 0 {
			add(ReasonDetailsRequired, fmt.Sprintf("The gift needs this person's %s: ask the agent to add them again with it, or skip.", strings.Join(labels, ", ")),
				"missing %s", strings.Join(missing, ", "))
		}
		if product.RequiresArtwork && len(who.AssetIDs) == 0 && c.Customization[CustomizationLogoAssetID] == "" {
			add(ReasonArtworkRequired, "The gift needs artwork: upload a logo for the playbook, or skip.",
				"the gift needs artwork: set this person's assetIds or the campaign's customization.logoAssetId")
		}
		if product.RequiresPortrait && who.Photo == nil {
			add(ReasonPortraitRequired, "The gift needs a photo of this person: add one they agreed to, or skip.",
				"the gift needs a portrait: set photo ({source: upload, assetId} or {source: linkedin, profileUrl}) with the user's authorization")
		}
		if product.FulfillmentKind == catalog.FulfillmentAlcohol && !who.AdultConfirmed {
			add(ReasonAdultConfirmation, "An alcohol gift needs confirmation that this person is 21 or older, or skip.",
				"an alcohol gift needs adultRecipientConfirmed: true, confirmed by the user; never inferred")
		}
	}
	if priorSendID != "" {
		add(ReasonRepeatReview, "This person was gifted before: approve the repeat, or skip.",
			"gifted before (%s); a signed-in owner or admin approves the repeat at the review page", priorSendID)
	}
	if who.AddressMode == gift.AddressConfirm && mode == core.ModeLive && !prepaid {
		add(ReasonAddressRequired, "A real gift needs this person's US shipping address: ask the agent to add it, or skip.",
			"live mode needs a sender-supplied US address: add this person again with addressMode known and their address")
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
		out = append(out, Check{Reason: ReasonSendLimit, Message: fmt.Sprintf("the playbook sent %d of maxSends %d gifts", s.SentCount, c.MaxSends),
			Why: fmt.Sprintf("This playbook has sent %d of its %d gifts: raise the limit, or skip.", s.SentCount, c.MaxSends)})
	}
	if s.SpentCents+unit > c.BudgetCents {
		out = append(out, Check{Reason: ReasonPlaybookBudget,
			Message: fmt.Sprintf("%s of budgetCents %s is committed; another gift at %s does not fit", core.Dollars(s.SpentCents), core.Dollars(c.BudgetCents), core.Dollars(unit)),
			Why: fmt.Sprintf("%s of this playbook's %s budget is committed and this gift costs %s: raise the budget, or skip.",
				core.Dollars(s.SpentCents), core.Dollars(c.BudgetCents), core.Dollars(unit))})
	}
	if m := c.MonthlyBudgetCents; m != nil && s.MonthCents+unit > *m {
		out = append(out, Check{Reason: ReasonBudgetCap,
			Message: fmt.Sprintf("%s of the monthly budget %s is spent this UTC month; another gift at %s does not fit", core.Dollars(s.MonthCents), core.Dollars(*m), core.Dollars(unit)),
			Why: fmt.Sprintf("%s of this playbook's %s monthly budget is spent and this gift costs %s: raise the budget, or approve next month.",
				core.Dollars(s.MonthCents), core.Dollars(*m), core.Dollars(unit))})
	}
	if s.BalanceCents < unit {
		out = append(out, Check{Reason: ReasonLowBalance,
			Message: fmt.Sprintf("the balance is %s; the gift costs %s", core.Dollars(max(s.BalanceCents, 0)), core.Dollars(unit)),
			Why:     fmt.Sprintf("Add %s to pay for this gift.", core.Dollars(unit-max(s.BalanceCents, 0)))})
	}
	return out
}

// AutoApproveChecks are why auto-approve (rule, possibly nil or off) does
// not approve a gift of product at unit cents by itself, before the
// person's, the gift's and the limits' checks: no rule, a gift whose
// delivery is not priced, or a price above the per-gift limit.
func AutoApproveChecks(rule *AutoApprove, c Record, product *catalog.Product, unit int64) []Check {
	if rule == nil || !rule.Enabled {
		return []Check{{Reason: ReasonAutoApproveOff, Message: "the playbook has no auto-approve rule; an owner or admin approves each person",
			Why: "Auto-approve is off for this playbook: approve, or skip."}}
	}
	var out []Check
	if product != nil && product.ShippingQuoteRequired {
		out = append(out, Check{Reason: ReasonShippingQuote, Message: "the gift's delivery is not priced yet; auto-approve never approves it",
			Why: "Delivery is priced per address, so auto-approve leaves this gift to a person: approve, or skip."})
	}
	if unit > rule.PerGiftMaxCents {
		out = append(out, Check{Reason: ReasonOverPerGiftLimit,
			Message: fmt.Sprintf("the gift costs %s, above auto-approve's per-gift limit %s", core.Dollars(unit), core.Dollars(rule.PerGiftMaxCents)),
			Why:     fmt.Sprintf("%s is over this playbook's %s limit: approve by hand, or raise the limit.", core.Dollars(unit), core.Dollars(rule.PerGiftMaxCents))})
	}
	if c.MonthlyBudgetCents == nil {
		out = append(out, Check{Reason: ReasonBudgetCap, Message: "auto-approve needs a monthly budget; an owner or admin sets monthlyBudgetCents",
			Why: "Auto-approve needs a monthly budget: set one on the playbook, or approve by hand."})
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

// FundsWhy is what the queue says of the people who wait only for funds:
// how much to add so that all people of them can be paid for.
func FundsWhy(shortCents int64, people int) string {
	if people == 1 {
		return fmt.Sprintf("Add %s to the balance to pay for this gift.", core.Dollars(shortCents))
	}
	return fmt.Sprintf("Add %s to the balance to pay for the %d gifts waiting for funds.", core.Dollars(shortCents), people)
}

// FundsRedecideWhy is added for people of an auto-approving playbook who
// wait for funds: a top-up decides them again (approval.RedecideForFunds).
const FundsRedecideWhy = "Auto-approve then approves these gifts by itself, in queue order."
