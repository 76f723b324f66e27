package web_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBrowserQueueApproveSelected(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)
	c, ids := h.queuedPlaybook("Renewals thank-you", ada, bea, cy)
	h.topUp(2 * giftCents)
	b.signIn(h.site, h.env.OwnerEmail)

	require.Equal(t, h.site+"/?queue="+c.ID, b.open(h.site+"/?queue="+c.ID))
	require.Equal(t, "Renewals thank-you", b.text("#queue-playbook"))
	require.Equal(t, "TEST MODE", b.text("#test-mode"))
	require.Equal(t, "3", b.poll(`String(document.querySelectorAll("#queue tr[data-recipient]").length)`))
	b.screenshot("queue-before")

	b.click("#pick-" + ids[0])
	b.click("#pick-" + ids[2])
	require.EqualValues(t, 200, b.submit("#approve-selected"))
	require.Equal(t, h.site+"/?queue="+c.ID, b.location(), "back to the queue page")
	require.Equal(t, "Approved 2 gifts for Ada Lovelace and Cy Clark, $180.00 from the balance.", b.text("#queue-flash-summary"))
	require.Equal(t, "1", b.poll(`String(document.querySelectorAll("#queue tr[data-recipient]").length)`))
	require.True(t, b.exists(`#queue tr[data-recipient="`+ids[1]+`"]`), "Bea still waits")
	require.Equal(t, "$0.00", b.text("#queue-balance-cents"))
	require.True(t, strings.Contains(b.text(`#queue tr[data-recipient="`+ids[1]+`"] .why`), "Add funds"), "Bea now needs funds")
	b.screenshot("queue")
	require.Equal(t, ids[1:2], h.waitingIDs(c.ID))

	// Reloading shows the page again, without the flash and without posting again.
	require.EqualValues(t, 200, b.reload())
	require.False(t, b.exists("#queue-flash"))
	require.Zero(t, h.balanceCents())

	// Bea's own Approve finds the balance empty: core's message, and the way to the balance.
	require.EqualValues(t, 200, b.submit(`button[data-approve="`+ids[1]+`"]`))
	require.Equal(t, "1 could not be approved:", b.text("#queue-flash-summary"))
	require.Contains(t, b.text("#queue-failures"), "Bea Brown: The test balance is $0.00; the gift costs $90.00.")
	b.screenshot("queue-insufficient")
	require.EqualValues(t, 200, b.submit("#queue-failures a.queue-topup"))
	require.Equal(t, h.site+"/balance", b.location())
}
