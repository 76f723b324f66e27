package identity_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func ptr(s string) *string { return &s }

func TestWorkspaceSettings(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	member := env.AddPerson(t, core.RoleMember)
	admin := env.AddPerson(t, core.RoleAdmin)
	_, asMember := env.SignIn(t, member.Email)
	_, asOwner := env.SignIn(t, env.OwnerEmail)
	memberKey, err := env.App.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	adminKey, err := env.App.Connect.Authenticate(ctx, admin.Key)
	require.NoError(t, err)

	defaults, err := env.App.Identity.WorkspaceSettings(ctx, memberKey)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(defaults.Company, "Workspace "), defaults.Company)
	require.Equal(t, strings.Split(env.OwnerEmail, "@")[0], defaults.Name, "the owner's name")
	require.Empty(t, defaults.MeetingURL+defaults.Website+defaults.BrandColor)

	_, err = env.App.Identity.UpdateWorkspaceSettings(ctx, asMember, identity.SettingsPatch{Company: ptr("Acme")})
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	_, err = env.App.Identity.UpdateWorkspaceSettings(ctx, memberKey, identity.SettingsPatch{Company: ptr("Acme")})
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)

	got, err := env.App.Identity.UpdateWorkspaceSettings(ctx, adminKey, identity.SettingsPatch{
		Company: ptr(" Acme Inc "), MeetingURL: ptr("https://cal.example.com/acme/30min?x=1"), BrandColor: ptr("#1A7F5A"),
	})
	require.NoError(t, err)
	want := identity.Settings{Company: "Acme Inc", Name: defaults.Name, MeetingURL: "https://cal.example.com/acme/30min?x=1", BrandColor: "#1a7f5a"}
	require.Equal(t, want, got)
	got, err = env.App.Identity.WorkspaceSettings(ctx, asMember)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// Invalid fields are named and change nothing, even beside valid ones.
	for _, c := range []struct {
		patch identity.SettingsPatch
		field string
	}{
		{identity.SettingsPatch{Company: ptr(strings.Repeat("c", 201))}, "company"},
		{identity.SettingsPatch{Name: ptr(" ")}, "name"},
		{identity.SettingsPatch{Name: ptr("two\nlines")}, "name"},
		{identity.SettingsPatch{Company: ptr("Fine"), Website: ptr("http://example.com")}, "website"},
		{identity.SettingsPatch{Website: ptr("https://user:pw@example.com")}, "website"},
		{identity.SettingsPatch{Website: ptr("https://localhost/x")}, "website"},
		{identity.SettingsPatch{Website: ptr("https://10.0.0.1/x")}, "website"},
		{identity.SettingsPatch{Website: ptr("example.com")}, "website"},
		{identity.SettingsPatch{Website: ptr("javascript:alert(1)")}, "website"},
		{identity.SettingsPatch{MeetingURL: ptr("https://example.com/" + strings.Repeat("p", 481))}, "meetingUrl"},
		{identity.SettingsPatch{MeetingURL: ptr("https://exa mple.com")}, "meetingUrl"},
		{identity.SettingsPatch{BrandColor: ptr("green")}, "brandColor"},
		{identity.SettingsPatch{BrandColor: ptr("#12345")}, "brandColor"},
	} {
		_, err := env.App.Identity.UpdateWorkspaceSettings(ctx, asOwner, c.patch)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields, e.Message)
		require.True(t, strings.HasPrefix(e.Message, c.field+": "), e.Message)
	}
	got, err = env.App.Identity.WorkspaceSettings(ctx, asOwner)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// Empty clears the optional fields; 200 characters fit.
	got, err = env.App.Identity.UpdateWorkspaceSettings(ctx, asOwner, identity.SettingsPatch{
		MeetingURL: ptr(""), BrandColor: ptr(""), Name: ptr(strings.Repeat("n", 200)), Website: ptr("https://acme.example"),
	})
	require.NoError(t, err)
	require.Equal(t, identity.Settings{Company: "Acme Inc", Name: strings.Repeat("n", 200), Website: "https://acme.example"}, got)

	// Connections read with gifts:read; a demo key is refused.
	conn := core.Principal{WorkspaceID: env.WorkspaceID, UserID: env.OwnerID, Role: core.RoleOwner, Via: core.ViaConnection, Scopes: []core.Scope{core.ScopeRead}}
	_, err = env.App.Identity.WorkspaceSettings(ctx, conn)
	require.NoError(t, err)
	_, err = env.App.Identity.UpdateWorkspaceSettings(ctx, conn, identity.SettingsPatch{Company: ptr("X")})
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
}
