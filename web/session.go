package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// session is the signed-in person a page acts for: the principal their
// cookie resolves to, and the cookie's token (for sign-out and switching).
type session struct {
	core.Principal
	Token string
}

// sessionHandler is a page that needs a signed-in person.
type sessionHandler func(w http.ResponseWriter, r *http.Request, s session)

// signedIn resolves the session cookie and runs page with it. Without a
// valid session, the person is sent to /login with the page as next (a
// GET's own path and query; after a POST, the page the form was on is
// unknown, so home). A stale cookie is cleared on the way. The page counts
// against the workspace's requests limit, in the session's own statement:
// over it, the page is 429 with Retry-After.
func (h *handler) signedIn(page sessionHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := sessionToken(r)
		if token == "" {
			h.toLogin(w, r)
			return
		}
		charge := &core.RateCharge{Bucket: core.RateRequests}
		p, err := h.app.Identity.AuthenticateSession(core.WithRateCharge(r.Context(), charge), token)
		charge.SetHeaders(w.Header())
		if err != nil {
			if core.ErrorCode(err) == core.CodeAuthRequired {
				h.clearSessionCookie(w)
				h.toLogin(w, r)
				return
			}
			h.fail(w, r, nil, err)
			return
		}
		page(w, r, session{Principal: p, Token: token})
	})
}

// toLogin redirects to the sign-in page, keeping a GET's path as next.
func (h *handler) toLogin(w http.ResponseWriter, r *http.Request) {
	target := "/login"
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if next := r.URL.RequestURI(); next != "/" {
			target += "?next=" + url.QueryEscape(next)
		}
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// sessionToken is the session cookie's value, or "".
func sessionToken(r *http.Request) string {
	c, err := r.Cookie(identity.SessionCookieName)
	if err != nil {
		return ""
	}
	return c.Value
}

// setSessionCookie stores a new session in the browser until it expires.
func (h *handler) setSessionCookie(w http.ResponseWriter, s identity.SignedIn) {
	http.SetCookie(w, &http.Cookie{
		Name:     identity.SessionCookieName,
		Value:    s.Token,
		Path:     "/",
		Expires:  s.ExpiresAt.UTC(),
		HttpOnly: true,
		Secure:   h.secureCookies,
		SameSite: http.SameSiteLaxMode,
	})
}

// clearSessionCookie removes the session cookie from the browser.
func (h *handler) clearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{
		Name:     identity.SessionCookieName,
		Value:    "",
		Path:     "/",
		Expires:  time.Unix(0, 0),
		MaxAge:   -1,
		HttpOnly: true,
		Secure:   h.secureCookies,
		SameSite: http.SameSiteLaxMode,
	})
}
