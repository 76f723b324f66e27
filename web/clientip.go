package web

import (
	"net"
	"net/http"
	"strings"
)

// clientIP is the address sign-in throttling counts against: the
// connection's host, or with TrustForwardedFor the right-most
// X-Forwarded-For entry (the one the trusted proxy appended).
func (h *handler) clientIP(r *http.Request) string {
	if h.trustForwardedFor {
		if ip := lastForwardedFor(r.Header.Values("X-Forwarded-For")); ip != "" {
			return ip
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// lastForwardedFor returns the last valid IP address of the X-Forwarded-For
// headers, or "".
func lastForwardedFor(values []string) string {
	if len(values) == 0 {
		return ""
	}
	parts := strings.Split(values[len(values)-1], ",")
	ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1]))
	if ip == nil {
		return ""
	}
	return ip.String()
}
