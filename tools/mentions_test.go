package tools_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

// specTools are the spec's 61 MCP tools (TOOLS.md): the names an agent may
// read anywhere. A name among them that the registry lacks is a tool still
// to be built.
var specTools = []string{
	"get_workflow_guide", "search_gifts", "get_gift", "browse_gifts", "list_campaigns", "get_campaign",
	"preview_campaign", "get_campaign_repeats", "list_queue", "get_balance", "list_sends", "get_send",
	"get_tracking", "list_tracking_events", "campaign_results", "get_report", "get_workspace_settings",
	"create_campaign", "update_campaign", "add_to_playbook", "add_recipients", "manage_recipients",
	"save_recipient_import", "upload_gift_source_chunk", "remove_recipient_source_columns", "upload_artwork",
	"import_recipient_photo", "get_gift_link_records", "export_gift_links", "download_gift_link_export",
	"list_campaign_gift_links", "update_workspace_settings", "customize_gift_link_message",
	"customize_campaign_gift_links", "regift_gift_link", "revoke_gift_link", "update_recipient_photo",
	"get_campaign_invitations", "get_billing_config", "reconcile_campaign_checkout", "list_invoices",
	"list_team_members", "list_team_invitations", "list_webhooks", "quote_send", "record_outcome",
	"approve_gift", "skip_gift", "unskip_gift", "create_balance_topup", "approve_campaign_repeats",
	"create_campaign_checkout", "cancel_campaign_checkout", "launch_campaign", "commit_send",
	"invite_team_member", "revoke_team_invitation", "update_team_member", "remove_team_member", "create_webhook",
	"remove_webhook",
}

// TestAgentsAreToldOnlyOfToolsThatExist: the workflow guide, the prompts,
// the resources and every tool's description name only tools the registry
// has, so an agent following them never reaches for a tool that is not
// there.
func TestAgentsAreToldOnlyOfToolsThatExist(t *testing.T) {
	t.Parallel()
	have := tools.ByName(tools.All(nil))
	word := regexp.MustCompile(`[a-z]+(?:_[a-z]+)+`)
	check := func(where, text string) {
		for _, w := range word.FindAllString(text, -1) {
			if slices.Contains(specTools, w) {
				_, ok := have[w]
				require.True(t, ok, "%s names %s, which is not a tool yet", where, w)
			}
		}
	}
	for _, dir := range []string{"../core/guide", "../prompts", "../resources"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if filepath.Ext(f) == ".go" && !regexp.MustCompile(`_test\.go$`).MatchString(f) {
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				check(f, string(src))
			}
		}
	}
	for _, tool := range tools.All(nil) {
		check(tool.Name+"'s description", tool.Description)
		raw, err := tool.InputSchema.MarshalJSON()
		require.NoError(t, err)
		check(tool.Name+"'s input schema", string(raw))
	}
}
