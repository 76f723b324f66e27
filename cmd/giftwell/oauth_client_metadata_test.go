package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/connect"
)

// documentServer is an https server (loopback, so reached only through the
// allowed prefix) serving client ID metadata documents, counting fetches.
type documentServer struct {
	*httptest.Server
	mu      sync.Mutex
	fetches map[string]int
}

// newDocumentServer serves, under its own URL (base):
//
//	/client.json      a valid document, Cache-Control: max-age=600
//	/mismatch.json    a document whose client_id names another URL
//	/big.json         a valid document padded beyond 64 KiB
//	/page.json        a valid document served as text/html
//	/broken.json      application/json that is not JSON
//	/secret.json      a document with a client_secret
//	/moved.json       a 302 to /client.json
func newDocumentServer(t *testing.T) *documentServer {
	t.Helper()
	d := &documentServer{fetches: map[string]int{}}
	d.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.fetches[r.URL.Path]++
		d.mu.Unlock()
		base := "https://" + r.Host
		doc := func(clientID string, extra map[string]any) []byte {
			m := map[string]any{
				"client_id": clientID, "client_name": "Test Assistant",
				"redirect_uris":              []string{loopbackCallback},
				"token_endpoint_auth_method": "none",
				"grant_types":                []string{"authorization_code", "refresh_token"},
				"response_types":             []string{"code"},
				"logo_uri":                   base + "/logo.png",
			}
			for k, v := range extra {
				m[k] = v
			}
			b, _ := json.Marshal(m)
			return b
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/client.json":
			require.Equal(t, "application/json", r.Header.Get("Accept"))
			w.Header().Set("Cache-Control", "public, max-age=600")
			_, _ = w.Write(doc(base+r.URL.Path, nil))
		case "/mismatch.json":
			_, _ = w.Write(doc(base+"/client.json", nil))
		case "/big.json":
			_, _ = w.Write(doc(base+r.URL.Path, map[string]any{"padding": strings.Repeat("x", connect.MaxClientDocumentBytes)}))
		case "/page.json":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write(doc(base+r.URL.Path, nil))
		case "/broken.json":
			_, _ = w.Write([]byte(`{"client_id": `))
		case "/secret.json":
			_, _ = w.Write(doc(base+r.URL.Path, map[string]any{"client_secret": "s3cret"}))
		case "/moved.json":
			http.Redirect(w, r, "/client.json", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(d.Close)
	return d
}

func (d *documentServer) count(path string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fetches[path]
}

// newDocumentSite is the whole server whose OAuth may fetch documents from a
// documentServer, with the site's client set to the valid document's URL.
func newDocumentSite(t *testing.T) (*oauthSite, *documentServer) {
	t.Helper()
	s := newOAuthSite(t)
	docs := newDocumentServer(t)
	s.env.AllowClientMetadataServer(t, docs.Server)
	s.client = docs.URL + "/client.json"
	return s, docs
}

// TestOAuthClientMetadataDocument: a client named by its metadata document
// URL goes through the whole flow (discovery, consent showing the
// document's host, code exchange with PKCE, an MCP call, refresh,
// revocation) with one fetch while the document is fresh, and a new fetch
// once its max-age has passed.
func TestOAuthClientMetadataDocument(t *testing.T) {
	t.Parallel()
	s, docs := newDocumentSite(t)
	host := strings.TrimPrefix(docs.URL, "https://")

	res, body := s.do(t, http.MethodGet, "/.well-known/oauth-authorization-server", "", "", false)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var as map[string]any
	require.NoError(t, json.Unmarshal(body, &as))
	require.Equal(t, true, as["client_id_metadata_document_supported"])

	query := s.authorizeQuery(nil)
	res, body = s.do(t, http.MethodGet, query, "", "", true)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	require.Contains(t, string(body), "Test Assistant")
	require.Contains(t, string(body), "published by <strong>"+host+"</strong>")
	require.Equal(t, 1, docs.count("/client.json"))

	loc := s.consent(t, query, "gifts:write", "gifts:links:read")
	code := loc.Query().Get("code")
	require.True(t, strings.HasPrefix(code, connect.OAuthCodePrefix), loc.String())
	status, tok, _ := s.exchange(t, code)
	require.Equal(t, http.StatusOK, status, tok)
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	require.Contains(t, s.toolNames(t, access), "create_campaign")
	require.Equal(t, 1, docs.count("/client.json"), "the document is fetched once while fresh (max-age=600)")

	// Ten minutes on, the copy has expired: the next request fetches it again.
	s.env.Clock.Advance(10*time.Minute + time.Second)
	status, tok2, _ := s.tokenRequest(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {s.client}})
	require.Equal(t, http.StatusOK, status, tok2)
	require.Equal(t, 2, docs.count("/client.json"))
	res, _ = s.do(t, http.MethodGet, query, "", "", true)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, 2, docs.count("/client.json"))

	// Revocation ends the grant.
	res, body = s.do(t, http.MethodPost, "/oauth/revoke", "application/x-www-form-urlencoded",
		url.Values{"token": {tok2["refresh_token"].(string)}, "client_id": {s.client}}.Encode(), false)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	status, _ = s.mcpStatus(t, "/mcp", tok2["access_token"].(string))
	require.Equal(t, http.StatusUnauthorized, status)
}

// TestOAuthClientMetadataDocumentRefusals: a document that cannot be used
// stops the authorization request on a page (never a redirect) and the
// token request with invalid_client.
func TestOAuthClientMetadataDocumentRefusals(t *testing.T) {
	t.Parallel()
	s, docs := newDocumentSite(t)

	page := func(t *testing.T, clientID string, edit func(url.Values)) string {
		t.Helper()
		res, body := s.do(t, http.MethodGet, s.authorizeQuery(func(q url.Values) {
			q.Set("client_id", clientID)
			if edit != nil {
				edit(q)
			}
		}), "", "", true)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, string(body))
		require.Empty(t, res.Header.Get("Location"))
		require.Contains(t, string(body), "Cannot connect this app")
		return string(body)
	}

	for _, c := range []struct{ path, says string }{
		{"/mismatch.json", "client_id must be exactly the URL it is served from"},
		{"/big.json", fmt.Sprintf("larger than %d bytes", connect.MaxClientDocumentBytes)},
		{"/page.json", "not application/json"},
		{"/broken.json", "not one JSON object"},
		{"/secret.json", "must not hold a client_secret"},
		{"/moved.json", "redirect (HTTP 302), which is not followed"},
		{"/missing.json", "HTTP 404"},
	} {
		t.Run(c.path, func(t *testing.T) {
			body := page(t, docs.URL+c.path, nil)
			require.Contains(t, body, c.says)
			status, out, _ := s.tokenRequest(t, url.Values{
				"grant_type": {"authorization_code"}, "code": {connect.OAuthCodePrefix + "x"}, "client_id": {docs.URL + c.path},
				"redirect_uri": {loopbackCallback}, "code_verifier": {s.verifer},
			})
			require.Equal(t, http.StatusUnauthorized, status, out)
			require.Equal(t, "invalid_client", out["error"])
		})
	}
	require.Zero(t, docs.count("/client.json"), "a redirect is never followed")

	t.Run("private address", func(t *testing.T) {
		body := page(t, "https://10.0.0.1/client.json", nil)
		require.Contains(t, body, "10.0.0.1 is a private")
		body = page(t, "https://localhost/client.json", nil)
		require.Contains(t, body, "localhost")
	})

	t.Run("not a document URL", func(t *testing.T) {
		require.Contains(t, page(t, docs.URL+"/", nil), "must have a path")
		require.Contains(t, page(t, docs.URL+"/a/../client.json", nil), "path segments")
		require.Contains(t, page(t, "https://user@"+strings.TrimPrefix(docs.URL, "https://")+"/client.json", nil), "credentials")
	})

	t.Run("redirect_uri not in the document", func(t *testing.T) {
		body := page(t, docs.URL+"/client.json", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:5555/elsewhere") })
		require.Contains(t, body, "does not match")
	})
}
