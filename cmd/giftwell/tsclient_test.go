package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// tsClientDir holds the Node script and its pinned SDK (npm ci; make tsdeps).
const tsClientDir = "../../internal/tsclient"

// tsStep is one line the script prints.
type tsStep struct {
	Step   string   `json:"step"`
	URL    string   `json:"url"`
	Method string   `json:"method"`
	Path   string   `json:"path"`
	Status int      `json:"status"`
	Names  []string `json:"names"`
	Scope  string   `json:"scope"`
	Prefix string   `json:"access_token_prefix"`
	Error  bool     `json:"isError"`
	Text   string   `json:"text"`
}

// nodeForTSClient finds node and the installed SDK, installing it with npm
// ci when it is missing (make tsdeps does it before make test). Outside CI
// the test skips without node or when the install fails (offline); in CI it fails.
func nodeForTSClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the TypeScript client test needs node in CI: %v", err)
		}
		t.Skip("node is not installed; the TypeScript SDK client test skips outside CI")
	}
	if _, err := os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		out, err := exec.Command("npm", "ci", "--prefix", tsClientDir, "--no-audit", "--no-fund").CombinedOutput()
		if err != nil && os.Getenv("CI") == "" {
			t.Skipf("the TypeScript SDK could not be installed (offline?); the test skips outside CI: %v: %s", err, out)
		}
		require.NoError(t, err, "npm ci (make tsdeps): %s", out)
	}
	return node
}

// TestTypeScriptSDKClient drives the official TypeScript MCP SDK's client
// (internal/tsclient/client.mjs) through discovery, dynamic registration,
// PKCE without state, a person's consent, the token exchange, tools/list
// and tools/call.
func TestTypeScriptSDKClient(t *testing.T) {
	t.Parallel()
	node := nodeForTSClient(t)
	s := newOAuthSite(t)

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs")
	cmd.Dir = tsClientDir
	cmd.Env = append(os.Environ(), "GIFTWELL_MCP_URL="+s.url+"/mcp")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())

	var steps []tsStep
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		t.Logf("tsclient: %s", lines.Text())
		var st tsStep
		require.NoError(t, json.Unmarshal(lines.Bytes(), &st), lines.Text())
		steps = append(steps, st)
		if st.Step == "authorize" {
			code := s.consentAsPerson(t, st.URL)
			_, err := io.WriteString(stdin, code+"\n")
			require.NoError(t, err)
		}
	}
	err = cmd.Wait()
	require.NoError(t, err, "node client.mjs: %s", stderr.String())

	// Discovery, registration and the token exchange, as the SDK did them.
	var calls []string
	for _, st := range steps {
		if st.Step == "http" && !strings.HasPrefix(st.Path, "/mcp") {
			calls = append(calls, st.Method+" "+st.Path+" "+http.StatusText(st.Status))
		}
	}
	// (finishAuth discovers again before it exchanges the code.)
	require.Equal(t, []string{
		"GET /.well-known/oauth-protected-resource/mcp OK",
		"GET /.well-known/oauth-authorization-server OK",
		"POST /oauth/register Created",
		"GET /.well-known/oauth-protected-resource/mcp OK",
		"GET /.well-known/oauth-authorization-server OK",
		"POST /oauth/token OK",
	}, calls)

	got := map[string]tsStep{}
	for _, st := range steps {
		got[st.Step] = st
	}
	require.Contains(t, got, "registered")
	require.Equal(t, "mco_access_", got["tokens"].Prefix)
	require.Equal(t, "gifts:read gifts:write gifts:links:read", got["tokens"].Scope)

	// tools/list: the gifting profile a connection with every scope sees.
	p := core.Principal{Via: core.ViaConnection, Scopes: []core.Scope{core.ScopeRead, core.ScopeWrite, core.ScopeLinks}}
	var want []string
	for _, tool := range tools.All(s.env.App) {
		if tool.Visible(tools.ProfileGifting, p) {
			want = append(want, tool.Name)
		}
	}
	require.ElementsMatch(t, want, got["tools"].Names)

	// tools/call: the workflow guide, as structured content.
	require.False(t, got["call"].Error, got["call"].Text)
	require.Contains(t, got["call"].Text, `{"data":`)
	require.Contains(t, got, "done")
}

// consentAsPerson is the person in the browser: it opens the authorization
// URL the SDK built (signed in), checks it, allows every scope on the
// consent page and returns the code the redirect carries.
func (s *oauthSite) consentAsPerson(t *testing.T, authorizeURL string) string {
	t.Helper()
	u, err := url.Parse(authorizeURL)
	require.NoError(t, err)
	require.Equal(t, s.url+"/oauth/authorize", u.Scheme+"://"+u.Host+u.Path)
	q := u.Query()
	require.NotContains(t, q, "state", "the SDK sends no state by default")
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.Equal(t, s.url+"/mcp", q.Get("resource"))
	require.True(t, strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:"), q.Get("redirect_uri"))

	res, body := s.do(t, http.MethodGet, u.RequestURI(), "", "", true)
	require.Equal(t, http.StatusOK, res.StatusCode, "the consent page: %s", body)
	require.Contains(t, string(body), "TypeScript SDK test client")

	form := url.Values{"decision": {"allow"}, "scope_grant": {"gifts:write", "gifts:links:read"}}
	res, body = s.do(t, http.MethodPost, u.RequestURI(), "application/x-www-form-urlencoded", form.Encode(), true)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, string(body))
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, q.Get("redirect_uri"), loc.Scheme+"://"+loc.Host+loc.Path)
	require.NotContains(t, loc.Query(), "state")
	require.Equal(t, s.url, loc.Query().Get("iss"))
	t.Logf("person: consented on %s; redirected to %s?code=mco_code_…&iss=%s", u.Path, loc.Scheme+"://"+loc.Host+loc.Path, loc.Query().Get("iss"))
	return loc.Query().Get("code")
}
