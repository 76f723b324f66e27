package mcp

import (
	"net/http"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// scopesCover refuses, before any tool runs, a connection calling a tool of
// its profile that its granted scopes do not cover: HTTP 403
// INSUFFICIENT_SCOPE with a challenge naming the missing scope, so that the
// client can step up its grant. Which tools a connection sees is the
// registry's rule (Tool.InProfile, Tool.Visible); this only applies it.
// Tools outside the profile fall through to the SDK's unknown-tool error.
func (h *handler) scopesCover(w *responseWriter, r *http.Request, m mount, pr tools.Profile, p core.Principal, msgs []message) bool {
	if p.Via != core.ViaConnection {
		return true
	}
	for _, msg := range msgs {
		if msg.method != "tools/call" {
			continue
		}
		t, ok := h.byName[msg.name]
		if ok && t.InProfile(pr) && !t.Visible(pr, p) {
			h.refuseScope(w, r, m, t.Scope.OAuth())
			return false
		}
	}
	return true
}
