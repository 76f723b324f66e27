package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/campaign"
)

// billingData is the content of the billing page: the workspace's
// checkouts with their invoices.
type billingData struct {
	Config    billing.BillingConfig
	Checkouts []billing.Checkout
	// CanManage shows the list (an owner or admin).
	CanManage bool
}

// billingPage lists the checkouts of the current mode with their invoice
// links, and the cancel and reconcile buttons.
func (h *handler) billingPage(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "billing", func(ctx context.Context, s session) (view, error) {
		cfg, err := h.app.Billing.BillingConfig(ctx, s.Principal)
		if err != nil {
			return view{}, err
		}
		d := billingData{Config: cfg, CanManage: core.Authorize(s.Principal, core.ActReadBilling, "") == nil}
		if d.CanManage {
			if d.Checkouts, err = h.app.Billing.ListInvoices(ctx, s.Principal, billing.InvoiceFilter{Limit: billing.DefaultInvoiceLimit}); err != nil {
				return view{}, err
			}
		}
		return view{Nav: "billing", Data: d}, nil
	})
}

// cancelCheckout cancels an unpaid checkout and goes back to the billing page.
func (h *handler) cancelCheckout(w http.ResponseWriter, r *http.Request, s session) {
	if _, err := h.app.Billing.CancelCampaignCheckout(r.Context(), s.Principal, r.PathValue("id")); err != nil {
		h.fail(w, r, &s, err)
		return
	}
	http.Redirect(w, r, "/billing?done=checkout-cancelled", http.StatusSeeOther)
}

// reconcileCheckout asks the processor again and goes back to the billing page.
func (h *handler) reconcileCheckout(w http.ResponseWriter, r *http.Request, s session) {
	if _, err := h.app.Billing.ReconcileCampaignCheckout(r.Context(), s.Principal, r.PathValue("id")); err != nil {
		h.fail(w, r, &s, err)
		return
	}
	http.Redirect(w, r, "/billing?done=checkout-reconciled", http.StatusSeeOther)
}

// invoicePage shows Giftwell's invoice of a paid checkout.
func (h *handler) invoicePage(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	h.show(w, r, s, "invoice", func(ctx context.Context, s session) (view, error) {
		inv, err := h.app.Billing.Invoice(ctx, s.Principal, id)
		if err != nil {
			return view{}, err
		}
		return view{Nav: "billing", Data: inv}, nil
	})
}

// invoicePDF sends Giftwell's invoice of a paid checkout as a PDF.
func (h *handler) invoicePDF(w http.ResponseWriter, r *http.Request, s session) {
	inv, err := h.app.Billing.Invoice(r.Context(), s.Principal, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="`+inv.Number+`.pdf"`)
	_, _ = w.Write(inv.PDF())
}

// payCampaign opens the campaign's checkout (Pay and launch) for the
// version the page showed and sends the person to its payment page.
func (h *handler) payCampaign(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	v, err := strconv.ParseInt(r.PostForm.Get("policyVersion"), 10, 64)
	if err != nil || v < 1 || v > campaign.MaxPolicyVersion {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), core.Invalid("expectedPolicyVersion", "is missing; reload the page and try again"))
		return
	}
	c, err := h.app.Billing.CreateCampaignCheckout(r.Context(), s.Principal, id, billing.CheckoutParams{ExpectedPolicyVersion: v, IdempotencyKey: r.PostForm.Get("idempotencyKey")})
	if err != nil {
		h.formFailed(w, r, s, "campaign", h.campaignLoader(r), err)
		return
	}
	switch c.State {
	case billing.CheckoutOpen:
		http.Redirect(w, r, c.URL, http.StatusSeeOther)
	default:
		http.Redirect(w, r, "/campaigns/"+url.PathEscape(id)+"/launch", http.StatusSeeOther)
	}
}

// launchData is the content of the launch page.
type launchData struct {
	CampaignID string
	// Checkout is the campaign's newest checkout; nil when it has none.
	Checkout *billing.Checkout
}

// Done reports whether every paid position is prepared.
func (d launchData) Done() bool {
	return d.Checkout != nil && d.Checkout.State == billing.CheckoutConsumed
}

// Launching reports whether launch has positions left.
func (d launchData) Launching() bool {
	return d.Checkout != nil && d.Checkout.State == billing.CheckoutPaid
}

// launchPage shows the campaign's checkout and drives its launch: while
// positions remain, its form (submitted by the page's script, or by hand)
// prepares the next ones. Coming back from the payment page it asks the
// processor (reconcile); the return itself proves nothing.
func (h *handler) launchPage(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	h.show(w, r, s, "launch", func(ctx context.Context, s session) (view, error) {
		d := launchData{CampaignID: id}
		c, err := h.app.Billing.CampaignCheckout(ctx, s.Principal, id)
		if err != nil {
			return view{}, err
		}
		if c != nil && c.State == billing.CheckoutOpen && r.URL.Query().Get("checkout") == c.ID {
			// Back from the payment page (an owner or admin paid): ask the processor.
			rc, err := h.app.Billing.ReconcileCampaignCheckout(ctx, s.Principal, c.ID)
			if err != nil {
				return view{}, err
			}
			c = &rc
		}
		d.Checkout = c
		return view{Nav: "campaigns", Data: d}, nil
	})
}

// launchStep prepares the next paid positions and comes back to the
// launch page.
func (h *handler) launchStep(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	cursor, err := strconv.Atoi(r.PostForm.Get("cursor"))
	if err != nil {
		h.fail(w, r, &s, core.Invalid("cursor", "is missing; reload the page"))
		return
	}
	if _, err := h.app.Billing.LaunchCampaign(r.Context(), s.Principal, id, cursor); err != nil {
		h.fail(w, r, &s, err)
		return
	}
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(id)+"/launch", http.StatusSeeOther)
}

// sandboxCheckoutPage shows the sandbox's payment page of a checkout.
func (h *handler) sandboxCheckoutPage(w http.ResponseWriter, r *http.Request, s session, id string) {
	h.show(w, r, s, "sandbox_checkout", func(ctx context.Context, s session) (view, error) {
		c, err := h.app.Billing.SandboxCheckout(ctx, s.Principal, id)
		if err != nil {
			return view{}, err
		}
		return view{Nav: "billing", Data: c}, nil
	})
}

// paySandboxCheckout pays a sandbox checkout and goes on to its launch.
func (h *handler) paySandboxCheckout(w http.ResponseWriter, r *http.Request, s session, id string) {
	c, err := h.app.Billing.PaySandboxCheckout(r.Context(), s.Principal, id)
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(c.CampaignID)+"/launch?done=checkout-paid", http.StatusSeeOther)
}

// abandonSandboxPayment abandons a sandbox checkout and goes back to its
// campaign's review page.
func (h *handler) abandonSandboxPayment(w http.ResponseWriter, r *http.Request, s session) {
	c, err := h.app.Billing.AbandonSandboxCheckout(r.Context(), s.Principal, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(c.CampaignID)+"?review=1&done=checkout-abandoned", http.StatusSeeOther)
}
