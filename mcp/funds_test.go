package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestTopUpDecidesWaitingPeopleOverMCP: an agent adds three people to an
// auto-approving playbook with an empty balance; each waits for funds, and
// the answer and the queue say how much to add and that a top-up decides
// them. After a top-up for two gifts, the funds-arrived job approves the
// first two in queue order, with no re-add, and the third still waits
// with the new amount to add.
func TestTopUpDecidesWaitingPeopleOverMCP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	app := b.env.App
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	_, owner := b.env.SignIn(t, b.env.OwnerEmail)
	show := func(label string, v any) {
		raw, err := json.Marshal(v)
		require.NoError(t, err)
		t.Logf("%s: %s", label, raw)
	}

	id := activePlaybook(t, b, a, owner, "Closed-won thanks", true)

	var people []string
	for _, name := range []string{"Ana Ruiz", "Ben Okafor", "Chen Wei"} {
		res := a.ok("add_to_playbook", map[string]any{"id": id, "recipient": map[string]any{"name": name}})
		show("add_to_playbook {name: "+name+"}", map[string]any{"approval": res["approval"], "blockers": res["blockers"], "why": res["why"], "topUpUrl": res["topUpUrl"]})
		require.Equal(t, "waiting", res["approval"].(map[string]any)["state"])
		require.Equal(t, "low_balance", res["approval"].(map[string]any)["reason"])
		people = append(people, res["recipientId"].(string))
	}
	queue := a.ok("list_queue", map[string]any{"campaignId": id})
	first := queue["items"].([]any)[0].(map[string]any)
	show("list_queue, first person", map[string]any{"blockers": first["blockers"], "why": first["why"]})
	require.Contains(t, first["why"], "Add $270.00 to the balance to pay for the 3 gifts waiting for funds.")
	require.Contains(t, first["why"], "Auto-approve then approves these gifts by itself, in queue order.")

	// A person tops up for two gifts; nobody adds anyone again.
	b.env.TopUp(t, owner, 18_000)
	approved := 0
	for _, job := range apptest.WorkJobs(t, app, &approval.FundsArrivedWorker{Approvals: app.Approvals}) {
		require.Equal(t, rivertype.JobStateCompleted, job.State, "errors: %v", job.Errors)
		var out approval.FundsArrivedOutput
		require.NoError(t, json.Unmarshal(job.Output(), &out))
		approved += out.Approved
	}
	t.Logf("top-up of $180.00: the funds-arrived job approved %d", approved)
	require.Equal(t, 2, approved)

	sends := a.ok("list_sends", map[string]any{"campaignId": id})
	require.Len(t, sends["items"], 2)
	for _, s := range sends["items"].([]any) {
		g := s.(map[string]any)
		show("list_sends", map[string]any{"recipient": g["recipient"].(map[string]any)["name"], "status": g["status"], "totalCents": g["totalCents"], "decidedBy": g["decidedBy"]})
		require.Equal(t, "rule", g["decidedBy"].(map[string]any)["kind"])
	}
	queue = a.ok("list_queue", map[string]any{"campaignId": id})
	require.Len(t, queue["items"], 1)
	last := queue["items"].([]any)[0].(map[string]any)
	show("list_queue, still waiting", map[string]any{"blockers": last["blockers"], "why": last["why"]})
	require.Equal(t, people[2], last["recipientId"], "queue order kept: the third still waits")
	require.Contains(t, last["why"], "Add $90.00 to the balance to pay for this gift.")
}
