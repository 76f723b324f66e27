package apptest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// GiftEvents returns every event recorded for gift sendID of the test
// workspace, oldest first, with its stored data: what tests check of a
// gift's history. (The feed, get_tracking and the web app's timeline are
// core/tracking's, which leaves some events and fields out.)
func (e *Env) GiftEvents(t testing.TB, sendID string) []core.Event {
	t.Helper()
	rows, err := db.New(e.App.DB).EventListBySend(context.Background(), sendID)
	require.NoError(t, err)
	out := make([]core.Event, 0, len(rows))
	for _, r := range rows {
		require.Equal(t, e.WorkspaceID, r.WorkspaceID, "gift %s is the test workspace's", sendID)
		out = append(out, core.EventFromRow(r))
	}
	return out
}
