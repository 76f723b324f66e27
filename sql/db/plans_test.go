package db_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
	"github.com/giftwell/giftwell/sql/db"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// identityIndexes are the indexes an add's lookups may read sends and
// recipients through: one per identity, a person's own gifts, a person by
// ID, and the roster's last position.
var identityIndexes = map[string]map[string]bool{
	"sends": {"sends_workspace_email": true, "sends_workspace_source": true, "sends_workspace_profile": true,
		"sends_recipient": true, "sends_recipient_once": true},
	"recipients": {"recipients_pkey": true, "recipients_campaign_email": true, "recipients_campaign_source": true,
		"recipients_campaign_profile": true, "recipients_campaign_position": true},
}

// An add's lookups read gifts and people only through the identity
// indexes, whatever the statistics say: here the tables are new and never
// analyzed, as on a new database or after a burst of adds, when the planner
// took the workspace's gifts newest first and walked them all for a person
// who has none (15 ms and 16,000 buffers a group in the add benchmark), and
// walked the roster by position for a recipientId. The roster's position
// index is allowed only for its last position (PlaybookLockForAdd) and for
// whole rosters (SendPriorForCampaigns).
func TestAddLookupsReadByIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.New(t)
	for name, q := range map[string]struct {
		sql  string
		args []any
	}{
		"PlaybookLockForAdd":     {db.PlaybookLockForAddSQL, []any{"pat@example.com", "crm", "pat-1", "https://www.linkedin.com/in/pat", "test", true, "ws_1", "cmp_1"}},
		"SendPriorForRecipient":  {db.SendPriorForRecipientSQL, []any{"test", "rcp_1"}},
		"SendPriorForRecipients": {db.SendPriorForRecipientsSQL, []any{"test", []string{"rcp_1", "rcp_2"}}},
		"SendPriorForCampaigns":  {db.SendPriorForCampaignsSQL, []any{"test", []string{"cmp_1"}, true}},
		"RecipientCandidatesForAdd": {db.RecipientCandidatesForAddSQL, []any{"rcp_1", "cmp_1", "crm", "pat-1", "pat@example.com",
			"https://www.linkedin.com/in/pat"}},
	} {
		// An empty table is read whole (a sequential scan); among the
		// indexes, the planner's choice is what this test holds.
		tx, err := pool.Begin(ctx)
		require.NoError(t, err)
		_, err = tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
		require.NoError(t, err)
		var raw []byte
		require.NoError(t, tx.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+q.sql, q.args...).Scan(&raw), name)
		require.NoError(t, tx.Rollback(ctx))
		var plans []struct{ Plan planNode }
		require.NoError(t, json.Unmarshal(raw, &plans), name)
		var reads int
		plans[0].Plan.walk(func(n planNode) {
			allowed, watched := identityIndexes[n.Relation]
			if !watched {
				return
			}
			reads++
			indexes := []string{n.Index}
			if n.Type == "Bitmap Heap Scan" {
				indexes = nil // its bitmap index scans name them
				n.walk(func(b planNode) {
					if b.Type == "Bitmap Index Scan" {
						indexes = append(indexes, b.Index)
					}
				})
			}
			require.NotEmpty(t, indexes, "%s reads %s by %s:\n%s", name, n.Relation, n.Type, raw)
			for _, index := range indexes {
				require.True(t, allowed[index], "%s reads %s by %s %q:\n%s", name, n.Relation, n.Type, index, raw)
				if index == "recipients_campaign_position" {
					require.Contains(t, []string{"PlaybookLockForAdd", "SendPriorForCampaigns"}, name,
						"only the roster's last position, and whole rosters, are read by position")
				}
			}
		})
		require.Positive(t, reads, "%s reads gifts or people", name)
	}
}

// planNode is one node of EXPLAIN's JSON plan.
type planNode struct {
	Type     string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Index    string     `json:"Index Name"`
	Plans    []planNode `json:"Plans"`
}

func (n planNode) walk(f func(planNode)) {
	f(n)
	for _, c := range n.Plans {
		c.walk(f)
	}
}
