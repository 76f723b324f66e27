package web

import (
	"net/http"
	"net/url"
)

// contentSecurityPolicy allows only the site's own scripts, styles, images
// and form targets, and no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"

// securityHeaders sets the headers every web response carries. The referrer
// policy keeps invitation tokens in /invite/ URLs from leaking to other sites.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// crossOriginProtection refuses a state-changing request that a browser
// sends from another origin (by Sec-Fetch-Site, or Origin against Host),
// with 403 and a page saying so. The site's configured origin is trusted
// too, for a reverse proxy that rewrites Host.
func (h *handler) crossOriginProtection(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	if u, err := url.Parse(h.app.Config.SiteURL); err == nil && u.Scheme != "" && u.Host != "" {
		// A malformed site URL only loses the proxy case; same-origin
		// requests still pass by Sec-Fetch-Site or Host.
		_ = p.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.message(w, r, http.StatusForbidden, "Request refused",
			"This form was sent from another site, so nothing was changed. Open Giftwell directly and try again.")
	}))
	return p.Handler(next)
}
