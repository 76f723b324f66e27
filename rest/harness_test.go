package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

// connectionToken is a bearer the test authenticator resolves to a sign-in
// connection with every scope (real connections arrive with OAuth).
const connectionToken = "mco_access_test-connection"

// offlineKeyToken is a bearer the test authenticator resolves, without the
// database, to the env's owner acting with a workspace key: it reaches an
// operation while the database is down (TestDatabaseOutageOverREST).
const offlineKeyToken = "gwk_test-offline-key"

// harness is the REST face on a real listener over a real database, mounted
// at /api/v1 as cmd/giftwell mounts it, with every response validated
// against the OpenAPI documents the server itself serves: the server's
// client (srv.Client(), which do and every test that sends its own request
// use) checks each response it reads (checkedTransport).
type harness struct {
	t    *testing.T
	env  *apptest.Env
	srv  *httptest.Server
	site string
	base string
	logs *apptest.LogBuffer
	docs []*docValidator
}

// harnessOption changes how newHarness mounts the handler.
type harnessOption int

// stripPrefix mounts the handler on a net/http ServeMux behind
// http.StripPrefix instead of as a chi sub-router. (A chi root router
// answers methods chi does not know, such as PURGE, itself.)
const stripPrefix harnessOption = 1

// faulty routes the App's database through a fault proxy (env.Faults).
const faulty harnessOption = 2

func newHarness(t *testing.T, opts ...harnessOption) *harness {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	site := "http://" + srv.Listener.Addr().String()
	envOpts := []apptest.Option{apptest.WithSiteURL(site)}
	if slices.Contains(opts, faulty) {
		envOpts = append(envOpts, apptest.WithFaults())
	}
	env := apptest.New(t, envOpts...)
	logs := &apptest.LogBuffer{}
	h := rest.NewHandler(rest.Config{
		App:          env.App,
		Tools:        append(tools.All(env.App), testTools()...),
		Log:          slog.New(slog.NewTextHandler(logs, nil)),
		Authenticate: connectionAware(env),
	})
	if slices.Contains(opts, stripPrefix) {
		mux := http.NewServeMux()
		mux.Handle("/api/v1/", http.StripPrefix("/api/v1", h))
		srv.Config.Handler = mux
	} else {
		root := chi.NewRouter()
		root.Mount("/api/v1", h)
		srv.Config.Handler = root
	}
	srv.Start()
	t.Cleanup(srv.Close)
	hs := &harness{t: t, env: env, srv: srv, site: site, base: site + "/api/v1", logs: logs}
	hs.docs = []*docValidator{hs.loadDocument("openapi-3.0.json"), hs.loadDocument("openapi.json")}
	client := srv.Client()
	client.Transport = &checkedTransport{base: client.Transport, h: hs}
	return hs
}

// connectionAware resolves connectionToken to a connection principal of the
// env's owner, offlineKeyToken to the owner with a key, and every other
// bearer through App.Authenticate.
func connectionAware(env *apptest.Env) func(context.Context, string) (core.Principal, error) {
	return func(ctx context.Context, bearer string) (core.Principal, error) {
		if bearer == connectionToken {
			return core.Principal{
				WorkspaceID: env.WorkspaceID, UserID: env.OwnerID, Role: core.RoleOwner,
				Via: core.ViaConnection, Scopes: core.AllScopes, Mode: core.ModeTest,
			}, nil
		}
		if bearer == offlineKeyToken {
			return core.Principal{
				WorkspaceID: env.WorkspaceID, UserID: env.OwnerID, Role: core.RoleOwner,
				Via: core.ViaKey, Mode: core.ModeTest, CredentialID: "key_test-offline",
			}, nil
		}
		return env.App.Connect.Authenticate(ctx, bearer)
	}
}

// reqOpt adjusts a request.
type reqOpt func(*http.Request)

func withKey(key string) reqOpt {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+key) }
}

func withHeader(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }

func withJSON() reqOpt { return withHeader("Content-Type", "application/json") }

// chunked sends the body without a Content-Length.
func chunked() reqOpt {
	return func(r *http.Request) {
		r.ContentLength = -1
		r.Header.Del("Content-Length")
	}
}

// response is what a request got, its JSON decoded.
type response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// code is the error envelope's code.
func (r response) code() string { s, _ := r.JSON["code"].(string); return s }

// message is the error envelope's text.
func (r response) message() string { s, _ := r.JSON["error"].(string); return s }

// data is the success body's payload.
func (r response) data() any { return r.JSON["data"] }

// do sends a request to path (relative to /api/v1) and validates the
// response: JSON, the success or error envelope, and (through the client)
// the OpenAPI documents.
func (h *harness) do(method, path string, body io.Reader, opts ...reqOpt) response {
	h.t.Helper()
	req, err := http.NewRequest(method, h.base+path, body)
	require.NoError(h.t, err)
	for _, o := range opts {
		o(req)
	}
	res, err := h.srv.Client().Do(req)
	require.NoError(h.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	out := response{Status: res.StatusCode, Header: res.Header, Body: raw}
	require.Equal(h.t, "application/json", res.Header.Get("Content-Type"), "body: %s", raw)
	require.NoError(h.t, json.Unmarshal(raw, &out.JSON), "body: %s", raw)
	checkEnvelope(h.t, out.Status, raw)
	return out
}

func (h *harness) get(path string, opts ...reqOpt) response {
	h.t.Helper()
	return h.do(http.MethodGet, path, nil, opts...)
}

// checkEnvelope checks that a body is {data} on success and the complete
// error envelope otherwise.
func checkEnvelope(t testing.TB, status int, raw []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if status < 300 {
		var ok struct {
			Data json.RawMessage `json:"data"`
		}
		require.NoError(t, dec.Decode(&ok), "success body: %s", raw)
		require.NotEmpty(t, ok.Data, "success body without data: %s", raw)
		return
	}
	var env struct {
		Error        *string `json:"error"`
		Code         *string `json:"code"`
		NextAction   *string `json:"nextAction"`
		URL          string  `json:"url"`
		Retryable    *bool   `json:"retryable"`
		RetryAfterMs int64   `json:"retryAfterMs"`
	}
	require.NoError(t, dec.Decode(&env), "error body: %s", raw)
	require.NotNil(t, env.Error, "error body: %s", raw)
	require.NotEmpty(t, *env.Error, "error body: %s", raw)
	require.NotNil(t, env.Code, "error body: %s", raw)
	require.NotNil(t, env.NextAction, "error body: %s", raw)
	require.NotNil(t, env.Retryable, "error body: %s", raw)
	// A wire code may have two rows with one status (SERVICE_UNAVAILABLE
	// is retry_later on a read, reread_and_retry after a write): the
	// envelope must match one of them.
	var info core.CodeInfo
	found := false
	for _, c := range core.Codes() {
		if i := c.Info(); c.Wire() == *env.Code && i.Status == status && (!found || string(i.NextAction) == *env.NextAction) {
			info, found = i, true
		}
	}
	require.True(t, found, "code %s with status %d is not a row of the table", *env.Code, status)
	require.Equal(t, string(info.NextAction), *env.NextAction)
	require.Equal(t, info.Retryable, *env.Retryable)
	if info.NextAction == core.OpenURL {
		require.NotEmpty(t, env.URL, "open_url without url: %s", raw)
	}
}

// docValidator validates responses against one served OpenAPI document.
type docValidator struct {
	name   string
	doc    *openapi3.T
	router routers.Router
}

// loadDocument fetches a served document, loads and validates it with
// kin-openapi, and builds its router.
func (h *harness) loadDocument(name string) *docValidator {
	h.t.Helper()
	res, err := h.srv.Client().Get(h.base + "/" + name)
	require.NoError(h.t, err)
	defer res.Body.Close()
	require.Equal(h.t, http.StatusOK, res.StatusCode)
	raw, err := io.ReadAll(res.Body)
	require.NoError(h.t, err)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	require.NoError(h.t, err, name)
	require.NoError(h.t, doc.Validate(loader.Context), name)
	router, err := legacy.NewRouter(doc)
	require.NoError(h.t, err, name)
	return &docValidator{name: name, doc: doc, router: router}
}

// check validates a response: against its operation when the document has
// one for the request, against the Error schema otherwise (404 and 405 for
// routes that do not exist, 403 for a refused Origin).
func (d *docValidator) check(req *http.Request, res response) error {
	route, params, err := d.router.FindRoute(req)
	if err != nil {
		if res.Status < 400 {
			return fmt.Errorf("%s: %s %s has no operation", d.name, req.Method, req.URL)
		}
		var body any
		if err := json.Unmarshal(res.Body, &body); err != nil {
			return fmt.Errorf("%s: %s %s -> %d is not JSON: %s", d.name, req.Method, req.URL.Path, res.Status, res.Body)
		}
		var opts []openapi3.SchemaValidationOption
		if d.doc.IsOpenAPI31OrLater() {
			opts = append(opts, openapi3.EnableJSONSchema2020())
		}
		if err := d.doc.Components.Schemas["Error"].Value.VisitJSON(body, opts...); err != nil {
			return fmt.Errorf("%s: %s: %w", d.name, res.Body, err)
		}
		return nil
	}
	options := &openapi3filter.Options{IncludeResponseStatus: true}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route, Options: options,
		},
		Status:  res.Status,
		Header:  res.Header,
		Options: options,
	}
	in.SetBodyBytes(res.Body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s: %s %s -> %d %s: %w", d.name, req.Method, req.URL.Path, res.Status, res.Body, err)
	}
	return nil
}

// checkedTransport is the harness client's transport: it validates every
// response of the REST face against both documents, so that no test's
// answer escapes them. A problem fails the test (t.Errorf: requests may be
// sent from several goroutines).
type checkedTransport struct {
	base http.RoundTripper
	h    *harness
}

// documentPaths are the routes that serve the documents themselves.
var documentPaths = []string{"/api/v1/openapi.json", "/api/v1/openapi-3.0.json"}

// RoundTrip sends req and checks its response.
func (c *checkedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := c.base.RoundTrip(req)
	if err != nil || !strings.HasPrefix(req.URL.Path, "/api/v1/") || slices.Contains(documentPaths, req.URL.Path) {
		return res, err
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(raw))
	got := response{Status: res.StatusCode, Header: res.Header, Body: raw}
	for _, d := range c.h.docs {
		if err := d.check(req, got); err != nil {
			c.h.t.Errorf("response does not match the document: %v", err)
		}
	}
	return res, nil
}
