package connect_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
)

// fakeDocuments answers client metadata documents from a map, counting fetches.
type fakeDocuments struct {
	mu      sync.Mutex
	answers map[string]connect.ClientMetadataAnswer
	fetches map[string]int
}

var _ connect.ClientMetadataFetcher = (*fakeDocuments)(nil)

func (f *fakeDocuments) FetchClientMetadata(_ context.Context, url string) (connect.ClientMetadataAnswer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetches[url]++
	a, ok := f.answers[url]
	if !ok {
		return connect.ClientMetadataAnswer{}, errors.New("it answered HTTP 404")
	}
	return a, nil
}

func (f *fakeDocuments) count(url string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fetches[url]
}

func (f *fakeDocuments) serve(url, body string, a connect.ClientMetadataAnswer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a.Body = []byte(body)
	f.answers[url] = a
}

func newDocumentEnv(t *testing.T) (*apptest.Env, *fakeDocuments) {
	t.Helper()
	env := apptest.New(t)
	f := &fakeDocuments{answers: map[string]connect.ClientMetadataAnswer{}, fetches: map[string]int{}}
	env.App.Connect.ClientMetadata = f
	return env, f
}

const docURL = "https://assistant.example/oauth/client.json"

// TestClientDocumentIsCheckedAsARegistration: what a document must and may
// hold, each refusal a VALIDATION_ERROR naming client_id that says why.
func TestClientDocumentIsCheckedAsARegistration(t *testing.T) {
	t.Parallel()
	env, f := newDocumentEnv(t)
	const cb = `"redirect_uris":["http://127.0.0.1/cb"]`
	for i, c := range []struct{ body, says string }{
		{`{"client_id":"https://assistant.example/other.json",` + cb + `}`, "client_id must be exactly the URL"},
		{`[{"client_id":"URL",` + cb + `}]`, "not one JSON object"},
		{`null`, "not one JSON object"},
		{`{"client_id":"URL",` + cb + `} {}`, "not one JSON object"},
		{`{"client_id":"URL",` + cb + `,"client_name":42}`, "not one JSON object"},
		{"{\"client_id\":\"URL\"," + cb + ",\"client_name\":\"A\xff\"}", "UTF-8"},
		{`{"client_id":"URL",` + cb + `,"client_name":"A\u0000"}`, "NUL"},
		{`{"client_id":"URL",` + cb + `,"token_endpoint_auth_method":"client_secret_basic"}`, "token_endpoint_auth_method must be none"},
		{`{"client_id":"URL",` + cb + `,"token_endpoint_auth_method":"private_key_jwt"}`, "token_endpoint_auth_method must be none"},
		{`{"client_id":"URL",` + cb + `,"client_secret":"x"}`, "client_secret"},
		{`{"client_id":"URL",` + cb + `,"grant_types":["refresh_token"]}`, "grant_types must include authorization_code"},
		{`{"client_id":"URL",` + cb + `,"response_types":["token"]}`, "response_types must include code"},
		{`{"client_id":"URL"}`, "redirect_uris: at least one redirect URI is required"},
		{`{"client_id":"URL","redirect_uris":["javascript:alert(1)"]}`, "redirect_uris[0]"},
		{`{"client_id":"URL",` + cb + `,"client_name":"` + strings.Repeat("n", 201) + `"}`, "client_name"},
	} {
		url := strings.Replace(docURL, "client.json", "c"+string(rune('a'+i))+".json", 1)
		f.serve(url, strings.ReplaceAll(c.body, `"URL"`, `"`+url+`"`), connect.ClientMetadataAnswer{})
		_, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), url)
		require.Equal(t, core.CodeValidation, core.ErrorCode(err), c.body)
		require.Contains(t, err.Error(), c.says, c.body)
		require.Equal(t, []string{"client_id"}, core.AsError(err).Fields)
		_, err = env.App.Connect.OAuthClientByID(t.Context(), url)
		require.Equal(t, core.CodeNotFound, core.ErrorCode(err), "a refused document is not kept")
	}

	// A valid document: unknown members and its scope are ignored, grant
	// types Giftwell does not offer are dropped, the client is public.
	f.serve(docURL, `{"client_id":"`+docURL+`","client_name":" Assistant ","redirect_uris":["http://127.0.0.1/cb","com.example.app:/cb"],
		"grant_types":["authorization_code","urn:ietf:params:oauth:grant-type:device_code"],"scope":"openid profile","logo_uri":"https://assistant.example/logo.png"}`,
		connect.ClientMetadataAnswer{})
	c, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), docURL)
	require.NoError(t, err)
	require.Equal(t, docURL, c.ClientID)
	require.Equal(t, "Assistant", c.ClientName)
	require.Equal(t, connect.AuthMethodNone, c.TokenEndpointAuthMethod)
	require.Equal(t, []string{"authorization_code"}, c.GrantTypes)
	require.Equal(t, []string{"code"}, c.ResponseTypes)
	require.Equal(t, "gifts:read gifts:write gifts:links:read", c.Scope)
	stored, err := env.App.Connect.OAuthClientByID(t.Context(), docURL)
	require.NoError(t, err)
	require.Equal(t, []string{"http://127.0.0.1/cb", "com.example.app:/cb"}, stored.RedirectURIs)
	require.Empty(t, stored.SecretHash)
}

// TestClientDocumentURL: a client_id that is not a usable document URL is
// refused without a fetch.
func TestClientDocumentURL(t *testing.T) {
	t.Parallel()
	env, f := newDocumentEnv(t)
	for _, u := range []string{
		"https://assistant.example", "https://assistant.example/", "https://assistant.example/a.json?v=1",
		"https://assistant.example/a.json#x", "https://me@assistant.example/a.json", "https://assistant.example/a/../b.json",
		"https://assistant.example/a/%2e%2e/b.json", "https://assistant.example/a b.json", "https://" + strings.Repeat("a", 2000) + ".example/c.json",
	} {
		_, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), u)
		require.Equal(t, core.CodeValidation, core.ErrorCode(err), u)
		require.Zero(t, f.count(u), u)
	}
	require.True(t, connect.IsClientMetadataURL(docURL))
	require.False(t, connect.IsClientMetadataURL("oac_123"))
	require.False(t, connect.IsClientMetadataURL("http://assistant.example/client.json"))
}

// TestClientDocumentCacheLifetime: a fetched document is used for its
// caching lifetime within 5 minutes and 24 hours, an hour when the answer
// gives none, and fetched again after.
func TestClientDocumentCacheLifetime(t *testing.T) {
	t.Parallel()
	env, f := newDocumentEnv(t)
	for i, c := range []struct {
		answer connect.ClientMetadataAnswer
		used   time.Duration
	}{
		{connect.ClientMetadataAnswer{}, time.Hour},
		{connect.ClientMetadataAnswer{HasLifetime: true}, 5 * time.Minute},
		{connect.ClientMetadataAnswer{HasLifetime: true, Lifetime: 10 * time.Minute}, 10 * time.Minute},
		{connect.ClientMetadataAnswer{HasLifetime: true, Lifetime: 30 * 24 * time.Hour}, 24 * time.Hour},
	} {
		url := strings.Replace(docURL, "client.json", "l"+string(rune('a'+i))+".json", 1)
		f.serve(url, `{"client_id":"`+url+`","redirect_uris":["http://127.0.0.1/cb"]}`, c.answer)
		env.Clock.Set(apptest.Epoch)
		_, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), url)
		require.NoError(t, err)
		env.Clock.Set(apptest.Epoch.Add(c.used - time.Second))
		_, err = env.App.Connect.ResolveOAuthClientDocument(t.Context(), url)
		require.NoError(t, err)
		require.Equal(t, 1, f.count(url), "fresh for %s", c.used)
		env.Clock.Set(apptest.Epoch.Add(c.used))
		_, err = env.App.Connect.ResolveOAuthClientDocument(t.Context(), url)
		require.NoError(t, err)
		require.Equal(t, 2, f.count(url), "stale after %s", c.used)
	}
}

// TestClientDocumentChangesAndDisappears: a fetched copy replaces the kept
// one; a document that can no longer be fetched ends the client's use.
func TestClientDocumentChangesAndDisappears(t *testing.T) {
	t.Parallel()
	env, f := newDocumentEnv(t)
	f.serve(docURL, `{"client_id":"`+docURL+`","client_name":"One","redirect_uris":["http://127.0.0.1/cb"]}`, connect.ClientMetadataAnswer{})
	_, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), docURL)
	require.NoError(t, err)
	env.Clock.Advance(time.Hour)
	f.serve(docURL, `{"client_id":"`+docURL+`","client_name":"Two","redirect_uris":["http://127.0.0.1/two"]}`, connect.ClientMetadataAnswer{})
	c, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), docURL)
	require.NoError(t, err)
	require.Equal(t, apptest.Epoch.Unix(), c.ClientIDIssuedAt, "the client keeps its first fetch as its creation")
	stored, err := env.App.Connect.OAuthClientByID(t.Context(), docURL)
	require.NoError(t, err)
	require.Equal(t, "Two", stored.ClientName)
	require.Equal(t, []string{"http://127.0.0.1/two"}, stored.RedirectURIs)

	env.Clock.Advance(time.Hour)
	f.mu.Lock()
	delete(f.answers, docURL)
	f.mu.Unlock()
	_, err = env.App.Connect.ResolveOAuthClientDocument(t.Context(), docURL)
	require.Equal(t, core.CodeValidation, core.ErrorCode(err))
	require.Contains(t, err.Error(), "could not be fetched: it answered HTTP 404")
}

// TestClientDocumentNeverFetchedInATransaction: resolving inside a
// transaction is a bug the method refuses before calling out.
func TestClientDocumentNeverFetchedInATransaction(t *testing.T) {
	t.Parallel()
	env, f := newDocumentEnv(t)
	f.serve(docURL, `{"client_id":"`+docURL+`","redirect_uris":["http://127.0.0.1/cb"]}`, connect.ClientMetadataAnswer{})
	ctx, err := env.App.BeginTx(t.Context())
	require.NoError(t, err)
	defer func() { require.NoError(t, env.App.RollbackTx(ctx)) }()
	_, err = env.App.Connect.ResolveOAuthClientDocument(ctx, docURL)
	require.Equal(t, core.CodeInternal, core.ErrorCode(err))
	require.Zero(t, f.count(docURL))
}

// TestClientDocumentWithoutFetcher: with no fetcher configured a document
// URL names no client.
func TestClientDocumentWithoutFetcher(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	env.App.Connect.ClientMetadata = nil
	_, err := env.App.Connect.ResolveOAuthClientDocument(t.Context(), docURL)
	require.Equal(t, core.CodeNotFound, core.ErrorCode(err))
}
