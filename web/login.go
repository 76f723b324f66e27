package web

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// loginData is the content of the sign-in page.
type loginData struct {
	// Next is the local path to go to after signing in.
	Next string
}

// loginFields are the sign-in form's fields.
var loginFields = []string{"email", "password"}

// loginPage shows the sign-in form. A person already signed in goes straight
// on to next; while their session cannot be looked up, they get the
// briefly-unavailable page.
func (h *handler) loginPage(w http.ResponseWriter, r *http.Request) {
	next := localPath(r.URL.Query().Get("next"))
	if token := sessionToken(r); token != "" {
		_, err := h.app.Identity.AuthenticateSession(r.Context(), token)
		if err == nil {
			http.Redirect(w, r, next, http.StatusSeeOther)
			return
		}
		if core.Unavailable(err) {
			// The session may well be live: say so rather than ask to sign in.
			h.fail(w, r, nil, err)
			return
		}
	}
	h.render(w, r, http.StatusOK, "login", view{Data: loginData{Next: next}})
}

// login signs a person in: on success the session cookie is set and the
// browser goes to next (303); wrong credentials show the form again with 401,
// throttling with 429 and the time to wait.
func (h *handler) login(w http.ResponseWriter, r *http.Request) {
	if !h.parseForm(w, r) {
		return
	}
	next := localPath(r.PostForm.Get("next"))
	signed, err := h.app.Identity.SignIn(r.Context(), identity.SignInParams{
		Email:    r.PostForm.Get("email"),
		Password: r.PostForm.Get("password"),
		ClientIP: h.clientIP(r),
	})
	if err != nil {
		p := h.problemFor(r, err, loginFields...)
		p.writeRetryAfter(w)
		h.render(w, r, p.Status, "login", view{
			Problem: p,
			Values:  url.Values{"email": {r.PostForm.Get("email")}},
			Data:    loginData{Next: next},
		})
		return
	}
	h.setSessionCookie(w, signed)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// logout ends the session and clears the cookie, then shows the sign-in page.
func (h *handler) logout(w http.ResponseWriter, r *http.Request) {
	if token := sessionToken(r); token != "" {
		if err := h.app.Identity.SignOut(r.Context(), token); err != nil && core.ErrorCode(err) != core.CodeAuthRequired {
			h.fail(w, r, nil, err)
			return
		}
	}
	h.clearSessionCookie(w)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}
