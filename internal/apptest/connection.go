package apptest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
)

// ConnectedApp records an OAuth client named client and the owner's grant
// to it, as connecting an assistant does, and returns the owner's
// connection through it (all scopes, test mode): who prepared a gift reads
// as the app's name and the person who connected it.
func (e *Env) ConnectedApp(t testing.TB, client string) core.Principal {
	t.Helper()
	ctx := context.Background()
	_, owner := e.SignIn(t, e.OwnerEmail)
	reg, err := e.App.Connect.RegisterOAuthClient(ctx, connect.OAuthClientRegistration{
		RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: connect.AuthMethodNone, ClientName: client,
	}, "192.0.2.10")
	require.NoError(t, err)
	scopes := []string{"gifts:read", "gifts:write"}
	grant, err := e.App.Connect.CreateOAuthGrant(ctx, owner, connect.OAuthConsent{
		ClientID: reg.ClientID, Resources: []string{e.App.Config.MCPURL()}, Requested: scopes, Ticked: scopes,
	})
	require.NoError(t, err)
	return core.Principal{WorkspaceID: e.WorkspaceID, UserID: e.OwnerID, Role: core.RoleOwner, Via: core.ViaConnection,
		Scopes: core.AllScopes, Mode: core.ModeTest, CredentialID: grant.ID, Resource: e.App.Config.MCPURL()}
}
