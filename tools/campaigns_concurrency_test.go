package tools_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestConcurrentEditsCompareAndSwap: of concurrent writes with the same
// expectedPolicyVersion exactly one lands; the others are POLICY_CHANGED.
func TestConcurrentEditsCompareAndSwap(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	b := c.batch("gourmet-snack-crate", nil)
	id := b["id"].(string)
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = c.call(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 1, "recipients": []obj{person(string(rune('a' + i)))}})
		})
	}
	wg.Wait()
	landed := 0
	for _, err := range errs {
		if err == nil {
			landed++
			continue
		}
		require.Equal(t, core.CodePolicyChanged, core.ErrorCode(err))
	}
	require.Equal(t, 1, landed)
	c.unchanged(id, 2, 1)
}

// TestConcurrentPlaybookAdds: adds to an active playbook need no version;
// concurrent adds all land, and the same person sent twice at once is
// added once.
func TestConcurrentPlaybookAdds(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	pb := c.playbook("gourmet-snack-crate", obj{"message": "Hi {{firstName}}"})
	id := pb["id"].(string)
	c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, 2*n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = c.call(c.key, "add_recipients", obj{"id": id, "recipients": []obj{person(string(rune('a' + i)))}})
		})
		wg.Go(func() {
			_, errs[n+i] = c.call(c.key, "add_recipients", obj{"id": id, "recipients": []obj{person("same")}})
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	got := c.get(id)
	require.Len(t, people(got), n+1)
	require.Equal(t, "active", got["status"])
	require.EqualValues(t, 2, got["policyVersion"])
}
