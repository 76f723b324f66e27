package oauth

import (
	"bytes"
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ory/fosite"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/webshell"
)

// Server is the authorization server for sign-in connections: authorize
// (with the consent page), token and revoke, backed by fosite.
type Server struct {
	app      *giftwell.App
	log      *slog.Logger
	provider fosite.OAuth2Provider
}

// NewServer returns the authorization server of app.
func NewServer(app *giftwell.App, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{app: app, log: log, provider: newProvider(app, NewStore(app))}
}

// Handler serves /oauth/authorize, /oauth/token, /oauth/revoke,
// /oauth/register and /oauth/disconnect. Posts to /oauth/authorize and
// /oauth/disconnect from another site are refused
// (http.CrossOriginProtection, as the web app's forms are); token,
// revocation and registration answer any origin (publicCORS).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oauth/authorize", s.authorize)
	cop := http.NewCrossOriginProtection()
	if u, err := url.Parse(s.app.Config.SiteURL); err == nil && u.Scheme != "" && u.Host != "" {
		_ = cop.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	mux.Handle("POST /oauth/authorize", cop.Handler(http.HandlerFunc(s.consent)))
	mux.HandleFunc("GET /oauth/disconnect", s.connectedApps)
	mux.Handle("POST /oauth/disconnect", cop.Handler(http.HandlerFunc(s.disconnect)))
	// Token, revocation and registration are called by browser clients too.
	mux.Handle("/oauth/token", publicCORS(onlyPost(s.token), http.MethodPost))
	mux.Handle("/oauth/revoke", publicCORS(onlyPost(s.revoke), http.MethodPost))
	mux.Handle("/oauth/register", publicCORS(RegistrationHandler(s.app, s.log), http.MethodPost))
	mux.HandleFunc("/oauth/", func(w http.ResponseWriter, r *http.Request) {
		if allow, ok := endpointMethods[r.URL.Path]; ok {
			w.Header().Set("Allow", allow)
			writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", r.Method+" is not allowed here; use "+allow)
			return
		}
		writeOAuthError(w, http.StatusNotFound, "invalid_request", "no such OAuth endpoint")
	})
	return mux
}

// onlyPost serves POST with h and answers any other method 405 (after CORS
// has answered a preflight).
func onlyPost(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", r.Method+" is not allowed here; use POST")
			return
		}
		h(w, r)
	})
}

// endpointMethods are the methods of each endpoint Handler serves, for the
// 405 answer to any other (token, revocation and registration answer
// their own).
var endpointMethods = map[string]string{
	"/oauth/authorize":  "GET, POST",
	"/oauth/disconnect": "GET, POST",
}

// authorizeRequest is a checked authorization request of a signed-in person.
type authorizeRequest struct {
	person    core.Principal
	client    connect.OAuthClient
	request   fosite.AuthorizeRequester
	resources []string
	ctx       context.Context
}

// begin checks the authorization request common to the consent page and its
// post. It has answered when ok is false: a sign-in redirect, an error page
// (hostile text in a parameter, unknown client, unmatched redirect URI:
// never redirected), or an error redirect to the client.
func (s *Server) begin(w http.ResponseWriter, r *http.Request) (authorizeRequest, bool) {
	if e := hostileRequest(r); e != nil {
		// Nothing is verified yet, so nothing is redirected: a page says it.
		s.errorPage(w, http.StatusBadRequest, "The request is not valid (invalid_request): "+e.Message+".")
		return authorizeRequest{}, false
	}
	if r.URL.Query().Has("access_token") {
		s.errorPage(w, http.StatusBadRequest, "Tokens are never accepted in the address.")
		return authorizeRequest{}, false
	}
	person, ok := s.signedIn(w, r, r.URL.RequestURI())
	if !ok {
		return authorizeRequest{}, false
	}
	q := r.URL.Query()
	client, ok := s.authorizeClient(w, r, q.Get("client_id"))
	if !ok {
		return authorizeRequest{}, false
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(client.RedirectURIs) == 1 {
		redirect = client.RedirectURIs[0]
	}
	callbacks := connect.OAuthCallbacks(s.app.Config)
	if !slices.ContainsFunc(client.RedirectURIs, func(reg string) bool { return connect.RedirectURIMatches(reg, redirect, callbacks) }) {
		s.errorPage(w, http.StatusBadRequest, "The app's redirect address does not match the one it registered.")
		return authorizeRequest{}, false
	}
	ctx := context.WithValue(r.Context(), matchedRedirectKey{}, redirect)
	ar, err := s.provider.NewAuthorizeRequest(ctx, r)
	if err != nil {
		s.authorizeError(ctx, w, ar, err)
		return authorizeRequest{}, false
	}
	// fosite enforces PKCE only when it issues the code; refuse before the
	// consent page instead, and accept S256 only (a missing method means plain).
	if q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		s.provider.WriteAuthorizeError(ctx, w, ar, fosite.ErrInvalidRequest.WithHint("PKCE with code_challenge_method S256 is required."))
		return authorizeRequest{}, false
	}
	if err := connect.CheckOAuthAuthorization(s.app.Config, q["resource"], ar.GetRequestedScopes()); err != nil {
		s.provider.WriteAuthorizeError(ctx, w, ar, s.oauthError(err, fosite.ErrInvalidScope))
		return authorizeRequest{}, false
	}
	return authorizeRequest{person: person, client: client, request: ar, resources: q["resource"], ctx: ctx}, true
}

// authorize shows the consent page, in the web app's shell (header with
// the workspace and its test/live marker, site nav, stylesheet).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	a, ok := s.begin(w, r)
	if !ok {
		return
	}
	header, err := webshell.LoadHeader(r.Context(), s.app, a.person)
	if err != nil {
		// The page still works without its header: the picker falls back to
		// the session's workspace.
		s.log.ErrorContext(r.Context(), "oauth consent header", "err", err)
	}
	var workspaces []identity.WorkspaceSummary
	if header != nil {
		workspaces = header.Workspaces
		// The form's picker chooses the grant's workspace; the header's
		// switcher (which would leave this page) is not shown.
		header.Workspaces = nil
	}
	if len(workspaces) == 0 {
		workspaces = []identity.WorkspaceSummary{{ID: a.person.WorkspaceID, Name: a.person.WorkspaceID}}
	}
	var choices []consentWorkspace
	for _, ws := range workspaces {
		choices = append(choices, consentWorkspace{WorkspaceSummary: ws, Selected: ws.ID == a.person.WorkspaceID})
	}
	redirectHost := a.request.GetRedirectURI().Host
	if redirectHost == "" {
		redirectHost = a.request.GetRedirectURI().Scheme + ":"
	}
	view := consentView{
		Client: a.client.ClientName, ClientID: a.client.ClientID, ClientHost: documentHost(a.client.ClientID), RedirectHost: redirectHost,
		Workspaces: choices, Action: "/oauth/authorize?" + r.URL.RawQuery,
	}
	if view.Client == "" {
		view.Client = "An unnamed app"
	}
	for _, sc := range connect.OAuthConsentScopes(a.request.GetRequestedScopes()) {
		view.Scopes = append(view.Scopes, consentScope{Scope: string(sc.Scope), Text: scopeText[sc.Scope], Optional: sc.Optional})
	}
	s.render(r.Context(), w, http.StatusOK, consentPage, page{Shell: header, Data: view})
}

// consent records the person's answer and redirects to the client with a
// code (and iss, RFC 9207) or access_denied.
func (s *Server) consent(w http.ResponseWriter, r *http.Request) {
	a, ok := s.begin(w, r)
	if !ok {
		return
	}
	if r.PostFormValue("decision") != "allow" {
		s.provider.WriteAuthorizeError(a.ctx, w, a.request, fosite.ErrAccessDenied.WithHint("The person declined."))
		return
	}
	grant, err := s.app.Connect.CreateOAuthGrant(a.ctx, a.person, connect.OAuthConsent{
		ClientID: a.client.ClientID, Resources: a.resources, WorkspaceID: r.PostFormValue("workspace_id"),
		Requested: a.request.GetRequestedScopes(), Ticked: r.PostForm["scope_grant"],
	})
	if err != nil {
		e := core.AsError(err)
		switch {
		case e.Code == core.CodeNotFound && slices.Contains(e.Fields, "workspace_id"):
			// A forged workspace gets a page, never a code.
			s.errorPage(w, http.StatusForbidden, sentence(e))
		case e.Code == core.CodeValidation:
			s.provider.WriteAuthorizeError(a.ctx, w, a.request, s.oauthError(e, fosite.ErrAccessDenied))
		default:
			s.log.ErrorContext(r.Context(), "oauth grant", "err", err)
			s.authorizeError(a.ctx, w, a.request, fosite.ErrServerError.WithWrap(err))
		}
		return
	}
	for _, sc := range grant.Scopes {
		a.request.GrantScope(string(sc))
	}
	session := &Session{GrantID: grant.ID, WorkspaceID: grant.WorkspaceID, UserID: grant.UserID}
	resp, err := s.provider.NewAuthorizeResponse(a.ctx, a.request, session)
	if err != nil {
		s.authorizeError(a.ctx, w, a.request, err)
		return
	}
	resp.AddParameter("iss", s.app.Config.SiteURL)
	s.provider.WriteAuthorizeResponse(a.ctx, w, a.request, resp)
}

// token serves POST /oauth/token: code exchange and refresh. A resource
// sent with it must be the grant's. A parameter or client credential
// holding hostile text is invalid_request, before anything is looked up.
// While the database is unavailable it answers server_error 503
// (accessError), never a credential error.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if e := hostileRequest(r); e != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", e.Message)
		return
	}
	if !s.tokenClient(w, r) {
		return
	}
	ctx := r.Context()
	session := &Session{}
	ar, err := s.provider.NewAccessRequest(ctx, r, session)
	if err != nil {
		s.accessError(ctx, w, ar, err)
		return
	}
	grant, err := s.app.Connect.OAuthGrantByID(ctx, session.GrantID)
	if err != nil {
		if !core.Unavailable(err) {
			err = fosite.ErrInvalidGrant
		}
		s.accessError(ctx, w, ar, err)
		return
	}
	// No scope beyond the grant's, ever (fosite would quietly narrow it).
	if err := grant.CheckTokenRequest(r.PostForm["resource"], strings.Fields(r.PostForm.Get("scope"))); err != nil {
		s.provider.WriteAccessError(ctx, w, ar, s.oauthError(err, fosite.ErrInvalidScope))
		return
	}
	resp, err := s.provider.NewAccessResponse(ctx, ar)
	if err != nil {
		s.accessError(ctx, w, ar, err)
		return
	}
	s.provider.WriteAccessResponse(ctx, w, ar, resp)
}

// accessError writes a failed token request: server_error 503 when the
// database is unavailable, whatever fosite made of it (a failed client
// lookup is invalid_client to fosite), and fosite's answer otherwise.
func (s *Server) accessError(ctx context.Context, w http.ResponseWriter, ar fosite.AccessRequester, err error) {
	if core.Unavailable(err) {
		s.log.ErrorContext(ctx, "oauth token: service unavailable", "err", err)
		writeUnavailable(w)
		return
	}
	s.provider.WriteAccessError(ctx, w, ar, err)
}

// authorizeError writes a failed authorization request as fosite does (a
// redirect to the client once its redirect URI is known, a page before),
// with temporarily_unavailable when the database is unavailable.
func (s *Server) authorizeError(ctx context.Context, w http.ResponseWriter, ar fosite.AuthorizeRequester, err error) {
	if core.Unavailable(err) {
		s.log.ErrorContext(ctx, "oauth authorize: service unavailable", "err", err)
		w.Header().Set("Retry-After", strconv.Itoa((core.UnavailableRetryAfterMs+999)/1000))
		err = errTemporarilyUnavailable
	}
	s.provider.WriteAuthorizeError(ctx, w, ar, err)
}

// revoke serves POST /oauth/revoke (RFC 7009); revoking a refresh token
// ends its grant. While the database is unavailable it answers server_error
// 503, never invalid_client.
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if e := hostileRequest(r); e != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", e.Message)
		return
	}
	err := s.provider.NewRevocationRequest(r.Context(), r)
	if core.Unavailable(err) {
		s.log.ErrorContext(r.Context(), "oauth revoke: service unavailable", "err", err)
		writeUnavailable(w)
		return
	}
	if err != nil && !errors.Is(err, fosite.ErrNotFound) {
		s.log.InfoContext(r.Context(), "oauth revoke", "err", err)
	}
	s.provider.WriteRevocationResponse(r.Context(), w, err)
}

// protectPage forbids framing and caching of a page that asks for consent.
// Styles and scripts come only from the site (the shell's /static/ files).
// There is no form-action: Chromium applies it to the redirect that follows
// the consent post, which goes to the client's callback.
func protectPage(w http.ResponseWriter) {
	h := w.Header()
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
}

// render draws a page of the oauth face in the shell's layout, protected by
// protectPage. It is drawn into a buffer first, so a template error never
// sends half a page.
func (s *Server) render(ctx context.Context, w http.ResponseWriter, status int, t *template.Template, p page) {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		s.log.ErrorContext(ctx, "oauth page", "page", t.Name(), "err", err)
		protectPage(w)
		http.Error(w, "Something went wrong; try again.", http.StatusInternalServerError)
		return
	}
	protectPage(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// errorPage is a page for errors that must not redirect to the client.
func (s *Server) errorPage(w http.ResponseWriter, status int, message string) {
	s.render(context.Background(), w, status, errorTemplate, page{Data: message})
}

// unavailablePage is the 503 page, with Retry-After, of a request the
// database's unavailability stopped before anything can redirect to the
// client (or on the connected-apps pages).
func (s *Server) unavailablePage(w http.ResponseWriter, r *http.Request, err error) {
	s.log.ErrorContext(r.Context(), "oauth: service unavailable", "path", r.URL.Path, "err", err)
	w.Header().Set("Retry-After", strconv.Itoa((core.UnavailableRetryAfterMs+999)/1000))
	s.errorPage(w, http.StatusServiceUnavailable, unavailableText)
}

// page is what the shell's layout (internal/webshell) reads, with the
// page's own Data.
type page struct {
	// Shell is the header of a signed-in page; nil draws the bare header.
	Shell *webshell.Header
	// Nav is the site nav's current link: none on the consent page.
	Nav string
	// Notice and Problem are the layout's alerts; these pages have none.
	Notice  string
	Problem any
	// Data is the page's own content.
	Data any
}

// scopeText says what each scope lets the app do, in plain words.
var scopeText = map[core.Scope]string{
	core.ScopeRead:  "See your campaigns, gifts, tracking, queue and balance",
	core.ScopeWrite: "Create and edit draft campaigns and add people to them",
	core.ScopeLinks: "Read gift links and their CSV exports",
}

type consentScope struct {
	Scope, Text string
	Optional    bool
}

type consentWorkspace struct {
	identity.WorkspaceSummary
	Selected bool
}

type consentView struct {
	Client, ClientID, RedirectHost, Action string
	Workspaces                             []consentWorkspace
	Scopes                                 []consentScope
	// ClientHost is the host of a client named by its metadata document
	// URL: who really speaks, whatever name the document claims.
	ClientHost string
}

// shellPage parses a page (defining "title" and "main") into the shell's layout.
func shellPage(name, text string) *template.Template {
	layout, err := webshell.Layout(nil)
	if err != nil {
		panic(err)
	}
	return template.Must(layout.New(name).Parse(text))
}

// consentPage asks the person to connect the app: which workspace, which
// scopes (gifts:read always; the others ticked and untickable), Allow or Deny.
var consentPage = shellPage("consent", `{{define "title"}}Connect {{.Data.Client}}{{end}}
{{define "width"}}narrow{{end}}
{{define "main"}}{{with .Data -}}
<h1>Connect {{.Client}} to Giftwell?</h1>
{{if .ClientHost}}<p class="lead"><strong>{{.Client}}</strong>, published by <strong>{{.ClientHost}}</strong> (client <code>{{.ClientID}}</code>), asks to act for you.
Only continue if you trust <strong>{{.ClientHost}}</strong>: anyone can give their app any name.
{{- else}}<p class="lead"><strong>{{.Client}}</strong> (client <code>{{.ClientID}}</code>) asks to act for you.{{end}}
Whatever you answer, you will be sent back to <strong>{{.RedirectHost}}</strong>.</p>
<form method="post" action="{{.Action}}" class="card" id="consent">
{{- if eq (len .Workspaces) 1}}{{range .Workspaces}}
  <p>It will get access to the workspace <strong>{{.Name}}</strong> {{template "mode" .}}.</p>
  <input type="hidden" name="workspace_id" value="{{.ID}}">
{{- end}}{{else}}
  <div class="field">
    <label for="workspace_id">Workspace</label>
    <p class="hint" id="workspace_id-hint">The workspace it will get access to.</p>
    <select id="workspace_id" name="workspace_id" aria-describedby="workspace_id-hint">
    {{- range .Workspaces}}
      <option value="{{.ID}}"{{if .Selected}} selected{{end}}>{{.Name}}{{if eq (print .Mode) "live"}} (live mode){{else}} (test mode){{end}}</option>
    {{- end}}
    </select>
  </div>
{{- end}}
  <fieldset class="consent-scopes">
    <legend>It will be able to</legend>
    <ul>
    {{- range .Scopes}}
      <li><label><input type="checkbox" name="scope_grant" value="{{.Scope}}" checked{{if not .Optional}} disabled{{end}}> <span>{{.Text}} <code>{{.Scope}}</code></span></label></li>
    {{- end}}
    </ul>
  </fieldset>
  <div class="consent-answer">
    <button type="submit" class="button" name="decision" value="allow">Allow</button>
    <button type="submit" class="button button-secondary" name="decision" value="deny">Deny</button>
  </div>
</form>
<p class="muted">You can disconnect it at any time under Settings, Connected apps.</p>
{{- end}}{{end}}`)

// errorTemplate is the page of an authorization request that cannot go on
// (Data is the message).
var errorTemplate = shellPage("error", `{{define "title"}}Cannot connect{{end}}
{{define "width"}}narrow{{end}}
{{define "main" -}}
<h1>Cannot connect this app</h1>
<p class="lead">{{.Data}}</p>
{{- end}}`)
