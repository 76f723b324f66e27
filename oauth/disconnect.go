package oauth

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/webshell"
)

// signedIn returns the person signed in with the web app's session cookie,
// or sends them to sign in (and back to path) and returns false; while the
// session cannot be looked up, it shows the unavailable page instead.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request, back string) (core.Principal, bool) {
	c, err := r.Cookie(identity.SessionCookieName)
	var person core.Principal
	if err == nil {
		person, err = s.app.Identity.AuthenticateSession(r.Context(), c.Value)
	}
	if core.Unavailable(err) {
		// The session may well be live: never send the person to sign in.
		s.unavailablePage(w, r, err)
		return core.Principal{}, false
	}
	if err != nil {
		http.Redirect(w, r, "/login?next="+url.QueryEscape(back), http.StatusSeeOther)
		return core.Principal{}, false
	}
	return person, true
}

// connectedApps serves GET /oauth/disconnect: the signed-in person's
// connected apps in their current workspace, each with a Disconnect button.
func (s *Server) connectedApps(w http.ResponseWriter, r *http.Request) {
	person, ok := s.signedIn(w, r, "/oauth/disconnect")
	if !ok {
		return
	}
	apps, err := s.app.Connect.ListConnectedApps(r.Context(), person)
	if core.Unavailable(err) {
		s.unavailablePage(w, r, err)
		return
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "oauth connected apps", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong; try again.")
		return
	}
	header, err := webshell.LoadHeader(r.Context(), s.app, person)
	if err != nil {
		// The list still works without its header.
		s.log.ErrorContext(r.Context(), "oauth connected apps header", "err", err)
	}
	s.render(r.Context(), w, http.StatusOK, connectedAppsPage, page{Shell: header, Nav: "settings", Data: apps})
}

// disconnect serves POST /oauth/disconnect (form grant_id): ends the grant
// at once and shows the list again.
func (s *Server) disconnect(w http.ResponseWriter, r *http.Request) {
	if e := hostileRequest(r); e != nil {
		s.errorPage(w, http.StatusBadRequest, "The form is not valid: "+e.Message+".")
		return
	}
	person, ok := s.signedIn(w, r, "/oauth/disconnect")
	if !ok {
		return
	}
	if err := s.app.Connect.DisconnectApp(r.Context(), person, r.PostFormValue("grant_id")); err != nil {
		if core.ErrorCode(err) == core.CodeNotFound {
			s.errorPage(w, http.StatusNotFound, "That app is not connected to your account in this workspace.")
			return
		}
		if core.Unavailable(err) {
			s.unavailablePage(w, r, err)
			return
		}
		s.log.ErrorContext(r.Context(), "oauth disconnect", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong; try again.")
		return
	}
	http.Redirect(w, r, "/oauth/disconnect", http.StatusSeeOther)
}

// connectedAppsPage lists the person's connected apps (Data is
// []core.ConnectedApp), each with a Disconnect button, in the web app's shell.
var connectedAppsPage = shellPage("apps", `{{define "title"}}Connected apps{{end}}
{{define "main"}}
<h1>Connected apps</h1>
<p class="lead">Assistants you connected to this workspace. Disconnecting one ends its access at once.</p>
{{- if not .Data}}
<p>No app is connected to your account in this workspace.</p>
{{- else}}
<ul class="card">
{{- range .Data}}
  <li><strong>{{if .ClientName}}{{.ClientName}}{{else}}An unnamed app{{end}}</strong> (<code>{{.ClientID}}</code>) on {{.Resource}}:
  {{range $i, $s := .Scopes}}{{if $i}}, {{end}}<code>{{$s}}</code>{{end}}; connected {{.ConsentedAt.Format "2006-01-02"}}, until {{.ExpiresAt.Format "2006-01-02"}} unless used.
  <form method="post" action="/oauth/disconnect"><input type="hidden" name="grant_id" value="{{.GrantID}}"><button type="submit" class="button button-small button-secondary">Disconnect</button></form></li>
{{- end}}
</ul>
{{- end}}
{{- end}}`)
