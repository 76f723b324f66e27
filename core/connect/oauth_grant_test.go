package connect_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// oauthSetup is an Env with a registered public client and the owner's
// signed-in session.
type oauthSetup struct {
	env      *apptest.Env
	clientID string
	owner    core.Principal
}

func newOAuthSetup(t *testing.T) oauthSetup {
	t.Helper()
	env := apptest.New(t, apptest.WithSiteURL("https://gifts.example.com"))
	c, err := env.App.Connect.RegisterOAuthClient(t.Context(), connect.OAuthClientRegistration{
		RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: connect.AuthMethodNone,
	}, "192.0.2.10")
	require.NoError(t, err)
	_, owner := env.SignIn(t, env.OwnerEmail)
	return oauthSetup{env: env, clientID: c.ClientID, owner: owner}
}

func (s oauthSetup) consent(edit func(*connect.OAuthConsent)) connect.OAuthConsent {
	c := connect.OAuthConsent{
		ClientID: s.clientID, Resources: []string{s.env.App.Config.MCPURL()},
		Requested: []string{"gifts:read", "gifts:write", "gifts:links:read"}, Ticked: []string{"gifts:links:read"},
	}
	if edit != nil {
		edit(&c)
	}
	return c
}

func TestCreateOAuthGrantGrantsReadAndTickedScopes(t *testing.T) {
	t.Parallel()
	s := newOAuthSetup(t)
	g, err := s.env.App.Connect.CreateOAuthGrant(t.Context(), s.owner, s.consent(nil))
	require.NoError(t, err)
	require.Equal(t, []core.Scope{core.ScopeRead, core.ScopeLinks}, g.Scopes, "gifts:read always, gifts:write unticked")
	require.Equal(t, s.env.WorkspaceID, g.WorkspaceID, "no pick: the session's workspace")
	require.Equal(t, s.env.OwnerID, g.UserID)
	require.Equal(t, s.env.App.Config.MCPURL(), g.Resource)

	stored, err := s.env.App.Connect.OAuthGrantByID(t.Context(), g.ID)
	require.NoError(t, err)
	require.Equal(t, g.Scopes, stored.Scopes)
	require.Equal(t, apptest.Epoch.Add(connect.OAuthGrantIdleLifetime), stored.ExpiresAt)
}

func TestCreateOAuthGrantPicksAWorkspaceOfThePerson(t *testing.T) {
	t.Parallel()
	s := newOAuthSetup(t)
	app := s.env.App
	second := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	_, err := app.Identity.AddMember(t.Context(), identity.AddMemberParams{
		WorkspaceID: second.WorkspaceID, Email: s.env.OwnerEmail, Password: apptest.Password, Role: core.RoleMember,
	})
	require.NoError(t, err)
	foreign := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})

	g, err := app.Connect.CreateOAuthGrant(t.Context(), s.owner, s.consent(func(c *connect.OAuthConsent) { c.WorkspaceID = second.WorkspaceID }))
	require.NoError(t, err)
	require.Equal(t, second.WorkspaceID, g.WorkspaceID)

	_, err = app.Connect.CreateOAuthGrant(t.Context(), s.owner, s.consent(func(c *connect.OAuthConsent) { c.WorkspaceID = foreign.WorkspaceID }))
	e := core.AsError(err)
	require.Equal(t, core.CodeNotFound, e.Code, err)
	require.Equal(t, []string{"workspace_id"}, e.Fields)
	require.Equal(t, "workspace_id: you are not a member of the workspace you picked", e.Message)
	list, err := app.Connect.ListConnectedApps(t.Context(), core.Principal{WorkspaceID: foreign.WorkspaceID, UserID: s.env.OwnerID, Via: core.ViaSession})
	require.NoError(t, err)
	require.Empty(t, list, "no grant was made in the foreign workspace")
}

func TestCreateOAuthGrantRefusals(t *testing.T) {
	t.Parallel()
	s := newOAuthSetup(t)
	app := s.env.App
	keyPrincipal, err := app.Connect.Authenticate(t.Context(), s.env.OwnerKey)
	require.NoError(t, err)
	_, err = app.Connect.CreateOAuthGrant(t.Context(), keyPrincipal, s.consent(nil))
	require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err), "a key cannot consent")

	for name, tc := range map[string]struct {
		edit  func(*connect.OAuthConsent)
		code  core.Code
		field string
	}{
		"foreign resource": {func(c *connect.OAuthConsent) { c.Resources = []string{"https://evil.example/mcp"} }, core.CodeValidation, "resource"},
		"two resources":    {func(c *connect.OAuthConsent) { c.Resources = append(c.Resources, c.Resources[0]) }, core.CodeValidation, "resource"},
		"no resource":      {func(c *connect.OAuthConsent) { c.Resources = nil }, core.CodeValidation, "resource"},
		"no scope asked":   {func(c *connect.OAuthConsent) { c.Requested = nil }, core.CodeValidation, "scope"},
		"nothing granted":  {func(c *connect.OAuthConsent) { c.Requested, c.Ticked = []string{"gifts:write"}, nil }, core.CodeValidation, "scope"},
		"unknown scope":    {func(c *connect.OAuthConsent) { c.Requested = append(c.Requested, "admin") }, core.CodeValidation, "scope"},
		"assistant without read": {func(c *connect.OAuthConsent) {
			c.Resources, c.Requested = []string{app.Config.ChatGPTMCPURL()}, []string{"gifts:write"}
		}, core.CodeValidation, "scope"},
		"unknown client": {func(c *connect.OAuthConsent) { c.ClientID = "oac_nope" }, core.CodeNotFound, ""},
	} {
		_, err := app.Connect.CreateOAuthGrant(t.Context(), s.owner, s.consent(tc.edit))
		e := core.AsError(err)
		require.Equal(t, tc.code, e.Code, "%s: %v", name, err)
		if tc.field != "" {
			require.Equal(t, []string{tc.field}, e.Fields, name)
		}
	}
	list, err := app.Connect.ListConnectedApps(t.Context(), s.owner)
	require.NoError(t, err)
	require.Empty(t, list, "no refusal made a grant")
}

func TestCheckOAuthAuthorization(t *testing.T) {
	t.Parallel()
	cfg := core.Config{SiteURL: "https://gifts.example.com"}
	mcp, chat := cfg.MCPURL(), cfg.ChatGPTMCPURL()
	require.NoError(t, connect.CheckOAuthAuthorization(cfg, []string{mcp}, []string{"gifts:write"}))
	require.NoError(t, connect.CheckOAuthAuthorization(cfg, []string{chat}, []string{"gifts:read"}))
	for _, tc := range []struct {
		resources, scopes []string
		message           string
	}{
		{nil, []string{"gifts:read"}, "resource: must be " + mcp + " or " + chat},
		{[]string{mcp, mcp}, []string{"gifts:read"}, "resource: must be " + mcp + " or " + chat},
		{[]string{"https://gifts.example.com/api/v1"}, []string{"gifts:read"}, "resource: must be " + mcp + " or " + chat},
		{[]string{chat}, []string{"gifts:write"}, "scope: the assistant endpoint needs gifts:read"},
		{[]string{chat}, nil, "scope: the assistant endpoint needs gifts:read"},
		{[]string{mcp}, nil, "scope: request at least one scope"},
	} {
		err := connect.CheckOAuthAuthorization(cfg, tc.resources, tc.scopes)
		require.Equal(t, core.CodeValidation, core.ErrorCode(err), tc)
		require.Equal(t, tc.message, core.AsError(err).Message)
	}
}

func TestOAuthConsentScopes(t *testing.T) {
	t.Parallel()
	require.Equal(t, []connect.OAuthConsentScope{
		{Scope: core.ScopeRead, Optional: false},
		{Scope: core.ScopeWrite, Optional: true},
		{Scope: core.ScopeLinks, Optional: true},
	}, connect.OAuthConsentScopes([]string{"gifts:links:read", "offline", "gifts:write", "gifts:read"}))
	require.Empty(t, connect.OAuthConsentScopes([]string{"admin"}))
}

func TestOAuthGrantCheckTokenRequest(t *testing.T) {
	t.Parallel()
	g := connect.OAuthGrant{Resource: "https://gifts.example.com/mcp", Scopes: []core.Scope{core.ScopeRead, core.ScopeLinks}}
	require.NoError(t, g.CheckTokenRequest(nil, nil))
	require.NoError(t, g.CheckTokenRequest([]string{g.Resource}, []string{"gifts:read", "gifts:links:read"}))

	err := g.CheckTokenRequest([]string{"https://gifts.example.com/chatgpt/mcp"}, nil)
	require.Equal(t, []string{"resource"}, core.AsError(err).Fields)
	err = g.CheckTokenRequest([]string{g.Resource, g.Resource}, nil)
	require.Equal(t, []string{"resource"}, core.AsError(err).Fields)
	err = g.CheckTokenRequest(nil, []string{"gifts:read", "gifts:write"})
	require.Equal(t, core.CodeValidation, core.ErrorCode(err))
	require.Equal(t, `scope: the scope "gifts:write" was not granted`, core.AsError(err).Message)
}

// TestRegisterOAuthClientBoundHoldsUnderConcurrency: registrations from one
// address racing each other never exceed the bound; another address is
// counted on its own.
func TestRegisterOAuthClientBoundHoldsUnderConcurrency(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	reg := connect.OAuthClientRegistration{RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: connect.AuthMethodNone}
	const attempts = 2*connect.OAuthRegistrationsPerAddress + 8
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		ok, limited   int
		unexpectedErr []error
	)
	start := make(chan struct{})
	for range attempts {
		wg.Go(func() {
			<-start
			_, err := env.App.Connect.RegisterOAuthClient(context.Background(), reg, "198.51.100.7")
			mu.Lock()
			defer mu.Unlock()
			switch core.ErrorCode(err) {
			case "":
				ok++
			case core.CodeRateLimit:
				limited++
			default:
				unexpectedErr = append(unexpectedErr, err)
			}
		})
	}
	close(start)
	wg.Wait()
	require.Empty(t, unexpectedErr)
	require.Equal(t, connect.OAuthRegistrationsPerAddress, ok)
	require.Equal(t, attempts-connect.OAuthRegistrationsPerAddress, limited)

	_, err := env.App.Connect.RegisterOAuthClient(t.Context(), reg, "198.51.100.8")
	require.NoError(t, err, "another address has its own bound")
	env.Clock.Advance(connect.OAuthRegistrationWindow + time.Second)
	_, err = env.App.Connect.RegisterOAuthClient(t.Context(), reg, "198.51.100.7")
	require.NoError(t, err, "the window passed")
}
