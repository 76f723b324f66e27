package web

import (
	"net/http"

	"github.com/giftwell/giftwell/internal/clientip"
)

// clientIP is the address sign-in throttling counts against: the
// connection's host, or with TrustForwardedFor the right-most
// X-Forwarded-For entry (the one the trusted proxy appended).
func (h *handler) clientIP(r *http.Request) string {
	return clientip.Address(r, h.trustForwardedFor)
}
