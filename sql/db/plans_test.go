package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
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
	pool := testdb.New(t)
	for name, q := range map[string]struct {
		sql  string
		args []any
	}{
		"PlaybookLockForAdd":     {db.PlaybookLockForAddSQL, []any{"pat@example.com", "crm", "pat-1", "https://www.linkedin.com/in/pat", "test", "ws_1", "cmp_1"}},
		"SendPriorForRecipients": {db.SendPriorForRecipientsSQL, []any{"test", []string{"rcp_1", "rcp_2"}}},
		"SendPriorForCampaigns":  {db.SendPriorForCampaignsSQL, []any{"test", []string{"cmp_1"}, true}},
		"RecipientCandidatesForAdd": {db.RecipientCandidatesForAddSQL, []any{"rcp_1", "cmp_1", "crm", "pat-1", "pat@example.com",
			"https://www.linkedin.com/in/pat"}},
	} {
		for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
			checkPlan(t, name+" ("+mode+")", explain(t, pool, mode, q.sql, q.args))
		}
	}
}

// explain is EXPLAIN's JSON of statement sql prepared and run with args,
// under plan_cache_mode mode: a custom plan for these values, or the
// generic plan a prepared statement keeps after its fifth run (pgx
// prepares every statement). An empty table is read whole (a sequential
// scan); among the indexes, the planner's choice is what the test holds.
func explain(t *testing.T, pool *pgxpool.Pool, mode, sql string, args []any) []byte {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	for _, set := range []string{"SET LOCAL enable_seqscan = off", "SET LOCAL plan_cache_mode = " + mode, "PREPARE probe AS " + sql} {
		_, err = tx.Exec(ctx, set)
		require.NoError(t, err, set)
	}
	literals := make([]string, len(args))
	for i, a := range args {
		literals[i] = literal(a)
	}
	var raw []byte
	require.NoError(t, tx.QueryRow(ctx, "EXPLAIN (FORMAT JSON) EXECUTE probe("+strings.Join(literals, ", ")+")").Scan(&raw))
	_, err = tx.Exec(ctx, "DEALLOCATE probe") // a session's, kept past the rollback
	require.NoError(t, err)
	return raw
}

// literal is a as SQL (EXECUTE takes values, not parameters).
func literal(a any) string {
	switch v := a.(type) {
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case []string:
		out := make([]string, len(v))
		for i, e := range v {
			out[i] = literal(e)
		}
		return "ARRAY[" + strings.Join(out, ", ") + "]::text[]"
	default:
		return fmt.Sprint(v)
	}
}

// checkPlan fails t when the plan raw of the statement name reads sends or
// recipients other than through identityIndexes.
func checkPlan(t *testing.T, name string, raw []byte) {
	t.Helper()
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
				require.True(t, strings.HasPrefix(name, "PlaybookLockForAdd") || strings.HasPrefix(name, "SendPriorForCampaigns"),
					"only the roster's last position, and whole rosters, are read by position")
			}
		}
	})
	require.Positive(t, reads, "%s reads gifts or people", name)
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
