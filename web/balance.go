package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/ledger"
)

// balanceData is the content of the balance page.
type balanceData struct {
	Balance ledger.Balance
	Ledger  []ledger.LedgerEntry
	// CanTopUp shows the top-up form (a signed-in owner or admin).
	CanTopUp bool
	// MinTopup and MaxTopup are the form's bounds in cents.
	MinTopup, MaxTopup int64
}

// topupFields are the top-up form's fields.
var topupFields = []string{"amount"}

// balance shows the balance of the current mode, its ledger and the top-up form.
func (h *handler) balance(w http.ResponseWriter, r *http.Request, s session) {
	if session := r.URL.Query().Get("topup"); session != "" {
		// Back from the processor's page: ask the processor, never the URL.
		st, err := h.app.Billing.ReconcileTopup(r.Context(), s.Principal, session)
		if err != nil {
			h.fail(w, r, &s, err)
			return
		}
		done := map[ledger.TopupState]string{ledger.TopupCompleted: "topup-paid", ledger.TopupExpired: "topup-expired", ledger.TopupCreated: "topup-pending"}[st]
		http.Redirect(w, r, "/balance?done="+done, http.StatusSeeOther)
		return
	}
	h.show(w, r, s, "balance", h.balanceView)
}

func (h *handler) balanceView(ctx context.Context, s session) (view, error) {
	b, err := h.app.Approvals.Balance(ctx, s.Principal)
	if err != nil {
		return view{}, err
	}
	entries, err := h.app.Ledger.Ledger(ctx, s.Principal, ledger.DefaultLedgerLimit)
	if err != nil {
		return view{}, err
	}
	return view{
		Nav: "balance",
		// A fresh key per page: submitting the same form twice opens one payment.
		Values: url.Values{"idempotencyKey": {"web-" + core.RandomHex(16)}},
		Data: balanceData{
			Balance: b, Ledger: entries, CanTopUp: core.Authorize(s.Principal, core.ActPay, "") == nil,
			MinTopup: ledger.MinTopupCents, MaxTopup: ledger.MaxTopupCents,
		},
	}, nil
}

// createTopup starts a top-up and sends the person to its payment page.
func (h *handler) createTopup(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	cents, err := parseDollars(r.PostForm.Get("amount"))
	if err != nil {
		h.formFailed(w, r, s, "balance", h.balanceView, dollarsInvalid("amount", "250", err), topupFields...)
		return
	}
	session, err := h.app.Ledger.CreateBalanceTopup(r.Context(), s.Principal, ledger.TopupParams{Cents: cents, IdempotencyKey: r.PostForm.Get("idempotencyKey")})
	if err != nil {
		h.formFailed(w, r, s, "balance", h.balanceView, topupFormError(err), topupFields...)
		return
	}
	http.Redirect(w, r, session.URL, http.StatusSeeOther)
}

// topupFormError names the form's amount field where core names cents.
func topupFormError(err error) error {
	if e := core.AsError(err); e.Code == core.CodeValidation && len(e.Fields) > 0 && e.Fields[0] == "cents" {
		return core.Invalid("amount", "must be between %s and %s", core.Dollars(ledger.MinTopupCents), core.Dollars(ledger.MaxTopupCents))
	}
	return err
}

// errCommaCents is parseDollars' error for an amount whose comma stands
// where cents go ("25,00"): read as a thousands separator it would be a
// hundred times what the person meant, so it is refused.
var errCommaCents = errors.New("comma before cents")

// notDollars is parseDollars' error for anything else it cannot read.
var notDollars = errors.New("not an amount in dollars")

// thousands is a whole-dollar part with comma thousands separators.
var thousands = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})+$`)

// commaCents is an amount ending in a comma and one or two digits.
var commaCents = regexp.MustCompile(`,[0-9]{1,2}$`)

// parseDollars reads an amount in US dollars ("250", "$1,250.50") as cents.
// A comma separates thousands only (1,250 and 2,500.00); an amount ending
// in a comma and one or two digits ("25,00") is errCommaCents, and any
// other form an error.
func parseDollars(s string) (int64, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "$")
	if commaCents.MatchString(s) {
		return 0, errCommaCents
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	if strings.Contains(whole, ",") {
		if !thousands.MatchString(whole) {
			return 0, notDollars
		}
		whole = strings.ReplaceAll(whole, ",", "")
	}
	if whole == "" || len(whole) > 9 || (hasFrac && (len(frac) == 0 || len(frac) > 2)) {
		return 0, notDollars
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w < 0 || strings.ContainsAny(whole, "+-") {
		return 0, notDollars
	}
	var c int64
	if hasFrac {
		if strings.ContainsAny(frac, "+-") {
			return 0, notDollars
		}
		f, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return 0, notDollars
		}
		if len(frac) == 1 {
			f *= 10
		}
		c = f
	}
	return w*100 + c, nil
}

// dollarsInvalid is the VALIDATION_ERROR naming field for an amount
// parseDollars refused, with example as a well-formed amount.
func dollarsInvalid(field, example string, err error) error {
	if errors.Is(err, errCommaCents) {
		return core.Invalid(field, "use a dot for cents, like %s.00; a comma only separates thousands, as in 2,500.00", example)
	}
	return core.Invalid(field, "enter an amount in US dollars, like %s or %s.00", example, example)
}

// sandboxPayment shows the local sandbox's test payment page.
func (h *handler) sandboxPayment(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	p, err := h.app.Ledger.SandboxPayment(r.Context(), s.Principal, id)
	if core.ErrorCode(err) == core.CodeNotFound {
		// Not a top-up's session: a checkout's.
		h.sandboxCheckoutPage(w, r, s, id)
		return
	}
	h.show(w, r, s, "sandbox_pay", func(context.Context, session) (view, error) {
		if err != nil {
			return view{}, err
		}
		return view{Nav: "balance", Data: p}, nil
	})
}

// completeSandboxPayment completes the test payment and goes back to the balance.
func (h *handler) completeSandboxPayment(w http.ResponseWriter, r *http.Request, s session) {
	id := r.PathValue("id")
	switch err := h.app.Ledger.CompleteSandboxPayment(r.Context(), s.Principal, id); {
	case core.ErrorCode(err) == core.CodeNotFound:
		// Not a top-up's session (CompleteSandboxPayment reads it first): a checkout's.
		h.paySandboxCheckout(w, r, s, id)
		return
	case err != nil:
		h.fail(w, r, &s, err)
		return
	}
	http.Redirect(w, r, "/balance?done=topup-paid", http.StatusSeeOther)
}
