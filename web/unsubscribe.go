package web

import "net/http"

// unsubscribeData is the content of the unsubscribe page.
type unsubscribeData struct {
	// Label names the kind of email the link stops.
	Label string
	// Token is the link's token, for the form's action.
	Token string
	// Done is true once the kind is off.
	Done bool
}

// unsubscribePage asks, signed out, whether to stop the one kind of email
// the link names, with one button. Opening the link changes nothing (mail
// scanners open links); the button, or a mail client's one-click POST
// (RFC 8058), does.
func (h *handler) unsubscribePage(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	u, err := h.app.Notify.ReadUnsubscribe(token)
	if err != nil {
		h.unsubscribeFailed(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "unsubscribe", view{Data: unsubscribeData{Label: u.Kind.Label(), Token: token}})
}

// unsubscribe turns the link's kind of email off: the confirm page's
// button and the one-click POST of RFC 8058 (body
// List-Unsubscribe=One-Click) alike.
func (h *handler) unsubscribe(w http.ResponseWriter, r *http.Request) {
	if !h.parseForm(w, r) {
		return
	}
	token := r.PathValue("token")
	u, err := h.app.Notify.Unsubscribed(r.Context(), token)
	if err != nil {
		h.unsubscribeFailed(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "unsubscribe", view{Data: unsubscribeData{Label: u.Kind.Label(), Token: token, Done: true}})
}

// unsubscribeFailed explains a link that cannot be used.
func (h *handler) unsubscribeFailed(w http.ResponseWriter, r *http.Request, err error) {
	p := h.problemFor(r, err)
	title := "This link cannot be used"
	if p.Status >= http.StatusInternalServerError {
		title = titleFor(p.Status)
	}
	p.writeRetryAfter(w)
	h.render(w, r, p.Status, "message", view{Data: messageData{Title: title, Text: p.Message}})
}
