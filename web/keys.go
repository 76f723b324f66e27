package web

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// keysData is the content of the API keys page.
type keysData struct {
	Keys []keyRow
	// Created is the key just made, shown once; nil on every other visit.
	Created *identity.CreatedAPIKey
	// CanCreate is false where keys cannot be made (a demo workspace).
	CanCreate bool
	// MCPURL and APIBaseURL are where a new key is used.
	MCPURL, APIBaseURL string
}

// keyRow is a live key; a member may revoke only their own (display only;
// core decides).
type keyRow struct {
	identity.APIKeyInfo
	CanRevoke bool
}

// keyFields are the create form's fields.
var keyFields = []string{"name"}

// keys lists the workspace's API keys.
func (h *handler) keys(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "keys", h.keysView)
}

func (h *handler) keysView(ctx context.Context, s session) (view, error) {
	list, err := h.app.Identity.ListAPIKeys(ctx, s.Principal)
	if err != nil {
		return view{}, err
	}
	rows := make([]keyRow, 0, len(list))
	for _, k := range list {
		rows = append(rows, keyRow{APIKeyInfo: k, CanRevoke: s.Role.Manager() || k.CreatedByUserID == s.UserID})
	}
	cfg := h.app.Config
	return view{Nav: "keys", Data: &keysData{
		Keys:      rows,
		CanCreate: core.Authorize(s.Principal, core.ActCreateAPIKey, "") == nil,
		MCPURL:    cfg.MCPURL(), APIBaseURL: cfg.BaseURL(),
	}}, nil
}

// createKey makes a key named by the form and shows it once, in this
// response only: it is never stored in clear, put in a URL or a cookie.
func (h *handler) createKey(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	created, err := h.app.Identity.CreateAPIKeyFor(r.Context(), s.Principal, r.PostForm.Get("name"))
	if err != nil {
		h.formFailed(w, r, s, "keys", h.keysView, err, keyFields...)
		return
	}
	v, err := h.keysView(r.Context(), s)
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	v.Data.(*keysData).Created = &created
	h.page(w, r, s, http.StatusOK, "keys", v)
}

// revokeKey revokes the key in the path and lists the keys again.
func (h *handler) revokeKey(w http.ResponseWriter, r *http.Request, s session) {
	if err := h.app.Identity.RevokeAPIKeyFor(r.Context(), s.Principal, r.PathValue("id")); err != nil {
		h.formFailed(w, r, s, "keys", h.keysView, err)
		return
	}
	http.Redirect(w, r, "/settings/keys?done=key-revoked", http.StatusSeeOther)
}
