package mcp

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
)

// principal authenticates the request's bearer token before the SDK sees
// anything, then asks core whether the principal may use this endpoint
// (core.Config.AuthorizeMCPEndpoint). A missing, malformed, unknown or
// revoked token, a connection bound to the other endpoint (RFC 8707
// resource) and a workspace key on the assistant endpoint are 401
// AUTH_REQUIRED with a WWW-Authenticate challenge naming the endpoint's
// protected-resource metadata; a connection without the endpoint's scope is
// 403 INSUFFICIENT_SCOPE. Authentication counts the request against the
// workspace's rate limit (charge) in its own statement: over it, 429
// RATE_LIMIT. It writes the refusal and returns false, or returns the
// principal.
func (h *handler) principal(w http.ResponseWriter, r *http.Request, m mount, charge *core.RateCharge) (core.Principal, bool) {
	p, err := h.authenticate(core.WithRateCharge(r.Context(), charge), bearerToken(r.Header.Get("Authorization")))
	charge.SetHeaders(w.Header())
	if err != nil {
		h.refuse(w, r, err, h.challenge(m, err))
		return core.Principal{}, false
	}
	missing, err := connect.AuthorizeMCPEndpoint(h.app.Config, p, h.app.Config.SiteURL+m.path)
	if missing != "" {
		h.refuseScope(w, r, m, missing)
		return core.Principal{}, false
	}
	if err != nil {
		h.refuse(w, r, err, h.challenge(m, err))
		return core.Principal{}, false
	}
	return p, true
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header, or "" when there is none (which authenticates as nobody).
func bearerToken(header string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// challenge is the WWW-Authenticate value for a 401 (RFC 6750, RFC 9728
// §5.1), or "" for any other refusal.
func (h *handler) challenge(m mount, err error) string {
	if core.ErrorCode(err) != core.CodeAuthRequired {
		return ""
	}
	return fmt.Sprintf("Bearer resource_metadata=%q", m.resourceMetadataURL(h.app.Config.SiteURL))
}

// refuseScope writes 403 INSUFFICIENT_SCOPE with the RFC 6750 challenge
// naming the scope the connection lacks.
func (h *handler) refuseScope(w http.ResponseWriter, r *http.Request, m mount, s core.Scope) {
	h.refuse(w, r, connect.InsufficientScope(s), fmt.Sprintf("Bearer error=\"insufficient_scope\", scope=%q, resource_metadata=%q",
		string(s), m.resourceMetadataURL(h.app.Config.SiteURL)))
}
