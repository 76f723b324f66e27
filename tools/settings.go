package tools

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// GetWorkspaceSettingsInput is get_workspace_settings' input: nothing.
type GetWorkspaceSettingsInput struct{}

// UpdateWorkspaceSettingsInput is update_workspace_settings' input: the
// fields to change; an omitted field stays as it is.
type UpdateWorkspaceSettingsInput struct {
	Company    *string `json:"company,omitempty" jsonschema:"the sending company's name, 1-200 characters" schema:"type=string,minLength=1,maxLength=200"`
	Name       *string `json:"name,omitempty" jsonschema:"the default sender's name, 1-200 characters" schema:"type=string,minLength=1,maxLength=200"`
	MeetingURL *string `json:"meetingUrl,omitempty" jsonschema:"the default meeting link: an https URL on a public host, or empty to clear it" schema:"type=string,maxLength=500,pattern=^([Hh][Tt][Tt][Pp][Ss]://.+)?$"`
	Website    *string `json:"website,omitempty" jsonschema:"the company's website: an https URL on a public host, or empty to clear it" schema:"type=string,maxLength=500,pattern=^([Hh][Tt][Tt][Pp][Ss]://.+)?$"`
	BrandColor *string `json:"brandColor,omitempty" jsonschema:"the brand colour as #rrggbb, or empty for the default" schema:"type=string,pattern=^(#[0-9a-fA-F]{6})?$"`
}

const descGetWorkspaceSettings = "Read the workspace's sender defaults (company, name, meetingUrl, website, brandColor): use them as senderCompany, senderName and meetingUrl " +
	"for a new campaign unless the user says otherwise. Changes nothing."

const descUpdateWorkspaceSettings = "Change the workspace's sender defaults; only the fields sent change, and an empty URL or color clears it. Confirm the new values with the user first. " +
	"Only an owner's or admin's key may (TEAM_MANAGER_REQUIRED). Returns the settings; an invalid field is named and nothing changes."

// settingsTools are the workspace settings tools.
func settingsTools(app *giftwell.App) []Tool {
	settingsPage := func(json.RawMessage) string { return app.Config.SettingsURL() }
	return []Tool{
		Define("get_workspace_settings", descGetWorkspaceSettings, ScopeRead, core.ActRead,
			func(ctx context.Context, p core.Principal, _ GetWorkspaceSettingsInput) (identity.Settings, error) {
				return app.Identity.WorkspaceSettings(ctx, p)
			},
			Title("Read workspace settings"), ReadOnly(), PersonURL(settingsPage), REST(http.MethodGet, "/settings", http.StatusOK)),
		Define("update_workspace_settings", descUpdateWorkspaceSettings, ScopeDash, core.ActUpdateSettings,
			func(ctx context.Context, p core.Principal, in UpdateWorkspaceSettingsInput) (identity.Settings, error) {
				return app.Identity.UpdateWorkspaceSettings(ctx, p, identity.SettingsPatch{
					Company: in.Company, Name: in.Name, MeetingURL: in.MeetingURL, Website: in.Website, BrandColor: in.BrandColor,
				})
			},
			Title("Update workspace settings"), Idempotent(), PersonURL(settingsPage), REST(http.MethodPatch, "/settings", http.StatusOK)),
	}
}
