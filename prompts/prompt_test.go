package prompts_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/prompts"
)

func TestRegistry(t *testing.T) {
	t.Parallel()
	var got []string
	for _, p := range prompts.All() {
		got = append(got, p.Name)
		require.NotEmpty(t, p.Title, p.Name)
		require.NotEmpty(t, p.Description, p.Name)
		for _, a := range p.Arguments {
			require.NotEmpty(t, a.Description, "%s.%s", p.Name, a.Name)
			require.Positive(t, a.MaxLength, "%s.%s", p.Name, a.Name)
		}
	}
	require.Equal(t, []string{"start_playbook", "add_people_to_playbook", "prepare_batch_campaign"}, got)
}

func TestRenderChecksArguments(t *testing.T) {
	t.Parallel()
	byName := prompts.ByName()
	for _, tc := range []struct {
		prompt string
		args   map[string]string
		field  string
	}{
		{"start_playbook", nil, "goal"},
		{"start_playbook", map[string]string{"goal": "   "}, "goal"},
		{"start_playbook", map[string]string{"goal": "g", "budget": strings.Repeat("9", 51)}, "budget"},
		{"start_playbook", map[string]string{"goal": "g", "campaignId": "cmp_1"}, "campaignId"},
		{"add_people_to_playbook", map[string]string{}, "campaignId"},
		{"prepare_batch_campaign", map[string]string{"goal": strings.Repeat("é", 501)}, "goal"},
	} {
		_, err := byName[tc.prompt].Render(tc.args)
		require.Error(t, err, tc.prompt)
		e := core.AsError(err)
		require.Equal(t, core.CodeValidation, e.Code)
		require.Equal(t, []string{tc.field}, e.Fields)
		require.True(t, strings.HasPrefix(e.Message, tc.field+":"), e.Message)
	}
}

// requireInOrder checks that each phrase appears in text after the one before.
func requireInOrder(t *testing.T, text string, phrases ...string) {
	t.Helper()
	at := 0
	for _, p := range phrases {
		i := strings.Index(text[at:], p)
		require.GreaterOrEqual(t, i, 0, "%q missing after position %d", p, at)
		at += i + len(p)
	}
}

func TestStartPlaybookFollowsThePlaybookFlow(t *testing.T) {
	t.Parallel()
	text, err := prompts.ByName()["start_playbook"].Render(map[string]string{"goal": "book demos with VPs", "budget": "$60"})
	require.NoError(t, err)
	require.Contains(t, text, "book demos with VPs")
	require.Contains(t, text, "$60")
	requireInOrder(t, text, "search_gifts", "create_campaign", `mode "always_on"`, "review URL",
		"add_to_playbook", "approval.state", "approvalUrl", "topUpUrl", "gift links", "get_tracking")

	noBudget, err := prompts.ByName()["start_playbook"].Render(map[string]string{"goal": "g"})
	require.NoError(t, err)
	require.Contains(t, noBudget, "ask the user")
}

func TestAddPeopleNamesThePlaybook(t *testing.T) {
	t.Parallel()
	text, err := prompts.ByName()["add_people_to_playbook"].Render(map[string]string{"campaignId": "cmp_abc"})
	require.NoError(t, err)
	require.Contains(t, text, "cmp_abc")
	requireInOrder(t, text, "get_campaign", "add_to_playbook", "approval.state", "approvalUrl", "get_balance", "topUpUrl")
}

func TestPrepareBatchFollowsTheBatchFlow(t *testing.T) {
	t.Parallel()
	text, err := prompts.ByName()["prepare_batch_campaign"].Render(nil)
	require.NoError(t, err)
	requireInOrder(t, text, "search_gifts", "create_campaign", `mode "batch"`, "add_recipients",
		"preview_campaign", "review URL", "checkout", "gift links")
}
