package tracking_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
)

// Every feed item carries the cursor right after it: polling from an
// item's cursor continues with the next event, and a webhook body (ItemOf)
// carries the same cursor, except playbook.person_waiting, which has none.
func TestItemCursorContinuesAfterIt(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	for _, id := range []string{"send_a", "send_b", "send_c"} {
		record(t, env, core.EventRecord{WorkspaceID: env.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest, SendID: id})
	}
	items, _ := drain(t, env, key, tracking.EventsInput{}, 3)
	for i, it := range items[:2] {
		require.NotEmpty(t, it.Cursor)
		next, _ := drain(t, env, key, tracking.EventsInput{Cursor: it.Cursor}, 2-i)
		require.Equal(t, ids(items[i+1:]), ids(next), "after %s", it.ID)
	}
	body, err := tracking.ItemOf(core.Event{ID: "evt_w", Type: core.EventPlaybookPersonWaiting, WorkspaceID: env.WorkspaceID, Seq: 9, Xid: 9, Data: []byte(`{}`)})
	require.NoError(t, err)
	require.Empty(t, body.Cursor, "playbook.person_waiting has no cursor")
	body, err = tracking.ItemOf(core.Event{ID: "evt_s", Type: core.EventSendCreated, WorkspaceID: env.WorkspaceID, Seq: 9, Xid: 9, Data: []byte(`{}`)})
	require.NoError(t, err)
	require.NotEmpty(t, body.Cursor)
}
