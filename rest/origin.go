package rest

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// checkOrigin refuses a request whose Origin header, when a browser sends
// one, is not the site's own origin: 403 ORIGIN_FORBIDDEN.
func (s *server) checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, o := range r.Header.Values("Origin") {
			if s.origin == "" || normalizeOrigin(o) != s.origin {
				s.fail(w, r, core.Errorf(core.CodeOriginForbidden, "the Origin header must be this service's site origin %s", s.origin))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// normalizeOrigin reduces a URL or origin to scheme://host[:port], lower
// case, without a default port; "" when it is not a usable origin (for
// example "null").
func normalizeOrigin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.Opaque != "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host
}
