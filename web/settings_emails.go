package web

import (
	"net/http"

	"github.com/giftwell/giftwell/core/notify"
)

// emailsField is the settings page's field of the kinds of email a person
// gets (checkboxes, one per kind).
const emailsField = "kinds"

// emailChoice is one checkbox of the emails form.
type emailChoice struct {
	Kind        notify.Kind
	Label, Hint string
}

// emailChoices are the emails form's checkboxes, in order.
func emailChoices() []emailChoice {
	out := make([]emailChoice, 0, len(notify.Kinds()))
	for _, k := range notify.Kinds() {
		out = append(out, emailChoice{Kind: k, Label: k.Label(), Hint: k.Hint()})
	}
	return out
}

// saveEmails saves which emails the signed-in person gets: the kinds
// checked on, every other kind off.
func (h *handler) saveEmails(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	var on []notify.Kind
	for _, k := range r.PostForm[emailsField] {
		on = append(on, notify.Kind(k))
	}
	if _, err := h.app.Notify.SetChoices(r.Context(), s.Principal, on); err != nil {
		p := h.problemFor(r, err, emailsField)
		v, lerr := h.settingsView(r.Context(), s)
		if lerr != nil {
			h.fail(w, r, &s, lerr)
			return
		}
		v.Problem = p
		v.Values[emailsField] = r.PostForm[emailsField]
		p.writeRetryAfter(w)
		h.page(w, r, s, p.Status, "settings", v)
		return
	}
	http.Redirect(w, r, "/settings?done=emails-saved#emails", http.StatusSeeOther)
}
