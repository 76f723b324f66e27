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

func TestCreateWorkspaceValidation(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	good := identity.CreateWorkspaceParams{Name: "Acme", OwnerEmail: apptest.UniqueEmail("v"), OwnerPassword: "12345678"}
	cases := []struct {
		name  string
		edit  func(*identity.CreateWorkspaceParams)
		field string
	}{
		{"empty name", func(p *identity.CreateWorkspaceParams) { p.Name = "  " }, "name"},
		{"long name", func(p *identity.CreateWorkspaceParams) { p.Name = strings.Repeat("n", 201) }, "name"},
		{"no email", func(p *identity.CreateWorkspaceParams) { p.OwnerEmail = "" }, "ownerEmail"},
		{"bad email", func(p *identity.CreateWorkspaceParams) { p.OwnerEmail = "not-an-email" }, "ownerEmail"},
		{"display-name email", func(p *identity.CreateWorkspaceParams) { p.OwnerEmail = "Ann <ann@example.com>" }, "ownerEmail"},
		{"short password", func(p *identity.CreateWorkspaceParams) { p.OwnerPassword = "1234567" }, "ownerPassword"},
		{"long password", func(p *identity.CreateWorkspaceParams) { p.OwnerPassword = strings.Repeat("p", 73) }, "ownerPassword"},
		{"long owner name", func(p *identity.CreateWorkspaceParams) { p.OwnerName = strings.Repeat("n", 201) }, "ownerName"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := good
			c.edit(&p)
			_, err := env.App.Identity.CreateWorkspace(context.Background(), p)
			e := apptest.RequireCode(t, err, core.CodeValidation)
			require.Equal(t, []string{c.field}, e.Fields)
			require.True(t, strings.HasPrefix(e.Message, c.field+": "), e.Message)
		})
	}
}

func TestCreateWorkspaceStoresEmailNormalised(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	email := apptest.UniqueEmail("Mixed")
	ws, err := env.App.Identity.CreateWorkspace(ctx, identity.CreateWorkspaceParams{
		Name: " Second ", OwnerEmail: "  " + strings.ToUpper(email) + " ", OwnerPassword: apptest.Password,
	})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(ws.WorkspaceID, core.PrefixWorkspace))
	require.True(t, strings.HasPrefix(ws.UserID, core.PrefixUser))
	require.Empty(t, ws.APIKey, "no key without WithKey")

	s, err := env.App.Identity.Session(ctx, core.Principal{WorkspaceID: ws.WorkspaceID, UserID: ws.UserID, Via: core.ViaSession})
	require.NoError(t, err)
	require.Equal(t, strings.ToLower(email), s.Email)
	require.Equal(t, "Second", s.Company)
	require.Equal(t, core.RoleOwner, s.TeamRole)

	// The same person (any case) with the same password can own a second workspace.
	ws2, err := env.App.Identity.CreateWorkspace(ctx, identity.CreateWorkspaceParams{Name: "Third", OwnerEmail: email, OwnerPassword: apptest.Password})
	require.NoError(t, err)
	require.Equal(t, ws.UserID, ws2.UserID)

	// With another password the existing account is not taken over.
	_, err = env.App.Identity.CreateWorkspace(ctx, identity.CreateWorkspaceParams{Name: "Fourth", OwnerEmail: email, OwnerPassword: "another password"})
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"ownerEmail"}, e.Fields)
}

func TestCreateFirstWorkspaceOnlyOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t) // the database already holds a workspace
	_, created, err := env.App.Identity.CreateFirstWorkspace(ctx, identity.CreateWorkspaceParams{Name: "First", OwnerEmail: apptest.UniqueEmail("f"), OwnerPassword: apptest.Password})
	require.NoError(t, err)
	require.False(t, created)
}

func TestAddMemberValidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	existing := apptest.UniqueEmail("dup")
	_, err := env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: env.WorkspaceID, Email: existing, Password: apptest.Password, Role: core.RoleMember})
	require.NoError(t, err)

	good := identity.AddMemberParams{WorkspaceID: env.WorkspaceID, Email: apptest.UniqueEmail("m"), Password: apptest.Password, Role: core.RoleAdmin}
	cases := []struct {
		name  string
		edit  func(*identity.AddMemberParams)
		field string
	}{
		{"bad email", func(p *identity.AddMemberParams) { p.Email = "a@" }, "email"},
		{"short password", func(p *identity.AddMemberParams) { p.Password = "short" }, "password"},
		{"duplicate email", func(p *identity.AddMemberParams) { p.Email = existing }, "email"},
		{"duplicate email other case", func(p *identity.AddMemberParams) { p.Email = strings.ToUpper(existing) }, "email"},
		{"owner owner", func(p *identity.AddMemberParams) { p.Email = env.OwnerEmail }, "email"},
		{"bad role", func(p *identity.AddMemberParams) { p.Role = "superuser" }, "role"},
		{"owner role", func(p *identity.AddMemberParams) { p.Role = core.RoleOwner }, "role"},
		{"no role", func(p *identity.AddMemberParams) { p.Role = "" }, "role"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := good
			c.edit(&p)
			_, err := env.App.Identity.AddMember(ctx, p)
			e := apptest.RequireCode(t, err, core.CodeValidation)
			require.Equal(t, []string{c.field}, e.Fields)
			require.True(t, strings.HasPrefix(e.Message, c.field+": "), e.Message)
		})
	}

	_, err = env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: "ws_missing", Email: apptest.UniqueEmail("n"), Password: apptest.Password, Role: core.RoleMember})
	apptest.RequireCode(t, err, core.CodeNotFound)
}

func TestCreateAPIKeyRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})

	_, _, err := env.App.Identity.CreateAPIKey(ctx, env.WorkspaceID, other.OwnerID, "cross")
	apptest.RequireCode(t, err, core.CodeNotFound)

	_, _, err = env.App.Identity.CreateAPIKey(ctx, env.WorkspaceID, env.OwnerID, "")
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"name"}, e.Fields)

	key, id, err := env.App.Identity.CreateAPIKey(ctx, env.WorkspaceID, env.OwnerID, "ci")
	require.NoError(t, err)
	require.True(t, identity.IsAPIKeyFormat(key))
	require.True(t, strings.HasPrefix(id, core.PrefixKey))
	require.NotEqual(t, env.OwnerKey, key)
}
