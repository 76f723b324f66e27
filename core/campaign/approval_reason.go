package campaign

import "github.com/giftwell/giftwell/core/gift"

// ApprovalReason is why a person added to a playbook waits for a signed-in
// owner or admin (PlaybookApproval.reason). The spec names three values
// (auto_approve_off, low_balance, shipping_quote) and leaves the complete set
// open; Giftwell adds one reason per queue blocker (see docs/decisions/).
type ApprovalReason string

// The approval reasons, in the order the workflow guide lists them.
const (
	// ReasonAutoApproveOff: the playbook has no auto-approve rule.
	ReasonAutoApproveOff ApprovalReason = "auto_approve_off"
	// ReasonLowBalance: the balance cannot cover the gift.
	ReasonLowBalance ApprovalReason = "low_balance"
	// ReasonShippingQuote: the gift's delivery is not priced yet.
	ReasonShippingQuote ApprovalReason = "shipping_quote"
	// ReasonOverPerGiftLimit: the gift costs more than auto-approve's per-gift limit.
	ReasonOverPerGiftLimit ApprovalReason = "over_per_gift_limit"
	// ReasonBudgetCap: the playbook's monthly budget is used up.
	ReasonBudgetCap ApprovalReason = "budget_cap"
	// ReasonPlaybookBudget: the playbook's total budget (budgetCents) is reached.
	ReasonPlaybookBudget ApprovalReason = "playbook_budget"
	// ReasonSendLimit: the playbook's maxSends is reached.
	ReasonSendLimit ApprovalReason = "send_limit"
	// ReasonRepeatReview: the person was gifted before.
	ReasonRepeatReview ApprovalReason = "repeat_review"
	// ReasonDetailsRequired: a required recipient detail is missing.
	ReasonDetailsRequired ApprovalReason = "details_required"
	// ReasonPersonalizationRequired: the gift's lettering is missing or invalid.
	ReasonPersonalizationRequired ApprovalReason = "personalization_required"
	// ReasonArtworkRequired: the gift needs artwork and has none.
	ReasonArtworkRequired ApprovalReason = "artwork_required"
	// ReasonNoteRequired: the note is missing, too long or has an unfilled placeholder.
	ReasonNoteRequired ApprovalReason = "note_required"
	// ReasonPortraitRequired: the gift needs a portrait photo.
	ReasonPortraitRequired ApprovalReason = "portrait_required"
	// ReasonAdultConfirmation: an alcohol gift needs adultRecipientConfirmed.
	ReasonAdultConfirmation ApprovalReason = "adult_confirmation"
	// ReasonAddressRequired: live mode needs a sender-supplied US address.
	ReasonAddressRequired ApprovalReason = "address_required"
	// ReasonGiftUnavailable: the gift is retired, unavailable or unpriced.
	ReasonGiftUnavailable ApprovalReason = "gift_unavailable"
	// ReasonProductUnverified: live mode cannot order an unverified gift.
	ReasonProductUnverified ApprovalReason = "product_unverified"
	// ReasonNeedsReview: any other refusal.
	ReasonNeedsReview ApprovalReason = "needs_review"
)

// reasonInfo is what the guide and the queue show for a reason.
type reasonInfo struct {
	text    string
	blocker string
}

var ReasonOrder = []ApprovalReason{
	ReasonAutoApproveOff, ReasonLowBalance, ReasonShippingQuote, ReasonOverPerGiftLimit, ReasonBudgetCap,
	ReasonPlaybookBudget, ReasonSendLimit, ReasonRepeatReview, ReasonDetailsRequired,
	ReasonPersonalizationRequired, ReasonArtworkRequired, ReasonNoteRequired, ReasonPortraitRequired,
	ReasonAdultConfirmation, ReasonAddressRequired, ReasonGiftUnavailable, ReasonProductUnverified,
	ReasonNeedsReview,
}

var reasons = map[ApprovalReason]reasonInfo{
	ReasonAutoApproveOff:          {"The playbook has no auto-approve rule, so every person waits for a signed-in owner or admin. Hand approvalUrl to one of them. Nothing is charged while a person waits.", ""},
	ReasonLowBalance:              {"The prepaid balance cannot cover this gift. Hand topUpUrl to an owner or admin; when funds arrive, auto-approve decides again, in queue order, the people of auto-approving playbooks who waited only for funds (no need to add them again).", "Add funds"},
	ReasonShippingQuote:           {"The gift's delivery is not priced yet, so auto-approve never approves it. A person approves it once delivery is quoted; the final price may be higher.", ""},
	ReasonOverPerGiftLimit:        {"The gift costs more than auto-approve's per-gift limit. An owner or admin approves it or raises the limit.", ""},
	ReasonBudgetCap:               {"The playbook's monthly budget (UTC calendar month) is used up. An owner or admin approves next month or raises the budget.", "Monthly budget reached"},
	ReasonPlaybookBudget:          {"The playbook's total budget is reached. An owner or admin raises budgetCents or skips the person.", "Playbook budget reached"},
	ReasonSendLimit:               {"The playbook's send limit (maxSends) is reached. An owner or admin raises it or skips the person.", "Playbook send limit reached"},
	ReasonRepeatReview:            {"The person was gifted before. An owner or admin approves the repeat or skips them.", "Gifted before: approve the repeat"},
	ReasonDetailsRequired:         {"A required gift detail is missing. Ask the user and add the same person again with recipient.details filled.", "Add gift details"},
	ReasonPersonalizationRequired: {"The gift's lettering is missing or breaks its personalizationText limits. Set customization.displayText on the campaign.", "Finish personalization"},
	ReasonArtworkRequired:         {"The gift needs artwork. Upload it and set recipient.assetIds or customization.logoAssetId.", "Artwork missing"},
	ReasonNoteRequired:            {"The note is missing, over 500 characters, or uses a placeholder the person lacks. Fix the message and add the person again.", "Finish the note"},
	ReasonPortraitRequired:        {"The gift needs a portrait photo of the person. Add recipient.photo (an upload or a LinkedIn profile).", gift.PortraitBlocker},
	ReasonAdultConfirmation:       {"An alcohol gift needs adultRecipientConfirmed: true, which is never inferred. Ask the user to confirm the person is 21 or older.", "Confirm 21 or older"},
	ReasonAddressRequired:         {"Live gifts need a sender-supplied US address. Ask the user and add the person with addressMode known.", "Needs a shipping address"},
	ReasonGiftUnavailable:         {"The playbook's gift is retired, unavailable or unpriced. Choose a current gift with search_gifts and update the campaign.", "Gift unavailable"},
	ReasonProductUnverified:       {"Live mode can only order verified gifts; approving returns PRODUCT_UNVERIFIED. Choose a verified gift.", ""},
	ReasonNeedsReview:             {"Something else needs a person's review. Hand approvalUrl to an owner or admin.", "Needs review"},
}

// ApprovalReasons returns every reason in a fixed order.
func ApprovalReasons() []ApprovalReason { return append([]ApprovalReason(nil), ReasonOrder...) }

// Text explains the reason to an agent: why the person waits and what to do.
func (r ApprovalReason) Text() string { return reasons[r].text }

// Blocker is the queue Blocker text a reason shows (QueueItem.blockers), or
// "" for a reason that blocks nothing a person can fix before approving.
func (r ApprovalReason) Blocker() string { return reasons[r].blocker }

// Valid reports whether r is a known reason.
func (r ApprovalReason) Valid() bool {
	_, ok := reasons[r]
	return ok
}
