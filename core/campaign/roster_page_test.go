package campaign_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
)

// TestPageRoster reads a roster page by page, and refuses a cursor of
// another campaign or workspace.
func TestPageRoster(t *testing.T) {
	t.Parallel()
	c := campaign.Campaign{ID: "cmp_1"}
	for i := range 120 {
		r := campaign.Recipient{RecipientID: fmt.Sprintf("rcp_%d", i)}
		if i%3 == 0 {
			r.SendID = "send_x"
		}
		c.Recipients = append(c.Recipients, r)
	}
	first := campaign.FirstPage(c, "ws_1")
	require.Len(t, first.Recipients, campaign.DefaultRosterLimit)
	require.Equal(t, campaign.RosterCounts{Total: 120, Gifted: 40}, first.RosterCounts)
	require.NotNil(t, first.RosterNextCursor)

	var seen []string
	cursor := ""
	for {
		page, err := campaign.PageRoster(c, "ws_1", campaign.RosterPageInput{Limit: 50, Cursor: cursor})
		require.NoError(t, err)
		for _, r := range page.Recipients {
			seen = append(seen, r.RecipientID)
		}
		if page.RosterNextCursor == nil {
			break
		}
		cursor = *page.RosterNextCursor
	}
	require.Len(t, seen, 120)
	require.Equal(t, "rcp_119", seen[119])

	// A person read leaves: the next page still starts after them.
	page, err := campaign.PageRoster(c, "ws_1", campaign.RosterPageInput{Limit: 10})
	require.NoError(t, err)
	shrunk := c
	shrunk.Recipients = append([]campaign.Recipient{}, c.Recipients[1:]...)
	next, err := campaign.PageRoster(shrunk, "ws_1", campaign.RosterPageInput{Limit: 10, Cursor: *page.RosterNextCursor})
	require.NoError(t, err)
	require.Equal(t, "rcp_10", next.Recipients[0].RecipientID)

	for _, bad := range []struct{ ws, id string }{{"ws_2", "cmp_1"}, {"ws_1", "cmp_2"}} {
		other := c
		other.ID = bad.id
		_, err := campaign.PageRoster(other, bad.ws, campaign.RosterPageInput{Cursor: *first.RosterNextCursor})
		var ce *core.Error
		require.ErrorAs(t, err, &ce)
		require.Equal(t, core.CodeValidation, ce.Code)
	}
}
