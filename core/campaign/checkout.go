package campaign

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
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
	c, err := lockCampaign(ctx, q, p.WorkspaceID, id)
	if err != nil {
		return CheckoutQuote{}, err
	}
	switch {
	case c.Status == StatusCompleted:
		return CheckoutQuote{}, campaignCompleted(c.ID)
	case c.Mode.Playbook():
		return CheckoutQuote{}, core.Errorf(core.CodeBalanceFunded, "campaign %s is a playbook: its gifts are paid from the prepaid balance when approved, never at checkout", c.ID)
	case expectedPolicyVersion != c.PolicyVersion:
		return CheckoutQuote{}, policyChanged(c.PolicyVersion)
	}
	mode := modeOf(p)
	pv, product, roster, err := a.loadPreview(ctx, q, c, mode)
	if err != nil {
		return CheckoutQuote{}, err
	}
	if len(pv.Blockers) > 0 {
		b := pv.Blockers[0]
		return CheckoutQuote{}, a.approvalError(approvalCheck{reason: b.Reason, message: b.Message}, c.ID, product)
	}
	if product != nil && product.ShippingQuoteRequired {
		return CheckoutQuote{}, core.Errorf(core.CodeInvalidRequestState, "the gift's delivery is not priced yet (shippingQuoteRequired): a checkout takes all-in prices only; choose a gift with delivery included")
	}
	out := CheckoutQuote{CampaignID: c.ID, CampaignName: c.Name, PolicyVersion: c.PolicyVersion, Mode: mode, UnitCents: pv.UnitCents}
	if pv.PrepaidOffer != nil {
		out.UnitCents, out.Prepaid = pv.PrepaidOffer.UnitCents, true
		out.ShippingStates = slices.Clone(pv.PrepaidOffer.ShippingStates)
	}
	for _, who := range roster.owed() {
		out.RecipientIDs = append(out.RecipientIDs, who.id)
	}
	if len(out.RecipientIDs) == 0 || out.UnitCents <= 0 {
		return CheckoutQuote{}, core.Errorf(core.CodeInvalidRequestState, "campaign %s has nobody left to pay for: everyone on its roster has a gift or was skipped", c.ID)
	}
	return out, nil
}

// ActivatePaid turns a draft or paused campaign on once its checkout is
// paid, inside the caller's transaction; its policyVersion stays.
func (a *Service) ActivatePaid(ctx context.Context, tx pgx.Tx, campaignID string) error {
	if err := db.New(tx).CampaignActivatePaid(ctx, db.CampaignActivatePaidParams{ID: campaignID, UpdatedAt: a.Clock.Now()}); err != nil {
		return core.Internal(err)
	}
	return nil
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
	c, err := lockCampaign(ctx, q, lp.WorkspaceID, lp.CampaignID)
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
	who, err := personFromRow(row)
	if err != nil {
		return gift.Gift{}, core.Internal(err)
	}
	if _, err := q.SendGetByRecipient(ctx, who.id); err == nil {
		return gift.Gift{}, core.FieldError(core.CodeInvalidRequestState, "recipientId", "%s (%s) already has a gift", who.id, who.displayName())
	} else if !core.IsNoRows(err) {
		return gift.Gift{}, core.Internal(err)
	}
	gp := giftParams{c: c, who: who, unitCents: lp.UnitCents, mode: lp.Mode, fundedBy: gift.FundedByCheckout, approvedBy: lp.ApprovedBy,
		shippingStates: lp.ShippingStates}
	if lp.Prepaid && len(lp.ShippingStates) == 0 {
		// A checkout bought at the prepaid offer ships only within the
		// offer's states: the recipient page refuses an address elsewhere.
		product, err := a.storedProduct(ctx, c.ProductID)
		if err != nil {
			return gift.Gift{}, err
		}
		if product != nil && product.PrepaidOffer != nil {
			gp.shippingStates = product.PrepaidOffer.ShippingStates
		}
	}
	return a.createGift(ctx, tx, gp)
}

// PreviewCheckout is a campaign's newest checkout as its preview shows it.
type PreviewCheckout struct {
	ID          string `json:"id" jsonschema:"the checkout (chk_...)"`
	State       string `json:"state" jsonschema:"creating, open, paid, consumed, expired or cancelled" schema:"enum=creating|open|paid|consumed|expired|cancelled"`
	AmountCents int64  `json:"amountCents" jsonschema:"its total in USD cents"`
	URL         string `json:"url,omitempty" jsonschema:"the payment page while open, for a signed-in owner or admin"`
}

// previewCheckout reads campaign campaignID's newest checkout (of
// workspaceID), or nil; an open one whose time is up reads as expired.
func (a *Service) previewCheckout(ctx context.Context, q *db.Queries, workspaceID, campaignID string) (*PreviewCheckout, error) {
	row, err := q.CheckoutLatestForCampaign(ctx, db.CheckoutLatestForCampaignParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if core.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, core.Internal(err)
	}
	out := &PreviewCheckout{ID: row.ID, State: row.State, AmountCents: row.AmountCents}
	switch {
	case CheckoutLapsed(row.State, row.ExpiresAt, a.Clock.Now()):
		out.State = "expired"
	case row.State == "open":
		out.URL = row.Url
	}
	return out, nil
}

// CheckoutLapsed says whether a checkout in state (its stored state) whose
// time ends at expiresAt is unpaid and past its time at now: it reads as
// expired, and locks nothing, before the sweep or the processor closes it.
func CheckoutLapsed(state string, expiresAt, now time.Time) bool {
	return (state == "open" || state == "creating") && !expiresAt.After(now)
}

// CheckoutInProgress reads campaign campaignID's checkout in progress
// through q: one creating, open or paid (not yet launched), an unpaid one
// not past its time at now (CheckoutLapsed). ok is false when there is
// none; id and state name it for a CHECKOUT_LOCKED refusal.
func CheckoutInProgress(ctx context.Context, q *db.Queries, workspaceID, campaignID string, now time.Time) (id, state string, ok bool, err error) {
	row, err := q.CheckoutInProgress(ctx, db.CheckoutInProgressParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if core.IsNoRows(err) {
		return "", "", false, nil
	}
	if err != nil {
		return "", "", false, core.Internal(err)
	}
	if CheckoutLapsed(row.State, row.ExpiresAt, now) {
		return "", "", false, nil
	}
	return row.ID, row.State, true, nil
}
