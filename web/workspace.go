package web

import "net/http"

// switchWorkspace moves the session to another of the person's workspaces
// (form field workspace) and goes home.
func (h *handler) switchWorkspace(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	if err := h.app.Identity.SwitchWorkspace(r.Context(), s.Token, r.PostForm.Get("workspace")); err != nil {
		h.formFailed(w, r, s, "home", h.homeView, err)
		return
	}
	http.Redirect(w, r, "/?done=switched", http.StatusSeeOther)
}
