package oauth_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/oauth"
	"github.com/giftwell/giftwell/tools"
)

// FuzzRegister posts arbitrary bodies to the real registration handler
// over a real database, each from its own address (so the per-address
// limit does not end the run). The answer is never a 5xx; a refusal is the
// OAuth error shape with one of RFC 7591's codes (or rate_limited); a
// registered client's stored metadata is text the database keeps: no NUL,
// all UTF-8.
func FuzzRegister(f *testing.F) {
	env := apptest.New(f)
	h := oauth.RegistrationHandler(env.App, slog.New(slog.DiscardHandler))
	for _, s := range []string{
		`{"client_name":"Claude","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none"}`,
		`{"client_name":"C","redirect_uris":["http://127.0.0.1:33418/cb"],"token_endpoint_auth_method":"client_secret_basic","grant_types":["authorization_code","refresh_token"],"response_types":["code"],"scope":"gifts:read gifts:write"}`,
		`{"client_name":"x\u0000y","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"none"}`,
		"{\"client_name\":\"x\xffy\",\"redirect_uris\":[\"https://claude.ai/api/mcp/auth_callback\"],\"token_endpoint_auth_method\":\"none\"}",
		`{"client_name":"C","redirect_uris":["https://claude.ai/\u0000"],"token_endpoint_auth_method":"none"}`,
		`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"client_uri":"https://\u0000","logo_uri":"\ud800","token_endpoint_auth_method":"none"}`,
		`{"client_name":"C","redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"contacts":["a\u0000"],"software_id":"\u0000","token_endpoint_auth_method":"none"}`,
		`{"redirect_uris":"https://claude.ai/api/mcp/auth_callback"}`,
		`{"client_name":7}`, `[]`, `null`, `{`, ``, `{"a\u0000":1}`,
	} {
		f.Add([]byte(s), "application/json")
	}
	f.Add([]byte(`{"client_name":"C"}`), "text/plain")
	var n atomic.Uint32
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		r := httptest.NewRequest(http.MethodPost, "/oauth/register", bytes.NewReader(body))
		r.Header["Content-Type"] = []string{contentType}
		i := n.Add(1)
		r.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:4000", byte(i>>16), byte(i>>8), byte(i))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%d: %s", w.Code, w.Body)
		}
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%d, not JSON: %s", w.Code, w.Body)
		}
		if w.Code != http.StatusCreated {
			requireOAuthError(t, w.Code, out, "invalid_client_metadata", "invalid_redirect_uri", "rate_limited")
			return
		}
		id, _ := out["client_id"].(string)
		c, err := env.App.Connect.OAuthClientByID(t.Context(), id)
		if err != nil {
			t.Fatalf("registered %q cannot be read: %v", id, err)
		}
		for _, s := range append([]string{c.ClientName, c.ClientURI, c.Scope}, c.RedirectURIs...) {
			if tools.HostileText(s) != "" {
				t.Fatalf("stored hostile text %q from %q", s, body)
			}
		}
	})
}

// FuzzTokenForm posts arbitrary forms, content types and Basic
// credentials to the real token and revocation endpoints. The answer is
// never a 5xx; a refusal is the OAuth error shape (RFC 6749 §5.2) with one
// of its codes, never a credential error for text the request could not
// carry: hostile text is invalid_request.
func FuzzTokenForm(f *testing.F) {
	env := apptest.New(f, apptest.WithSiteURL("https://gifts.example.com"))
	h := oauth.NewServer(env.App, nil).Handler()
	client, err := env.App.Connect.RegisterOAuthClient(f.Context(), connect.OAuthClientRegistration{
		ClientName: "Fuzz", RedirectURIs: []string{"https://claude.ai/api/mcp/auth_callback"}, TokenEndpointAuthMethod: connect.AuthMethodNone,
	}, "192.0.2.40")
	if err != nil {
		f.Fatal(err)
	}
	form := "application/x-www-form-urlencoded"
	for _, s := range []struct {
		body, contentType, user, pass string
		revoke                        bool
	}{
		{"grant_type=refresh_token&refresh_token=mco_refresh_x&client_id=" + client.ClientID, form, "", "", false},
		{"grant_type=authorization_code&code=abc&code_verifier=v&redirect_uri=https://claude.ai/api/mcp/auth_callback&client_id=" + client.ClientID, form, "", "", false},
		{"grant_type=refresh_token&refresh_token=mco_refresh_%00&client_id=" + client.ClientID, form, "", "", false},
		{"grant_type=refresh_token&refresh_token=x&client_id=%FF", form, "", "", false},
		{"grant_type=refresh_token&refresh_token=x&resource=%00&scope=gifts:read", form, client.ClientID, "", false},
		{"grant_type=refresh_token&refresh_token=x", form, "oac_%00", "s", false},
		{"grant_type=refresh_token&refresh_token=x", form, client.ClientID, "s\xff", false},
		{"grant_type=password&username=a&password=b", form, "", "", false},
		{"grant_type=client_credentials", form, client.ClientID, "secret", false},
		{"%zz=1&grant_type", form, "", "", false},
		{"--b\r\nContent-Disposition: form-data; name=\"grant_type\"\r\n\r\nrefresh_token\x00\r\n--b--\r\n", "multipart/form-data; boundary=b", "", "", false},
		{"", "", "", "", false},
		{"token=mco_access_x&client_id=" + client.ClientID, form, "", "", true},
		{"token=mco_access_%00&client_id=" + client.ClientID, form, "", "", true},
		{"token=x&token_type_hint=%FF&client_id=" + client.ClientID, form, "", "", true},
		{"token=x", form, "oac_\xff", "", true},
	} {
		f.Add([]byte(s.body), s.contentType, s.user, s.pass, s.revoke)
	}
	codes := []string{"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type",
		"invalid_scope", "invalid_target", "unsupported_token_type", "access_denied", "request_forbidden"}
	f.Fuzz(func(t *testing.T, body []byte, contentType, user, pass string, revoke bool) {
		path := "/oauth/token"
		if revoke {
			path = "/oauth/revoke"
		}
		r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		if !validHeader(contentType) {
			t.Skip()
		}
		r.Header["Content-Type"] = []string{contentType}
		if user != "" || pass != "" {
			r.SetBasicAuth(user, pass)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %q (%q, %q:%q): %d %s", path, body, contentType, user, pass, w.Code, w.Body)
		}
		if revoke && w.Code == http.StatusOK && w.Body.Len() == 0 {
			return // revoked, or nothing to revoke (RFC 7009 §2.2)
		}
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %d, not JSON: %s", path, w.Code, w.Body)
		}
		if w.Code == http.StatusOK {
			if _, ok := out["access_token"].(string); !ok {
				t.Fatalf("200 without an access token: %v", out)
			}
			return
		}
		requireOAuthError(t, w.Code, out, codes...)
		if tools.CheckText(map[string]any{"user": user, "pass": pass}) != nil || (contentType == form && !textForm(body)) {
			if out["error"] == "invalid_client" {
				t.Fatalf("hostile text got a credential error: %q %q:%q -> %v", body, user, pass, out)
			}
		}
	})
}

// requireOAuthError checks the OAuth error shape: an error code from codes
// and, when present, a string error_description.
func requireOAuthError(t *testing.T, status int, out map[string]any, codes ...string) {
	t.Helper()
	code, _ := out["error"].(string)
	if !slices.Contains(codes, code) {
		t.Fatalf("%d: error %q is not one of %v: %v", status, code, codes, out)
	}
	if d, ok := out["error_description"]; ok {
		if _, ok := d.(string); !ok {
			t.Fatalf("error_description is not a string: %v", out)
		}
	}
}

// textForm reports whether every name and value of a url-encoded body
// that could be read is storable text.
func textForm(body []byte) bool {
	v, _ := url.ParseQuery(string(body))
	return tools.CheckValues(v) == nil
}

// validHeader reports whether net/http would send v as a header value.
func validHeader(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}
