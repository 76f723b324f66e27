package billing

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of list_invoices.
const (
	// DefaultInvoiceLimit is how many checkouts a list returns by default.
	DefaultInvoiceLimit = 50
	// MaxInvoiceLimit is the most checkouts one list returns.
	MaxInvoiceLimit = 100
)

// InvoiceFilter narrows list_invoices.
type InvoiceFilter struct {
	// CampaignID keeps one campaign's checkouts ("" for all).
	CampaignID string
	// Limit is 1-100.
	Limit int
	// Before keeps checkouts created before it (zero: no bound); pass the
	// last item's createdAt to read the next page.
	Before time.Time
}

// ListInvoices lists the checkouts of p's workspace in its current mode,
// newest first, with their invoice links once paid. Unpaid checkouts whose
// time is up read as expired. It returns the codes of Authorize
// (ActReadBilling: an owner or admin), VALIDATION_ERROR naming limit, or
// INTERNAL_ERROR.
func (a *Service) ListInvoices(ctx context.Context, p core.Principal, f InvoiceFilter) ([]Checkout, error) {
	if err := core.Authorize(p, core.ActReadBilling, a.BillingURL()); err != nil {
		return nil, err
	}
	if f.Limit < 1 || f.Limit > MaxInvoiceLimit {
		return nil, core.Invalid("limit", "must be between 1 and %d", MaxInvoiceLimit)
	}
	before := f.Before
	if before.IsZero() {
		before = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	var campaignID *string
	if f.CampaignID != "" {
		campaignID = &f.CampaignID
	}
	rows, err := db.New(a.DB).CheckoutList(ctx, db.CheckoutListParams{
		WorkspaceID: p.WorkspaceID, Mode: string(p.Mode), CampaignID: campaignID, Before: before, RowLimit: int32(f.Limit),
	})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]Checkout, 0, len(rows))
	for _, r := range rows {
		out = append(out, a.readCheckout(r))
	}
	return out, nil
}

// CheckoutItem is one paid position of a checkout.
type CheckoutItem struct {
	Position       int    `json:"position" jsonschema:"the paid position (0-based), in roster order"`
	RecipientID    string `json:"recipientId" jsonschema:"the person"`
	RecipientName  string `json:"recipientName" jsonschema:"their name"`
	AmountCents    int64  `json:"amountCents" jsonschema:"what the position cost in USD cents"`
	SendID         string `json:"sendId,omitempty" jsonschema:"the gift launch made for it; absent until then"`
	Status         string `json:"status" jsonschema:"the gift's status; pending before launch prepares it, failed when it could not become a gift"`
	RefundEligible bool   `json:"refundEligible" jsonschema:"true when an owner or admin may ask a refund for the gift now, as its link's canRequestRefund: unused with its link revoked or expired, or declined by its recipient; no request waiting or refunded"`

	// refunded is set when the gift's refund to the card succeeded.
	refunded bool
}

// Money is where the item's money is (gift.MoneyOf): "" before launch
// made its gift, or when it could not.
func (it CheckoutItem) Money() gift.MoneyState {
	if it.SendID == "" {
		return ""
	}
	return gift.MoneyOf(gift.SendStatus(it.Status), gift.FundedByCheckout, it.refunded)
}

// checkoutTotals counts the gifts of items by gift.Totals.
func checkoutTotals(items []CheckoutItem) gift.Totals {
	var t gift.Totals
	for _, it := range items {
		if it.SendID != "" {
			t.Add(gift.SendStatus(it.Status), gift.FundedByCheckout, it.refunded, 1, it.AmountCents)
		}
	}
	return t
}

// Row is the item's line number on an invoice, counted from 1 (Position
// counts from 0, as launch's cursor does).
func (it CheckoutItem) Row() int { return it.Position + 1 }

// CheckoutItems lists the paid positions of checkout id of p's workspace
// with their gifts. It returns the codes of Authorize (ActReadBilling),
// NOT_FOUND, or INTERNAL_ERROR.
func (a *Service) CheckoutItems(ctx context.Context, p core.Principal, id string) ([]CheckoutItem, error) {
	if err := core.Authorize(p, core.ActReadBilling, a.BillingURL()); err != nil {
		return nil, err
	}
	q := db.New(a.DB)
	if _, err := getCheckout(ctx, q, p.WorkspaceID, id); err != nil {
		return nil, err
	}
	return a.checkoutItems(ctx, q, p.WorkspaceID, id)
}

// checkoutItems lists the paid positions of checkout id of workspaceID,
// read through q, with their gifts.
func (a *Service) checkoutItems(ctx context.Context, q *db.Queries, workspaceID, id string) ([]CheckoutItem, error) {
	rows, err := q.CheckoutItemList(ctx, db.CheckoutItemListParams{WorkspaceID: workspaceID, CheckoutID: id})
	if err != nil {
		return nil, core.Internal(err)
	}
	now := a.Clock.Now()
	out := make([]CheckoutItem, 0, len(rows))
	for _, r := range rows {
		it := CheckoutItem{Position: int(r.Position), RecipientID: r.RecipientID, RecipientName: r.RecipientName, AmountCents: r.UnitCents, Status: "pending"}
		switch {
		case r.SendID != nil:
			it.SendID = *r.SendID
			if r.SendStatus != nil {
				it.Status = *r.SendStatus
			}
			it.RefundEligible = refundEligible(r, now)
			it.refunded = giftlink.RefundState(r.RefundState) == giftlink.RefundRefunded
		case r.ErrorCode != "":
			it.Status = "failed"
		}
		out = append(out, it)
	}
	return out, nil
}

// refundEligible is whether a refund may be asked for position r's gift
// at now: the rule of its link's canRequestRefund (giftlink). A gift
// without a link (its sender supplied the address) has no refund route.
func refundEligible(r db.CheckoutItemListRow, now time.Time) bool {
	if r.SendID == nil || r.SendStatus == nil || r.LinkState == nil || r.LinkExpiresAt == nil {
		return false
	}
	f := giftlink.RefundFacts{
		SendID: *r.SendID, SendStatus: *r.SendStatus, FundedBy: gift.FundedByCheckout, LinkState: *r.LinkState, LinkExpiresAt: *r.LinkExpiresAt,
		Refund: giftlink.RefundState(r.RefundState),
	}
	if r.SendTotalCents != nil {
		f.TotalCents = *r.SendTotalCents
	}
	return giftlink.CanRequestRefund(f, now) == nil
}

// BillingMode is how the service takes card payments.
type BillingMode string

// The billing modes.
const (
	BillingSandbox  BillingMode = "sandbox"
	BillingLive     BillingMode = "live"
	BillingDisabled BillingMode = "disabled"
)

// BillingConfig is get_billing_config's answer.
type BillingConfig struct {
	Enabled bool        `json:"enabled" jsonschema:"true when checkouts and top-ups can be paid"`
	Mode    BillingMode `json:"mode" jsonschema:"sandbox (test payments only, no real money: the local sandbox or Stripe with a test key), live (real card payments) or disabled" schema:"enum=sandbox|live|disabled"`
	CanPay  bool        `json:"canPay" jsonschema:"true when the caller may pay: a signed-in owner or admin; false for keys and connections"`
}

// BillingConfig reports how the service takes payments and whether p may
// pay. Mode is live only when real money moves: the sandbox and a
// processor that reports itself not live (Stripe with a test key,
// ledger.LiveReporter) are sandbox. It returns the codes of Authorize
// (ActReadWorkspaceDetails).
func (a *Service) BillingConfig(_ context.Context, p core.Principal) (BillingConfig, error) {
	if err := core.Authorize(p, core.ActReadWorkspaceDetails, ""); err != nil {
		return BillingConfig{}, err
	}
	out := BillingConfig{Mode: BillingDisabled}
	if proc := a.Ledger.Payments; proc != nil {
		out.Enabled, out.Mode = true, BillingLive
		if lr, ok := proc.(ledger.LiveReporter); proc.Name() == ledger.SandboxProcessorName || (ok && !lr.Live()) {
			out.Mode = BillingSandbox
		}
		out.CanPay = core.Authorize(p, core.ActPay, "") == nil
	}
	return out, nil
}
