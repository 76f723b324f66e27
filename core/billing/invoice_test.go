package billing_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
)

// The invoice PDF is well formed: every xref offset points at its object,
// startxref at the xref table; long invoices take more pages; delimiters
// in names are escaped.
func TestInvoicePDFStructure(t *testing.T) {
	t.Parallel()
	inv := billing.Invoice{Number: "INV-1", CheckoutID: "chk_1", CampaignName: "Q3 (thanks)", Mode: core.ModeTest, PaidAt: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), TotalCents: 9_000 * 70}
	for i := range 70 {
		inv.Items = append(inv.Items, billing.CheckoutItem{Position: i, RecipientName: fmt.Sprintf("Person %d \\ é", i), AmountCents: 9_000})
	}
	pdf := string(inv.PDF())
	require.True(t, strings.HasPrefix(pdf, "%PDF-1.4\n"))
	require.True(t, strings.HasSuffix(pdf, "%%EOF\n"))
	require.Contains(t, pdf, `Q3 \(thanks\)`)
	require.Contains(t, pdf, `Person 69 \\ ?`)
	require.Contains(t, pdf, "/Count 2 ")

	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindStringSubmatch(pdf)
	require.NotNil(t, m)
	xref, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(pdf[xref:], "xref\n"))
	offsets := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllStringSubmatch(pdf[xref:], -1)
	require.Len(t, offsets, 3+2*2)
	for i, o := range offsets {
		at, err := strconv.Atoi(o[1])
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(pdf[at:], fmt.Sprintf("%d 0 obj\n", i+1)), "object %d", i+1)
	}
}
