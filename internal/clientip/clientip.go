// Package clientip decides which address a request counts against where the
// service throttles by address (sign-in attempts, invitation acceptance,
// OAuth client registration). Behind a reverse proxy every connection comes
// from the proxy, so the operator can trust the proxy's X-Forwarded-For
// (giftwell serve --trust-forwarded-for); otherwise that header is ignored,
// since any client can send it.
package clientip

import (
	"net"
	"net/http"
	"strings"
)

// Address is the client's address: with trustForwardedFor the right-most
// X-Forwarded-For entry (the one the trusted proxy appended) when it is a
// valid IP, else the connection's host (r.RemoteAddr without its port).
func Address(r *http.Request, trustForwardedFor bool) string {
	if trustForwardedFor {
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

// ForwardedRemoteAddr returns middleware that sets r.RemoteAddr to the
// trusted forwarded address (Address with trustForwardedFor), keeping the
// port, for handlers that read r.RemoteAddr themselves. Mount it only when
// the proxy is trusted.
func ForwardedRemoteAddr(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ip := lastForwardedFor(r.Header.Values("X-Forwarded-For")); ip != "" {
			port := "0"
			if _, p, err := net.SplitHostPort(r.RemoteAddr); err == nil {
				port = p
			}
			r2 := r.Clone(r.Context())
			r2.RemoteAddr = net.JoinHostPort(ip, port)
			r = r2
		}
		next.ServeHTTP(w, r)
	})
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
