package tracking_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// Two readers polling the feed while 8 writers create events never miss or
// repeat an event. Each writer records one to three events per transaction
// through the kernel and sometimes holds the transaction open between them
// and before its commit, so transactions commit out of seq order; some roll
// back, and some write playbook.person_waiting. Each reader polls with its
// own cursor and random page sizes until the writers are done and the feed
// is drained: it sees every committed feed event exactly once, in feed
// order, and its cursor never goes backwards. Run under -race.
func TestEventFeedConcurrentReadersAndWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)

	const writers, txPerWriter = 8, 12
	var (
		writing   atomic.Int32 // writers still running
		committed atomic.Int64 // feed events committed so far
	)
	writing.Store(writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			defer writing.Add(-1)
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			hold := func() {
				if rng.IntN(3) == 0 {
					time.Sleep(time.Duration(1+rng.IntN(25)) * time.Millisecond) // keep the transaction open: others commit first
				}
			}
			for i := range txPerWriter {
				tx, err := env.App.DB.Begin(ctx)
				if err != nil {
					t.Errorf("writer %d: begin: %v", w, err)
					return
				}
				inFeed := 0
				for j := range 1 + rng.IntN(3) {
					typ := []core.EventType{core.EventSendCreated, core.EventSendAutoApproved, core.EventSendStatusChanged, core.EventPlaybookPersonWaiting}[rng.IntN(4)]
					ev := core.EventRecord{WorkspaceID: env.WorkspaceID, Type: typ, Mode: core.ModeTest, CampaignID: fmt.Sprintf("cmp_w%d", w),
						SendID: fmt.Sprintf("send_w%d_%d_%d", w, i, j), Data: map[string]any{"writer": w}}
					if err := env.App.RecordEvent(ctx, tx, ev); err != nil {
						_ = tx.Rollback(ctx)
						t.Errorf("writer %d: record: %v", w, err)
						return
					}
					if typ.InFeed() {
						inFeed++
					}
					hold()
				}
				if i%5 == 4 {
					if err := tx.Rollback(ctx); err != nil {
						t.Errorf("writer %d: rollback: %v", w, err)
						return
					}
					continue
				}
				if err := tx.Commit(ctx); err != nil {
					t.Errorf("writer %d: commit: %v", w, err)
					return
				}
				committed.Add(int64(inFeed))
			}
		})
	}

	type reading struct {
		ids     []string
		cursors [][2]int64 // each poll's nextCursor position (xid, seq)
	}
	readings := make([]reading, 2)
	for r := range readings {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(r), 29))
			seen := map[string]bool{}
			in := tracking.EventsInput{}
			deadline := time.Now().Add(90 * time.Second)
			for {
				done := writing.Load() == 0 // read before the poll: everything committed by now is below a later horizon
				in.Limit = 1 + rng.IntN(10)
				page, err := env.App.Tracking.Events(ctx, key, in)
				if err != nil {
					t.Errorf("reader %d: %v", r, err)
					return
				}
				for _, it := range page.Items {
					if seen[it.ID] {
						t.Errorf("reader %d: %s repeated", r, it.ID)
						return
					}
					seen[it.ID] = true
					readings[r].ids = append(readings[r].ids, it.ID)
				}
				xid, seq, err := tracking.CursorPosition(env.WorkspaceID, page.NextCursor)
				if err != nil {
					t.Errorf("reader %d: nextCursor: %v", r, err)
					return
				}
				readings[r].cursors = append(readings[r].cursors, [2]int64{int64(xid), seq})
				in.Cursor = page.NextCursor
				if done && !page.HasMore && int64(len(seen)) >= committed.Load() {
					return
				}
				if time.Now().After(deadline) {
					t.Errorf("reader %d: saw %d of %d events", r, len(seen), committed.Load())
					return
				}
			}
		})
	}
	wg.Wait()
	require.False(t, t.Failed())

	// The feed's truth: the committed feed events, in (xid, seq) order.
	rows, err := db.New(env.App.DB).EventListByWorkspace(ctx, db.EventListByWorkspaceParams{WorkspaceID: env.WorkspaceID, MaxRows: 10_000})
	require.NoError(t, err)
	rows = slices.DeleteFunc(rows, func(r db.Event) bool { return !r.InFeed })
	slices.SortFunc(rows, func(a, b db.Event) int { return cmp.Or(cmp.Compare(a.Xid, b.Xid), cmp.Compare(a.Seq, b.Seq)) })
	want := make([]string, len(rows))
	outOfSeq := 0
	for i, r := range rows {
		want[i] = r.ID
		if i > 0 && r.Seq < rows[i-1].Seq {
			outOfSeq++
		}
	}
	require.EqualValues(t, committed.Load(), len(want))
	t.Logf("%d feed events; %d follow an event with a higher seq", len(want), outOfSeq)

	for r, got := range readings {
		require.Equal(t, want, got.ids, "reader %d: every committed event once, in feed order", r)
		require.True(t, slices.IsSortedFunc(got.cursors, func(a, b [2]int64) int {
			return cmp.Or(cmp.Compare(uint64(a[0]), uint64(b[0])), cmp.Compare(a[1], b[1]))
		}), "reader %d: the cursor never goes backwards", r)
	}
}
