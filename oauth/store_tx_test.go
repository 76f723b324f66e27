package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/ory/fosite"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
)

// failingStore is the real Store with one step of the refresh rotation
// failing after the others ran: the crash between them that the
// transaction must undo. It records the signatures of the tokens fosite
// tried to store.
type failingStore struct {
	*Store
	mu      sync.Mutex
	created []string
}

var _ Storage = (*failingStore)(nil)

// CreateAccessTokenSession records the signature and stores the token.
func (f *failingStore) CreateAccessTokenSession(ctx context.Context, sig string, r fosite.Requester) error {
	f.mu.Lock()
	f.created = append(f.created, sig)
	f.mu.Unlock()
	return f.Store.CreateAccessTokenSession(ctx, sig, r)
}

// CreateRefreshTokenSession fails, after the rotation and the new access token.
func (f *failingStore) CreateRefreshTokenSession(context.Context, string, string, fosite.Requester) error {
	return errors.New("injected failure")
}

// TestRefreshRotationIsAtomic: when the last step of a refresh fails, the
// token endpoint answers with an error and nothing of the rotation stays:
// the old refresh and access tokens still work, the new access token was
// never stored, and the refresh succeeds afterwards.
func TestRefreshRotationIsAtomic(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.WithSiteURL("https://gifts.example.com"))
	app := env.App
	ctx := t.Context()
	client, err := app.Connect.RegisterOAuthClient(ctx, connect.OAuthClientRegistration{
		RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: connect.AuthMethodNone,
	}, "192.0.2.30")
	require.NoError(t, err)
	_, owner := env.SignIn(t, env.OwnerEmail)
	grant, err := app.Connect.CreateOAuthGrant(ctx, owner, connect.OAuthConsent{
		ClientID: client.ClientID, Resources: []string{app.Config.MCPURL()}, Requested: []string{"gifts:read"},
	})
	require.NoError(t, err)

	// Tokens as the code exchange stores them.
	store := NewStore(app)
	access := connect.OAuthAccessTokenPrefix + core.RandomHex(32)
	refresh := connect.OAuthRefreshTokenPrefix + core.RandomHex(32)
	issued := &fosite.Request{
		ID: "req-atomic", RequestedAt: env.Clock.Now(), Client: &Client{OAuthClient: client},
		RequestedScope: fosite.Arguments{"gifts:read"}, GrantedScope: fosite.Arguments{"gifts:read"}, Form: url.Values{},
		Session: &Session{GrantID: grant.ID, WorkspaceID: grant.WorkspaceID, UserID: grant.UserID},
	}
	require.NoError(t, store.CreateAccessTokenSession(ctx, connect.HashOAuthSecret(access), issued))
	require.NoError(t, store.CreateRefreshTokenSession(ctx, connect.HashOAuthSecret(refresh), connect.HashOAuthSecret(access), issued))

	refreshAt := func(h http.Handler) (int, map[string]any) {
		srv := httptest.NewServer(h)
		defer srv.Close()
		form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {client.ClientID}}
		res, err := http.Post(srv.URL+"/oauth/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		defer res.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		return res.StatusCode, out
	}

	failing := &failingStore{Store: NewStore(app)}
	broken := &Server{app: app, log: slog.New(slog.DiscardHandler), provider: newProvider(app, failing)}
	status, out := refreshAt(broken.Handler())
	require.Equal(t, http.StatusInternalServerError, status, out)
	require.Equal(t, "server_error", out["error"])
	require.Len(t, failing.created, 1, "the new access token was written before the failure")

	_, err = store.GetAccessTokenSession(ctx, failing.created[0], &Session{})
	require.ErrorIs(t, err, fosite.ErrNotFound, "the new access token was rolled back")
	_, err = store.GetRefreshTokenSession(ctx, connect.HashOAuthSecret(refresh), &Session{})
	require.NoError(t, err, "the old refresh token is still active")
	p, err := app.Connect.Authenticate(ctx, access)
	require.NoError(t, err, "the old access token still works")
	require.Equal(t, grant.ID, p.CredentialID)

	status, out = refreshAt(NewServer(app, nil).Handler())
	require.Equal(t, http.StatusOK, status, out)
	_, err = app.Connect.Authenticate(ctx, out["access_token"].(string))
	require.NoError(t, err)
	_, err = app.Connect.Authenticate(ctx, access)
	require.Error(t, err, "a committed rotation ends the old access token")
}
