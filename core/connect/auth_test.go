package connect_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestAuthenticateRejectsMalformedKeysWithoutTheDatabase(t *testing.T) {
	t.Parallel()
	hex64 := strings.Repeat("a1", 32)
	cases := map[string]string{
		"empty":            "",
		"prefix only":      "gwk_",
		"wrong prefix":     "gwx_" + hex64,
		"no prefix":        hex64,
		"prefix uppercase": "GWK_" + hex64,
		"63 hex":           "gwk_" + hex64[:63],
		"65 hex":           "gwk_" + hex64 + "a",
		"uppercase hex":    "gwk_" + strings.ToUpper(hex64),
		"one uppercase":    "gwk_A" + hex64[1:],
		"non-hex":          "gwk_" + hex64[:63] + "g",
		"bearer scheme":    "Bearer gwk_" + hex64,
		"trailing space":   "gwk_" + hex64 + " ",
		"oauth 63 hex":     "mco_access_" + hex64[:63],
		"oauth uppercase":  "mco_access_" + strings.ToUpper(hex64),
		"oauth refresh":    "mco_refresh_" + hex64,
	}
	// A nil database: any query would panic, so passing proves no round trip.
	app := giftwell.New(nil, core.Config{SiteURL: "http://giftwell.test"}, nil, nil)
	for name, token := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := app.Connect.Authenticate(context.Background(), token)
			e := apptest.RequireCode(t, err, core.CodeAuthRequired)
			require.Equal(t, 401, e.Status())
			require.Equal(t, "http://giftwell.test/login", e.URL)
			require.True(t, p.Anonymous())
		})
	}
}

func TestIsAPIKeyFormat(t *testing.T) {
	t.Parallel()
	require.True(t, identity.IsAPIKeyFormat("gwk_"+strings.Repeat("0123456789abcdef", 4)))
	require.False(t, identity.IsAPIKeyFormat("gwk_"+strings.Repeat("0123456789ABCDEF", 4)))
}

func TestAuthenticateOwnerKey(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	require.True(t, identity.IsAPIKeyFormat(env.OwnerKey), env.OwnerKey)

	p, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	require.Equal(t, env.WorkspaceID, p.WorkspaceID)
	require.Equal(t, env.OwnerID, p.UserID)
	require.Equal(t, core.RoleOwner, p.Role)
	require.Equal(t, core.ViaKey, p.Via)
	require.Equal(t, core.ModeTest, p.Mode)
	require.False(t, p.IsDemo)
	require.True(t, strings.HasPrefix(p.CredentialID, core.PrefixKey), p.CredentialID)
}

func TestAuthenticateUnknownKey(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	_, err := env.App.Connect.Authenticate(context.Background(), "gwk_"+core.RandomHex(32))
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}

func TestAuthenticateRevokedKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	key, id, err := env.App.Identity.CreateAPIKey(ctx, env.WorkspaceID, env.OwnerID, "to revoke")
	require.NoError(t, err)
	_, err = env.App.Connect.Authenticate(ctx, key)
	require.NoError(t, err)

	require.NoError(t, env.App.Identity.RevokeAPIKey(ctx, env.WorkspaceID, id))
	_, err = env.App.Connect.Authenticate(ctx, key)
	apptest.RequireCode(t, err, core.CodeAuthRequired)

	// Revoking again is harmless; the owner's other key still works.
	require.NoError(t, env.App.Identity.RevokeAPIKey(ctx, env.WorkspaceID, id))
	_, err = env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
}

func TestRevokeAPIKeyOtherWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	p, err := env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)

	apptest.RequireCode(t, env.App.Identity.RevokeAPIKey(ctx, env.WorkspaceID, p.CredentialID), core.CodeNotFound)
	_, err = env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err, "a key of another workspace is untouched")
}

func TestRemovedMembersKeyIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	userID, key := env.AddMember(t, core.RoleMember)
	_, err := env.App.Connect.Authenticate(ctx, key)
	require.NoError(t, err)

	require.NoError(t, env.App.Identity.RemoveMember(ctx, env.WorkspaceID, userID))
	_, err = env.App.Connect.Authenticate(ctx, key)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}

func TestKeyOfCreatorNoLongerMemberIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	userID, _ := env.AddMember(t, core.RoleAdmin)
	// A key made after the member joined; removal revokes it, and even
	// unrevoked the join on membership would refuse it.
	key, _, err := env.App.Identity.CreateAPIKey(ctx, env.WorkspaceID, userID, "second")
	require.NoError(t, err)
	require.NoError(t, env.App.Identity.RemoveMember(ctx, env.WorkspaceID, userID))
	_, err = env.App.Connect.Authenticate(ctx, key)
	apptest.RequireCode(t, err, core.CodeAuthRequired)

	// Re-adding the person does not bring their old keys back.
	_, err = env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: env.WorkspaceID, Email: "x-" + core.RandomHex(3) + "@example.com", Password: apptest.Password, Role: core.RoleMember})
	require.NoError(t, err)
	_, err = env.App.Connect.Authenticate(ctx, key)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}

func TestKeyFollowsCreatorsCurrentRole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	userID, key := env.AddMember(t, core.RoleMember)

	p, err := env.App.Connect.Authenticate(ctx, key)
	require.NoError(t, err)
	require.Equal(t, core.RoleMember, p.Role)

	require.NoError(t, env.App.Identity.ChangeMemberRole(ctx, env.WorkspaceID, userID, core.RoleAdmin))
	p, err = env.App.Connect.Authenticate(ctx, key)
	require.NoError(t, err)
	require.Equal(t, core.RoleAdmin, p.Role)

	require.NoError(t, env.App.Identity.ChangeMemberRole(ctx, env.WorkspaceID, userID, core.RoleMember))
	p, err = env.App.Connect.Authenticate(ctx, key)
	require.NoError(t, err)
	require.Equal(t, core.RoleMember, p.Role)
}

func TestOwnerCannotBeDemotedOrRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	apptest.RequireCode(t, env.App.Identity.ChangeMemberRole(ctx, env.WorkspaceID, env.OwnerID, core.RoleMember), core.CodeInvalidRequestState)
	apptest.RequireCode(t, env.App.Identity.RemoveMember(ctx, env.WorkspaceID, env.OwnerID), core.CodeInvalidRequestState)
	e := apptest.RequireCode(t, env.App.Identity.ChangeMemberRole(ctx, env.WorkspaceID, env.OwnerID, core.RoleOwner), core.CodeValidation)
	require.Equal(t, []string{"role"}, e.Fields)
	apptest.RequireCode(t, env.App.Identity.RemoveMember(ctx, env.WorkspaceID, "usr_nobody"), core.CodeNotFound)
}

func TestDemoWorkspaceKeyCarriesDemoFlag(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	demo := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{Demo: true})

	p, err := env.App.Connect.Authenticate(ctx, demo.OwnerKey)
	require.NoError(t, err)
	require.True(t, p.IsDemo)
	require.Equal(t, demo.WorkspaceID, p.WorkspaceID)
	require.Equal(t, core.ModeTest, p.Mode)
	// The access matrix turns that into DEMO_LIMITED for every key action.
	apptest.RequireCode(t, core.Authorize(p, core.ActRead, ""), core.CodeDemoLimited)

	p, err = env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	require.False(t, p.IsDemo)
	require.NoError(t, core.Authorize(p, core.ActRead, ""))
}

func TestReady(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	require.NoError(t, env.App.Ready(context.Background()))
}
