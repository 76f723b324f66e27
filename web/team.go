package web

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// teamData is the content of the team page.
type teamData struct {
	Members []memberRow
	// Invitations are the pending invitations; owners and admins only.
	Invitations []invitationRow
	// CanInvite shows the invite form and the invitations (owner or admin).
	CanInvite bool
	// CanInviteAdmin offers the admin role in the invite form (the owner).
	CanInviteAdmin bool
	// Invited is the invitation just made, with its link shown once.
	Invited *identity.InvitationCreated
}

// memberRow is a teammate with the actions the viewer is offered. The
// offer mirrors the role matrix for display only; core decides every action.
type memberRow struct {
	identity.TeamMember
	CanChangeRole bool
	CanRemove     bool
	IsYou         bool
}

// invitationRow is a pending invitation; only the owner may revoke an
// admin's (display only; core decides).
type invitationRow struct {
	identity.Invitation
	CanRevoke bool
}

// inviteFields are the invite form's fields.
var inviteFields = []string{"email", "role"}

// team lists the members and, for owners and admins, the pending invitations.
func (h *handler) team(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "team", h.teamView)
}

func (h *handler) teamView(ctx context.Context, s session) (view, error) {
	members, err := h.app.Identity.ListTeamMembers(ctx, s.Principal)
	if err != nil {
		return view{}, err
	}
	d := &teamData{
		CanInvite:      core.Authorize(s.Principal, core.ActInviteOrRemove, "") == nil,
		CanInviteAdmin: core.Authorize(s.Principal, core.ActChangeRole, "") == nil,
	}
	for _, m := range members {
		row := memberRow{TeamMember: m, IsYou: m.UserID == s.UserID}
		if m.Role != core.RoleOwner && !row.IsYou {
			row.CanChangeRole = d.CanInviteAdmin
			// Admins remove members only; the owner removes admins too.
			row.CanRemove = d.CanInvite && (m.Role == core.RoleMember || s.Role == core.RoleOwner)
		}
		d.Members = append(d.Members, row)
	}
	if d.CanInvite {
		all, err := h.app.Identity.ListTeamInvitations(ctx, s.Principal)
		if err != nil {
			return view{}, err
		}
		for _, inv := range all {
			if inv.State == identity.InvitationPending {
				d.Invitations = append(d.Invitations, invitationRow{
					Invitation: inv,
					CanRevoke:  inv.Role == core.RoleMember || s.Role == core.RoleOwner,
				})
			}
		}
	}
	return view{Nav: "team", Data: d}, nil
}

// invite invites the form's email with the form's role and shows the
// invitation link once, in this response only.
func (h *handler) invite(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	created, err := h.app.Identity.InviteTeamMember(r.Context(), s.Principal, identity.InviteParams{
		Email: r.PostForm.Get("email"),
		Role:  core.Role(r.PostForm.Get("role")),
	})
	if err != nil {
		h.formFailed(w, r, s, "team", h.teamView, err, inviteFields...)
		return
	}
	v, err := h.teamView(r.Context(), s)
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	v.Data.(*teamData).Invited = &created
	h.page(w, r, s, http.StatusOK, "team", v)
}

// revokeInvitation revokes the pending invitation in the path.
func (h *handler) revokeInvitation(w http.ResponseWriter, r *http.Request, s session) {
	if err := h.app.Identity.RevokeTeamInvitation(r.Context(), s.Principal, r.PathValue("id")); err != nil {
		h.formFailed(w, r, s, "team", h.teamView, err)
		return
	}
	http.Redirect(w, r, "/team?done=invitation-revoked", http.StatusSeeOther)
}

// changeRole gives the member in the path the form's role (owner only).
func (h *handler) changeRole(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	if _, err := h.app.Identity.UpdateTeamMember(r.Context(), s.Principal, r.PathValue("userID"), core.Role(r.PostForm.Get("role"))); err != nil {
		h.formFailed(w, r, s, "team", h.teamView, err)
		return
	}
	http.Redirect(w, r, "/team?done=role-changed", http.StatusSeeOther)
}

// removeMember takes the member in the path out of the workspace; their
// keys and sessions end with it.
func (h *handler) removeMember(w http.ResponseWriter, r *http.Request, s session) {
	if err := h.app.Identity.RemoveTeamMember(r.Context(), s.Principal, r.PathValue("userID")); err != nil {
		h.formFailed(w, r, s, "team", h.teamView, err)
		return
	}
	http.Redirect(w, r, "/team?done=member-removed", http.StatusSeeOther)
}
