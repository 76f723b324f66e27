package oauth

import (
	"html/template"
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
)

// signedIn returns the person signed in with the web app's session cookie,
// or sends them to sign in (and back to path) and returns false.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request, back string) (core.Principal, bool) {
	c, err := r.Cookie(core.SessionCookieName)
	var person core.Principal
	if err == nil {
		person, err = s.app.AuthenticateSession(r.Context(), c.Value)
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
	apps, err := s.app.ListConnectedApps(r.Context(), person)
	if err != nil {
		s.log.ErrorContext(r.Context(), "oauth connected apps", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong; try again.")
		return
	}
	protectPage(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := connectedAppsPage.Execute(w, apps); err != nil {
		s.log.ErrorContext(r.Context(), "oauth connected apps page", "err", err)
	}
}

// disconnect serves POST /oauth/disconnect (form grant_id): ends the grant
// at once and shows the list again.
func (s *Server) disconnect(w http.ResponseWriter, r *http.Request) {
	person, ok := s.signedIn(w, r, "/oauth/disconnect")
	if !ok {
		return
	}
	if err := s.app.DisconnectApp(r.Context(), person, r.PostFormValue("grant_id")); err != nil {
		if core.ErrorCode(err) == core.CodeNotFound {
			s.errorPage(w, http.StatusNotFound, "That app is not connected to your account in this workspace.")
			return
		}
		s.log.ErrorContext(r.Context(), "oauth disconnect", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong; try again.")
		return
	}
	http.Redirect(w, r, "/oauth/disconnect", http.StatusSeeOther)
}

var connectedAppsPage = template.Must(template.New("apps").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Connected apps</title></head>
<body><main><h1>Connected apps</h1>
{{if not .}}<p>No app is connected to your account in this workspace.</p>{{end}}
<ul>{{range .}}
<li><strong>{{if .ClientName}}{{.ClientName}}{{else}}An unnamed app{{end}}</strong> ({{.ClientID}}) on {{.Resource}}:
{{range $i, $s := .Scopes}}{{if $i}}, {{end}}<code>{{$s}}</code>{{end}}; connected {{.ConsentedAt.Format "2006-01-02"}}, until {{.ExpiresAt.Format "2006-01-02"}} unless used.
<form method="post" action="/oauth/disconnect"><input type="hidden" name="grant_id" value="{{.GrantID}}"><button type="submit">Disconnect</button></form></li>{{end}}
</ul></main></body></html>
`))
