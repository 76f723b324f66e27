package tools_test

import "github.com/giftwell/giftwell/tools"

// catalogOfTools is TOOLS.md transcribed: every tool of the finished registry,
// in order, with its scope and whether the assistant endpoint lists it.
var catalogOfTools = []struct {
	name    string
	scope   tools.Scope
	chatgpt bool
}{
	{"get_workflow_guide", tools.ScopeRead, true},
	{"search_gifts", tools.ScopeRead, true},
	{"get_gift", tools.ScopeRead, true},
	{"browse_gifts", tools.ScopeRead, true},
	{"list_campaigns", tools.ScopeRead, true},
	{"get_campaign", tools.ScopeRead, true},
	{"preview_campaign", tools.ScopeRead, true},
	{"get_campaign_repeats", tools.ScopeRead, false},
	{"list_queue", tools.ScopeRead, false},
	{"get_balance", tools.ScopeRead, false},
	{"list_sends", tools.ScopeRead, false},
	{"get_send", tools.ScopeRead, false},
	{"get_tracking", tools.ScopeRead, true},
	{"list_tracking_events", tools.ScopeRead, false},
	{"campaign_results", tools.ScopeRead, true},
	{"get_report", tools.ScopeRead, false},
	{"get_workspace_settings", tools.ScopeRead, false},
	{"create_campaign", tools.ScopeWrite, true},
	{"update_campaign", tools.ScopeWrite, true},
	{"add_to_playbook", tools.ScopeWrite, false},
	{"add_recipients", tools.ScopeWrite, true},
	{"manage_recipients", tools.ScopeWrite, false},
	{"save_recipient_import", tools.ScopeWrite, false},
	{"upload_gift_source_chunk", tools.ScopeWrite, false},
	{"remove_recipient_source_columns", tools.ScopeWrite, false},
	{"upload_artwork", tools.ScopeWrite, false},
	{"import_recipient_photo", tools.ScopeWrite, false},
	{"get_gift_link_records", tools.ScopeLinks, false},
	{"export_gift_links", tools.ScopeLinks, false},
	{"download_gift_link_export", tools.ScopeLinks, false},
	{"list_campaign_gift_links", tools.ScopeLinks, false},
	{"update_workspace_settings", tools.ScopeDash, false},
	{"customize_gift_link_message", tools.ScopeDash, false},
	{"customize_campaign_gift_links", tools.ScopeDash, false},
	{"regift_gift_link", tools.ScopeDash, false},
	{"revoke_gift_link", tools.ScopeDash, false},
	{"update_recipient_photo", tools.ScopeDash, false},
	{"get_campaign_invitations", tools.ScopeDash, false},
	{"get_billing_config", tools.ScopeDash, false},
	{"reconcile_campaign_checkout", tools.ScopeDash, false},
	{"list_invoices", tools.ScopeDash, false},
	{"list_team_members", tools.ScopeDash, false},
	{"list_team_invitations", tools.ScopeDash, false},
	{"list_webhooks", tools.ScopeDash, false},
	{"quote_send", tools.ScopeDash, false},
	{"record_outcome", tools.ScopeDash, false},
	{"approve_gift", tools.ScopeSignedIn, false},
	{"skip_gift", tools.ScopeSignedIn, false},
	{"unskip_gift", tools.ScopeSignedIn, false},
	{"create_balance_topup", tools.ScopeSignedIn, false},
	{"approve_campaign_repeats", tools.ScopeSignedIn, false},
	{"create_campaign_checkout", tools.ScopeSignedIn, false},
	{"cancel_campaign_checkout", tools.ScopeSignedIn, false},
	{"launch_campaign", tools.ScopeSignedIn, false},
	{"commit_send", tools.ScopeSignedIn, false},
	{"invite_team_member", tools.ScopeSignedIn, false},
	{"revoke_team_invitation", tools.ScopeSignedIn, false},
	{"update_team_member", tools.ScopeSignedIn, false},
	{"remove_team_member", tools.ScopeSignedIn, false},
	{"create_webhook", tools.ScopeSignedIn, false},
	{"remove_webhook", tools.ScopeSignedIn, false},
}

// restOnlyRoutes are the routes TOOLS.md serves with no tool of their own:
// its list of "REST routes with no tool of their own" (the OAuth and
// well-known routes aside; the webhook deliveries' routes join when they
// exist), and the routes it shows beside a tool's that are not that tool's
// form: GET /catalog (public and unpaged, beside browse_gifts),
// GET /balance/ledger (beside get_balance) and GET /sends/{id}/tracking
// (beside get_tracking: one item, not a page). REST-only registry entries
// route only these.
var restOnlyRoutes = []string{
	"GET /session",
	"GET /workspaces",
	"GET /queue/skipped",
	"POST /campaigns/{id}/auto-approve",
	"GET /campaigns/{id}/tracking",
	"GET /campaigns/{id}/export",
	"GET /campaigns/{id}/gift-refunds",
	"POST /sends/{id}/gift-link/refund",
	"POST /sends/{id}/gift-link/email",
	"PATCH /campaigns/{id}/gift-link-settings",
	"GET /artwork/{id}",
	"GET /billing/checkouts/{id}/items",
	"GET /webhooks/{id}/deliveries",
	"POST /webhooks/{id}/deliveries/{deliveryId}/retry",
	"GET /reports/export.csv",
	"GET /catalog",
	"GET /balance/ledger",
	"GET /sends/{id}/tracking",
}
