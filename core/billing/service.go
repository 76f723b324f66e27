// Package billing is Giftwell's card billing: campaign checkouts (opened at
// the payment processor, paid, expired or cancelled), the processor's events
// applied exactly once, launch (paid roster positions into gifts),
// reconcile, invoices and the billing config.
package billing

import (
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/ledger"
)

// Service is the billing subject. Its methods are the transaction
// boundaries of the subject; none calls the payment processor while a
// transaction is open or a row is locked.
type Service struct {
	*core.Kernel
	// Campaigns activates a paid campaign and reads its record.
	Campaigns *campaign.Service
	// Approvals quotes checkouts and creates the gifts launch prepares.
	Approvals *approval.Service
	// Gifts reads the gifts launch created.
	Gifts *gift.Service
	// Ledger holds the payment processor (Ledger.Payments) and completes
	// top-ups.
	Ledger *ledger.Service
}

// PrefixCheckout starts checkout IDs.
const PrefixCheckout = "chk_"

// BillingURL is the billing page, where an owner or admin sees checkouts
// and invoices.
func (a *Service) BillingURL() string { return a.Config.SiteURL + "/billing" }

// InvoiceURL is Giftwell's own invoice page of a paid checkout.
func (a *Service) InvoiceURL(checkoutID string) string {
	return a.Config.SiteURL + "/billing/invoices/" + checkoutID
}

// InvoicePDFURL is Giftwell's own invoice of a paid checkout as a PDF.
func (a *Service) InvoicePDFURL(checkoutID string) string {
	return a.Config.SiteURL + "/billing/invoices/" + checkoutID + "/pdf"
}

// LaunchURL is the page that drives a paid campaign's launch to the end.
func (a *Service) LaunchURL(campaignID string) string {
	return a.Config.SiteURL + "/campaigns/" + campaignID + "/launch"
}

// processorOf is the configured payment processor when it is the one named
// (the processor a checkout or top-up was opened with), or nil: a session
// of another processor is not this service's to ask.
func (a *Service) processorOf(name string) ledger.PaymentProcessor {
	if proc := a.Ledger.Payments; proc != nil && proc.Name() == name {
		return proc
	}
	return nil
}
