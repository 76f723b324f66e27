package web_test

import (
	"context"
	"html"
	"net/http"
	"testing"

	"github.com/giftwell/giftwell/core/gift"
	"github.com/stretchr/testify/require"
)

// TestGiftLinkPageKeepsToThePrepaidStates: the recipient page of a gift
// bought at a prepaid offer names the states it ships to and refuses an
// address elsewhere with a message naming them.
func TestGiftLinkPageKeepsToThePrepaidStates(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sendID, path := h.linkGift("Ada Lovelace")
	_, err := h.env.App.DB.Exec(context.Background(), `UPDATE sends SET shipping_states = $2 WHERE id = $1`, sendID, []string{"CA", "TX"})
	require.NoError(t, err)
	c := h.client()

	res := c.get(path)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `<p class="hint" id="shipping-states">This gift ships only to these states: CA, TX.</p>`)
	res = c.post(path, address()) // Illinois
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	require.Contains(t, html.UnescapeString(res.Body), "This gift ships only to CA, TX; Illinois (IL) is not one of them")
	require.Equal(t, gift.SendAwaitingAddress, h.giftStatus(sendID))

	texas := address()
	texas.Set("city", "Austin")
	texas.Set("state", "TX")
	texas.Set("zip", "78701")
	res = c.post(path, texas)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, gift.SendReady, h.giftStatus(sendID))
}
