package approval

import (
	"context"
	"slices"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
	"github.com/jackc/pgx/v5"
)

// A batch or single campaign is paid at checkout (core/billing) and then
// launched: each paid roster position becomes a gift funded by the
// checkout. These are the campaign's side of both, run in core/billing's
// transactions.

// CheckoutQuote is what a checkout of a campaign pays for, decided under the
// campaign's lock.
type CheckoutQuote struct {
	CampaignID    string
	CampaignName  string
	PolicyVersion int64
	Mode          core.Mode
	// UnitCents is the price per gift: the prepaid offer's when the gift has
	// one (Prepaid), else priceCents + shippingCents.
	UnitCents int64
	Prepaid   bool
	// ShippingStates are the prepaid offer's states when Prepaid: the
	// checkout fixes them, and launch limits its gifts to them.
	ShippingStates []string
	// RecipientIDs are the people paid for, in roster order: no gift yet and
	// not skipped.
	RecipientIDs []string
}

// QuoteCheckout locks campaign id of p's workspace in tx and decides what a
// checkout at expectedPolicyVersion pays for. It returns NOT_FOUND,
// CAMPAIGN_COMPLETED, BALANCE_FUNDED (a playbook is paid from the balance),
// POLICY_CHANGED, INVALID_REQUEST_STATE (nobody left to pay for), or the
// first blocker of the preview as approval's code (GIFT_UNAVAILABLE,
// PERSONALIZATION_REQUIRED, RECIPIENT_MESSAGE_REQUIRED,
// RECIPIENT_DETAILS_REQUIRED, REPEAT_REVIEW_REQUIRED,
// LIVE_ADDRESSLESS_UNAVAILABLE, INVALID_REQUEST_STATE for limits).
func (a *Service) QuoteCheckout(ctx context.Context, tx pgx.Tx, p core.Principal, id string, expectedPolicyVersion int64) (CheckoutQuote, error) {
	q := db.New(tx)
	c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, id)
	if err != nil {
		return CheckoutQuote{}, err
	}
	switch {
	case c.Status == campaign.StatusCompleted:
		return CheckoutQuote{}, campaign.CampaignCompleted(c.ID)
	case c.Mode.Playbook():
		return CheckoutQuote{}, core.Errorf(core.CodeBalanceFunded, "campaign %s is a playbook: its gifts are paid from the prepaid balance when approved, never at checkout", c.ID)
	case expectedPolicyVersion != c.PolicyVersion:
		return CheckoutQuote{}, campaign.PolicyChanged(c.PolicyVersion)
	}
	mode := campaign.ModeOf(p)
	pv, product, roster, err := a.Campaigns.LoadPreview(ctx, q, c, mode)
	if err != nil {
		return CheckoutQuote{}, err
	}
	if len(pv.Blockers) > 0 {
		b := pv.Blockers[0]
		return CheckoutQuote{}, a.Campaigns.ApprovalError(campaign.Check{Reason: b.Reason, Message: b.Message}, c.ID, product)
	}
	if product != nil && product.ShippingQuoteRequired {
		return CheckoutQuote{}, core.Errorf(core.CodeInvalidRequestState, "the gift's delivery is not priced yet (shippingQuoteRequired): a checkout takes all-in prices only; choose a gift with delivery included")
	}
	out := CheckoutQuote{CampaignID: c.ID, CampaignName: c.Name, PolicyVersion: c.PolicyVersion, Mode: mode, UnitCents: pv.UnitCents}
	if pv.PrepaidOffer != nil {
		out.UnitCents, out.Prepaid = pv.PrepaidOffer.UnitCents, true
		out.ShippingStates = slices.Clone(pv.PrepaidOffer.ShippingStates)
	}
	for _, who := range roster.Owed() {
		out.RecipientIDs = append(out.RecipientIDs, who.ID)
	}
	if len(out.RecipientIDs) == 0 || out.UnitCents <= 0 {
		return CheckoutQuote{}, core.Errorf(core.CodeInvalidRequestState, "campaign %s has nobody left to pay for: everyone on its roster has a gift or was skipped", c.ID)
	}
	return out, nil
}

// LaunchParams is one paid roster position for LaunchGift.
type LaunchParams struct {
	WorkspaceID string
	CampaignID  string
	// RecipientID is the person the position paid for.
	RecipientID string
	// UnitCents is what the position cost.
	UnitCents int64
	// Prepaid is true for a checkout bought at the gift's prepaid offer.
	Prepaid bool
	// ShippingStates are the offer's states the checkout fixed when it was
	// bought: the gift ships only within them. A prepaid checkout that
	// fixed none (bought before they were recorded) reads the catalog's.
	ShippingStates []string
	Mode           core.Mode
	// ApprovedBy is the user who launched.
	ApprovedBy string
}

// LaunchGift creates the gift of one paid roster position inside the
// caller's transaction: person lp.RecipientID of campaign lp.CampaignID,
// funded by the checkout at lp.UnitCents, limited to lp.ShippingStates. A
// person whose address the recipient confirms gets a gift link. It returns
// NOT_FOUND for a person no longer on the roster and INVALID_REQUEST_STATE
// for one who already has a gift.
func (a *Service) LaunchGift(ctx context.Context, tx pgx.Tx, lp LaunchParams) (gift.Gift, error) {
	q := db.New(tx)
	c, err := campaign.LockRecord(ctx, q, lp.WorkspaceID, lp.CampaignID)
	if err != nil {
		return gift.Gift{}, err
	}
	row, err := q.RecipientGetForApproval(ctx, db.RecipientGetForApprovalParams{CampaignID: c.ID, ID: lp.RecipientID})
	if core.IsNoRows(err) {
		return gift.Gift{}, core.FieldError(core.CodeNotFound, "recipientId", "%s is no longer on campaign %s", lp.RecipientID, c.ID)
	}
	if err != nil {
		return gift.Gift{}, core.Internal(err)
	}
	who, err := campaign.PersonFromRow(row)
	if err != nil {
		return gift.Gift{}, core.Internal(err)
	}
	if _, err := q.SendGetByRecipient(ctx, who.ID); err == nil {
		return gift.Gift{}, core.FieldError(core.CodeInvalidRequestState, "recipientId", "%s (%s) already has a gift", who.ID, who.DisplayName())
	} else if !core.IsNoRows(err) {
		return gift.Gift{}, core.Internal(err)
	}
	gp := giftParams{c: c, who: who, unitCents: lp.UnitCents, mode: lp.Mode, fundedBy: gift.FundedByCheckout, approvedBy: lp.ApprovedBy,
		shippingStates: lp.ShippingStates}
	if lp.Prepaid && len(lp.ShippingStates) == 0 {
		// A checkout bought at the prepaid offer ships only within the
		// offer's states: the recipient page refuses an address elsewhere.
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return gift.Gift{}, err
		}
		if product != nil && product.PrepaidOffer != nil {
			gp.shippingStates = product.PrepaidOffer.ShippingStates
		}
	}
	return a.createGift(ctx, tx, gp)
}
