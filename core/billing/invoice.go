package billing

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// Invoice is Giftwell's own invoice of a paid checkout: the sandbox's, and
// the fallback when the card processor made none.
type Invoice struct {
	Number       string
	CheckoutID   string
	CampaignID   string
	CampaignName string
	Mode         core.Mode
	PaidAt       time.Time
	Items        []CheckoutItem
	TotalCents   int64
	// RefundedCents is what the processor has refunded so far.
	RefundedCents int64
	// Totals count the checkout's gifts by the one definition of each
	// figure (gift.Totals): what is spent on gifts on their way, what is
	// held for declined or expired ones, what came back.
	Totals gift.Totals
}

// Invoice reads the invoice of paid checkout id of p's workspace. It
// returns the codes of Authorize (ActReadBilling), NOT_FOUND (no such
// checkout, or not paid), or INTERNAL_ERROR.
func (a *Service) Invoice(ctx context.Context, p core.Principal, id string) (Invoice, error) {
	if err := core.Authorize(p, core.ActReadBilling, a.BillingURL()); err != nil {
		return Invoice{}, err
	}
	q := db.New(a.DB)
	row, err := getCheckout(ctx, q, p.WorkspaceID, id)
	if err != nil {
		return Invoice{}, err
	}
	if row.PaidAt == nil {
		return Invoice{}, core.FieldError(core.CodeNotFound, "checkoutId", "checkout %s is %s: it has an invoice once paid", row.ID, row.State)
	}
	items, err := a.checkoutItems(ctx, q, p.WorkspaceID, id)
	if err != nil {
		return Invoice{}, err
	}
	c, err := a.Campaigns.LookupCampaign(ctx, p, row.CampaignID)
	if err != nil {
		return Invoice{}, err
	}
	return Invoice{
		Number: "INV-" + strings.ToUpper(strings.TrimPrefix(row.ID, PrefixCheckout)), CheckoutID: row.ID, CampaignID: row.CampaignID,
		CampaignName: c.Name, Mode: core.Mode(row.Mode), PaidAt: row.PaidAt.UTC(), Items: items, TotalCents: row.AmountCents,
		RefundedCents: row.RefundedCents, Totals: checkoutTotals(items),
	}, nil
}

// Lines are the invoice as lines of text, as its PDF prints them.
func (inv Invoice) Lines() []string {
	// One line per item says where its money is (MoneyLine).
	out := []string{
		"Giftwell invoice " + inv.Number,
		"Checkout " + inv.CheckoutID + " (" + string(inv.Mode) + " mode)",
		"Campaign " + inv.CampaignName + " (" + inv.CampaignID + ")",
		"Paid " + inv.PaidAt.Format("2006-01-02 15:04 UTC"),
		"",
	}
	for _, it := range inv.Items {
		out = append(out, fmt.Sprintf("%3d. %-40s %12s  %s", it.Row(), core.Clip(it.RecipientName, 40), core.Dollars(it.AmountCents), MoneyWords(it.Money())))
	}
	out = append(out, "", fmt.Sprintf("Total (USD, all-in: delivery and US sales tax included) %s", core.Dollars(inv.TotalCents)))
	t := inv.Totals
	out = append(out, fmt.Sprintf("Gifts %d: %d sent, %d declined, %d expired", t.Gifts, t.Sent, t.Declined, t.Expired),
		fmt.Sprintf("Spent on gifts sent %s; held for declined or expired gifts %s; refunded to the card %s",
			core.Dollars(t.SentCents), core.Dollars(t.HeldCents), core.Dollars(t.RefundedCents)))
	if inv.RefundedCents > 0 {
		out = append(out, "Refunded "+core.Dollars(inv.RefundedCents))
	}
	if inv.Mode == core.ModeTest {
		out = append(out, "", "Test mode: no money moved.")
	}
	return out
}

// MoneyWords says where an invoice item's money is, in a few words.
func MoneyWords(m gift.MoneyState) string {
	switch m {
	case gift.MoneySpent:
		return "spent on the gift"
	case gift.MoneyHeld:
		return "held for a regift or a refund"
	case gift.MoneyBack:
		return "refunded to the card"
	case gift.MoneyNone:
		return "cancelled"
	}
	return "not a gift yet"
}

// PDF renders the invoice as a one-page PDF (more lines go on further
// pages), text only, in Courier.
func (inv Invoice) PDF() []byte {
	return textPDF(inv.Lines())
}

// textPDF writes lines as a minimal PDF 1.4 document: A4 pages of 60 lines
// in 10-point Courier.
func textPDF(lines []string) []byte {
	const perPage = 60
	var pages [][]string
	for len(lines) > perPage {
		pages, lines = append(pages, lines[:perPage]), lines[perPage:]
	}
	pages = append(pages, lines)

	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n")
	// 1: catalog, 2: pages, 3: font, then a page and its content per page.
	kids := make([]string, len(pages))
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
	for i, page := range pages {
		var s strings.Builder
		s.WriteString("BT /F1 10 Tf 50 800 Td 12 TL\n")
		for _, l := range page {
			fmt.Fprintf(&s, "(%s) Tj T*\n", pdfEscape(l))
		}
		s.WriteString("ET")
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String()))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// pdfEscape makes s a PDF literal string's content: printable ASCII only,
// with its delimiters escaped.
func pdfEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 32 && r < 127:
			b.WriteRune(r)
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}
