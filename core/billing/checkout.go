package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// CheckoutState is where a checkout is:
// creating -> open -> paid -> consumed; creating | open -> expired | cancelled.
type CheckoutState string

// The checkout states.
const (
	// CheckoutCreating is committed, its processor session not recorded yet.
	CheckoutCreating CheckoutState = "creating"
	// CheckoutOpen can be paid at its url.
	CheckoutOpen CheckoutState = "open"
	// CheckoutPaid was paid; launch prepares its gifts.
	CheckoutPaid CheckoutState = "paid"
	// CheckoutConsumed had every paid position prepared.
	CheckoutConsumed CheckoutState = "consumed"
	// CheckoutExpired was not paid in time.
	CheckoutExpired CheckoutState = "expired"
	// CheckoutCancelled was cancelled by an owner or admin before payment.
	CheckoutCancelled CheckoutState = "cancelled"
)

// CheckoutLifetime is how long an unpaid checkout can be paid.
const CheckoutLifetime = time.Hour

// Checkout is a campaign's card checkout.
type Checkout struct {
	ID             string        `json:"id" jsonschema:"the checkout ID (chk_...)"`
	CampaignID     string        `json:"campaignId" jsonschema:"the campaign paid for"`
	State          CheckoutState `json:"state" jsonschema:"creating, open (pay at url), paid (launch prepares the gifts), consumed (every paid gift prepared), expired or cancelled" schema:"enum=creating|open|paid|consumed|expired|cancelled"`
	AmountCents    int64         `json:"amountCents" jsonschema:"the total in USD cents, all-in"`
	RecipientCount int           `json:"recipientCount" jsonschema:"the roster positions paid for"`
	RemainingCount int           `json:"remainingCount" jsonschema:"paid positions launch has not prepared yet"`
	LaunchCursor   int           `json:"launchCursor" jsonschema:"the next position launch prepares"`
	Currency       string        `json:"currency" jsonschema:"always usd"`
	Mode           core.Mode     `json:"mode" jsonschema:"test or live, as created" schema:"enum=test|live"`
	PolicyVersion  int64         `json:"policyVersion" jsonschema:"the campaign version paid for"`
	CreatedAt      time.Time     `json:"createdAt" jsonschema:"when the checkout was created"`
	ExpiresAt      time.Time     `json:"expiresAt" jsonschema:"when an unpaid checkout expires"`
	PaidAt         *time.Time    `json:"paidAt,omitempty" jsonschema:"when the processor reported the payment"`
	URL            string        `json:"url,omitempty" jsonschema:"the payment page while open; hand it to the signed-in owner or admin who pays. Returning from it proves nothing: reconcile or read the checkout"`
	InvoiceURL     string        `json:"invoiceUrl,omitempty" jsonschema:"the invoice page, once paid"`
	InvoicePDF     string        `json:"invoicePdf,omitempty" jsonschema:"the invoice as a PDF, once paid"`
}

// CheckoutParams is what create_campaign_checkout takes.
type CheckoutParams struct {
	// ExpectedPolicyVersion is the campaign version the person reviewed.
	ExpectedPolicyVersion int64
	// IdempotencyKey is 8-150 characters; the same key and campaign version
	// return the same checkout.
	IdempotencyKey string
}

// errNoProcessor is the wiring error of an App without a payment processor.
var errNoProcessor = errors.New("billing: Ledger.Payments is nil: the App was built without a payment processor")

// checkoutFromRow is a stored checkout as callers see it.
func (a *Service) checkoutFromRow(r db.Checkout) Checkout {
	out := Checkout{
		ID: r.ID, CampaignID: r.CampaignID, State: CheckoutState(r.State), AmountCents: r.AmountCents,
		RecipientCount: int(r.RecipientCount), RemainingCount: int(r.RemainingCount), LaunchCursor: int(r.LaunchCursor),
		Currency: "usd", Mode: core.Mode(r.Mode), PolicyVersion: r.PolicyVersion, CreatedAt: r.CreatedAt.UTC(),
		ExpiresAt: r.ExpiresAt.UTC(),
	}
	if r.PaidAt != nil {
		t := r.PaidAt.UTC()
		out.PaidAt = &t
	}
	switch out.State {
	case CheckoutOpen:
		out.URL = r.Url
	case CheckoutPaid, CheckoutConsumed:
		out.InvoiceURL, out.InvoicePDF = r.InvoiceUrl, r.InvoicePdf
		if out.InvoiceURL == "" {
			out.InvoiceURL = a.InvoiceURL(r.ID)
		}
		if out.InvoicePDF == "" {
			out.InvoicePDF = a.InvoicePDFURL(r.ID)
		}
	}
	return out
}

// CreateCampaignCheckout opens a card checkout for campaign id: everyone on
// its roster without a gift (and not skipped) at the gift's price, for the
// campaign at in.ExpectedPolicyVersion. The same key and version return the
// same checkout.
//
// A first transaction locks the campaign, expires its unpaid checkouts
// whose time is up, decides what is paid for (campaign.QuoteCheckout) and
// commits the checkout as creating with its positions: from then on edits
// get CHECKOUT_LOCKED. The processor is then called with no transaction
// open, with the checkout's ID as its idempotency key, and the session is
// recorded (open). A processor failure leaves the checkout creating: the
// same key calls the processor again; a refusal removes it.
//
// It returns the codes of Authorize (ActPay: a signed-in owner or admin),
// VALIDATION_ERROR naming expectedPolicyVersion or idempotencyKey, the
// codes of QuoteCheckout, CHECKOUT_LOCKED (another checkout of the
// campaign is in progress), the processor's refusals, or INTERNAL_ERROR.
func (a *Service) CreateCampaignCheckout(ctx context.Context, p core.Principal, id string, in CheckoutParams) (Checkout, error) {
	if err := core.Authorize(p, core.ActPay, a.Config.ReviewURL(id)); err != nil {
		return Checkout{}, err
	}
	key, err := core.IdempotencyKey(in.IdempotencyKey)
	if err != nil {
		return Checkout{}, err
	}
	if in.ExpectedPolicyVersion < 1 {
		return Checkout{}, core.Invalid("expectedPolicyVersion", "is required: the campaign's policyVersion the person reviewed")
	}
	processor := a.Ledger.Payments
	if processor == nil {
		return Checkout{}, core.Internal(errNoProcessor)
	}
	row, name, err := a.checkoutIntent(ctx, p, id, key, in.ExpectedPolicyVersion, processor.Name())
	if err != nil {
		return Checkout{}, err
	}
	if CheckoutState(row.State) != CheckoutCreating {
		return a.checkoutFromRow(row), nil
	}
	s, err := processor.CreateCheckoutSession(ctx, ledger.CheckoutRequest{
		CheckoutID: row.ID, WorkspaceID: row.WorkspaceID, CampaignID: row.CampaignID, Mode: core.Mode(row.Mode),
		UnitCents: row.UnitCents, Quantity: int(row.RecipientCount), Description: "Gifts: " + name,
		ExpiresAt: row.ExpiresAt, SuccessURL: a.LaunchURL(row.CampaignID) + "?checkout=" + row.ID,
		CancelURL: a.Config.ReviewURL(row.CampaignID),
	})
	var refused *core.Error
	if errors.As(err, &refused) {
		if _, derr := db.New(a.DB).CheckoutDeleteCreating(ctx, db.CheckoutDeleteCreatingParams{WorkspaceID: row.WorkspaceID, ID: row.ID}); derr != nil {
			a.Log.ErrorContext(ctx, "checkout refused by the processor: remove its intent", "checkout", row.ID, "err", derr)
		}
		return Checkout{}, refused
	}
	if err != nil {
		return Checkout{}, core.Internal(fmt.Errorf("processor %s, checkout %s: %w", processor.Name(), row.ID, err))
	}
	if s.ID == "" || s.URL == "" {
		return Checkout{}, core.Internal(fmt.Errorf("processor %s returned an empty session for checkout %s", processor.Name(), row.ID))
	}
	q := db.New(a.DB)
	if _, err := q.CheckoutSetSession(ctx, db.CheckoutSetSessionParams{WorkspaceID: row.WorkspaceID, ID: row.ID, ProcessorSessionID: &s.ID, Url: s.URL}); err != nil {
		if name, ok := core.ViolatedUnique(err); !ok || name != "checkouts_processor_session_id_key" {
			return Checkout{}, core.Internal(err)
		}
		// A concurrent request with the same key recorded this very session.
	}
	cur, err := q.CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: row.WorkspaceID, ID: row.ID})
	if err != nil {
		return Checkout{}, core.Internal(err)
	}
	return a.checkoutFromRow(cur), nil
}

// checkoutIntent commits the checkout of key for campaign id at version, or
// finds the one already made with them, and returns it with the campaign's
// name.
func (a *Service) checkoutIntent(ctx context.Context, p core.Principal, id, key string, version int64, processor string) (db.Checkout, string, error) {
	var out db.Checkout
	var name string
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		quote, err := a.Approvals.QuoteCheckout(ctx, tx, p, id, version)
		if err != nil {
			if core.ErrorCode(err) != core.CodeInvalidRequestState && core.ErrorCode(err) != core.CodeValidation {
				return err
			}
			// Nobody left to pay for may mean this key's checkout paid for them.
			if prior, perr := q.CheckoutGetByKey(ctx, db.CheckoutGetByKeyParams{WorkspaceID: p.WorkspaceID, CampaignID: id, IdempotencyKey: key, PolicyVersion: version}); perr == nil {
				out = prior
				return nil
			}
			return err
		}
		name = quote.CampaignName
		if prior, err := q.CheckoutGetByKey(ctx, db.CheckoutGetByKeyParams{WorkspaceID: p.WorkspaceID, CampaignID: quote.CampaignID, IdempotencyKey: key, PolicyVersion: version}); err == nil {
			out = prior
			return nil
		} else if !core.IsNoRows(err) {
			return core.Internal(err)
		}
		now := a.Clock.Now()
		if _, err := q.CheckoutExpireStale(ctx, db.CheckoutExpireStaleParams{WorkspaceID: p.WorkspaceID, CampaignID: quote.CampaignID, Now: &now}); err != nil {
			return core.Internal(err)
		}
		// The stale ones just expired, so none in progress has lapsed.
		if curID, curState, busy, err := campaign.CheckoutInProgress(ctx, q, p.WorkspaceID, quote.CampaignID, now); err != nil {
			return err
		} else if busy {
			return &core.Error{Code: core.CodeCheckoutLocked, URL: a.BillingURL(),
				Message: fmt.Sprintf("campaign %s already has checkout %s %s; pay or cancel it first", quote.CampaignID, curID, curState)}
		}
		n := len(quote.RecipientIDs)
		cid := core.NewID(PrefixCheckout)
		if _, err := q.CheckoutInsert(ctx, db.CheckoutInsertParams{
			ID: cid, WorkspaceID: p.WorkspaceID, CampaignID: quote.CampaignID, Mode: string(quote.Mode), IdempotencyKey: key,
			PolicyVersion: version, UnitCents: quote.UnitCents, AmountCents: quote.UnitCents * int64(n), RecipientCount: int32(n),
			Prepaid: quote.Prepaid, ShippingStates: quote.ShippingStates, Processor: processor, CreatedBy: p.UserID, CreatedAt: now, ExpiresAt: now.Add(CheckoutLifetime),
		}); err != nil {
			return core.Internal(err)
		}
		for i, rid := range quote.RecipientIDs {
			if err := q.CheckoutItemInsert(ctx, db.CheckoutItemInsertParams{WorkspaceID: p.WorkspaceID, CheckoutID: cid, Position: int32(i), RecipientID: rid, UnitCents: quote.UnitCents}); err != nil {
				return core.Internal(err)
			}
		}
		out, err = q.CheckoutGet(ctx, db.CheckoutGetParams{WorkspaceID: p.WorkspaceID, ID: cid})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	return out, name, core.AsCoreError(err)
}
