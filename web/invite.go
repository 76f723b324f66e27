package web

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// invitationData is the content of the invitation page.
type invitationData struct {
	Invitation identity.InvitationView
	Token      string
}

// acceptFields are the acceptance form's fields.
var acceptFields = []string{"email", "name", "password"}

// invitationPage shows who invites the person to which workspace, with the
// form to accept. An expired, used or revoked invitation gets a message.
func (h *handler) invitationPage(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	inv, err := h.app.Identity.InvitationByToken(r.Context(), token)
	if err != nil {
		h.invitationFailed(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, "invite", view{
		Values: url.Values{"email": {inv.Email}},
		Data:   invitationData{Invitation: inv, Token: token},
	})
}

// acceptInvitation joins the person to the workspace (creating their account
// unless it exists), signs them in and goes home. A previous session in the
// same browser ends.
func (h *handler) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	if !h.parseForm(w, r) {
		return
	}
	token := r.PathValue("token")
	signed, err := h.app.Identity.AcceptInvitation(r.Context(), identity.AcceptParams{
		Token:    token,
		Email:    r.PostForm.Get("email"),
		Password: r.PostForm.Get("password"),
		Name:     r.PostForm.Get("name"),
		ClientIP: h.clientIP(r),
	})
	if err != nil {
		inv, ierr := h.app.Identity.InvitationByToken(r.Context(), token)
		if ierr != nil {
			h.invitationFailed(w, r, ierr)
			return
		}
		p := h.problemFor(r, err, acceptFields...)
		p.writeRetryAfter(w)
		h.render(w, r, p.Status, "invite", view{
			Problem: p,
			Values:  url.Values{"email": {r.PostForm.Get("email")}, "name": {r.PostForm.Get("name")}},
			Data:    invitationData{Invitation: inv, Token: token},
		})
		return
	}
	if old := sessionToken(r); old != "" {
		// Best effort: the new cookie replaces the old one anyway.
		if err := h.app.Identity.SignOut(r.Context(), old); err != nil && core.ErrorCode(err) != core.CodeAuthRequired {
			h.log.WarnContext(r.Context(), "web: ending the previous session failed", "err", err)
		}
	}
	h.setSessionCookie(w, signed)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// invitationFailed explains an invitation that cannot be accepted.
func (h *handler) invitationFailed(w http.ResponseWriter, r *http.Request, err error) {
	p := h.problemFor(r, err)
	title := "This invitation cannot be used"
	if p.Status >= http.StatusInternalServerError {
		title = titleFor(p.Status)
	}
	p.writeRetryAfter(w)
	h.render(w, r, p.Status, "message", view{Data: messageData{Title: title, Text: p.Message}})
}
