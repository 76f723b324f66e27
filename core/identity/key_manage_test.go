package identity_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestKeysCannotCreateKeys(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	_, err = env.App.Identity.CreateAPIKeyFor(ctx, key, "from a key")
	e := apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	require.Equal(t, env.SiteURL+"/settings/keys", e.URL)
	_, err = env.App.Identity.ListAPIKeys(ctx, key)
	apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	apptest.RequireCode(t, env.App.Identity.RevokeAPIKeyFor(ctx, key, key.CredentialID), core.CodeHumanApprovalRequired)
	_, person := env.SignIn(t, env.OwnerEmail)
	list, err := env.App.Identity.ListAPIKeys(ctx, person)
	require.NoError(t, err)
	require.Len(t, list, 1, "nothing was created")

	demo := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{Demo: true})
	_, demoPerson := env.SignIn(t, demo.OwnerEmail)
	_, err = env.App.Identity.CreateAPIKeyFor(ctx, demoPerson, "demo")
	apptest.RequireCode(t, err, core.CodeDemoLimited)
}

func TestAPIKeysForPeople(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	member := env.AddPerson(t, core.RoleMember)
	admin := env.AddPerson(t, core.RoleAdmin)
	_, asMember := env.SignIn(t, member.Email)
	_, asAdmin := env.SignIn(t, admin.Email)

	for _, name := range []string{"", "   ", strings.Repeat("k", 101)} {
		_, err := env.App.Identity.CreateAPIKeyFor(ctx, asMember, name)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{"name"}, e.Fields)
	}
	env.Clock.Advance(time.Minute)
	created, err := env.App.Identity.CreateAPIKeyFor(ctx, asMember, "  CI pipeline ")
	require.NoError(t, err)
	require.True(t, identity.IsAPIKeyFormat(created.Key))
	require.Equal(t, "CI pipeline", created.Name)
	require.Equal(t, created.Key[:8], created.Prefix)
	require.Equal(t, member.UserID, created.CreatedByUserID)
	p, err := env.App.Connect.Authenticate(ctx, created.Key)
	require.NoError(t, err)
	require.Equal(t, core.RoleMember, p.Role)
	require.Equal(t, created.ID, p.CredentialID)

	list, err := env.App.Identity.ListAPIKeys(ctx, asAdmin)
	require.NoError(t, err)
	require.Len(t, list, 4, "owner's, member's, admin's and the new one")
	require.Equal(t, created.APIKeyInfo.ID, list[0].ID, "newest first")
	require.Equal(t, created.CreatedByName, list[0].CreatedByName)
	require.Equal(t, apptest.Epoch.Add(time.Minute), list[0].CreatedAt)
	require.NotNil(t, list[0].LastUsedAt, "authenticating stamped it")
	for _, k := range list {
		require.NotContains(t, k.Prefix+k.Name, created.Key[8:], "the secret is never listed")
	}

	// A member revokes only their own keys; owners and admins any.
	ownerKeyID := ""
	for _, k := range list {
		if k.CreatedByUserID == env.OwnerID {
			ownerKeyID = k.ID
		}
	}
	apptest.RequireCode(t, env.App.Identity.RevokeAPIKeyFor(ctx, asMember, ownerKeyID), core.CodeTeamManagerRequired)
	apptest.RequireCode(t, env.App.Identity.RevokeAPIKeyFor(ctx, asMember, "key_unknown"), core.CodeNotFound)
	require.NoError(t, env.App.Identity.RevokeAPIKeyFor(ctx, asMember, created.ID))
	require.NoError(t, env.App.Identity.RevokeAPIKeyFor(ctx, asMember, created.ID), "revoking twice is fine")
	_, err = env.App.Connect.Authenticate(ctx, created.Key)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	require.NoError(t, env.App.Identity.RevokeAPIKeyFor(ctx, asAdmin, ownerKeyID))
	_, err = env.App.Connect.Authenticate(ctx, env.OwnerKey)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	list, err = env.App.Identity.ListAPIKeys(ctx, asMember)
	require.NoError(t, err)
	require.Len(t, list, 2)
}
