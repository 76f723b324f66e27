package tools

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// ListTeamMembersInput is list_team_members' input: nothing.
type ListTeamMembersInput struct{}

// ListTeamInvitationsInput is list_team_invitations' input: nothing.
type ListTeamInvitationsInput struct{}

// InviteTeamMemberInput is invite_team_member's input.
type InviteTeamMemberInput struct {
	Email string    `json:"email" jsonschema:"the person's email address; the invitation works only for it" schema:"minLength=3,maxLength=254"`
	Role  core.Role `json:"role" jsonschema:"the role on joining: member, or admin (only the owner may invite an admin)" schema:"enum=admin|member"`
}

// InviteTeamMemberOutput is invite_team_member's result, the spec's
// {invitation, inviteUrl, emailQueued}. inviteUrl is shown only to the
// signed-in person who invited.
type InviteTeamMemberOutput struct {
	Invitation  identity.Invitation `json:"invitation" jsonschema:"the new invitation"`
	InviteURL   string              `json:"inviteUrl,omitempty" jsonschema:"the invitation link, shown only now and only to the signed-in person who invited"`
	EmailQueued bool                `json:"emailQueued" jsonschema:"the invitation email was queued; this says nothing about delivery"`
}

// RevokeTeamInvitationInput is revoke_team_invitation's input.
type RevokeTeamInvitationInput struct {
	ID string `json:"id" jsonschema:"the invitation's ID (inv_...) from list_team_invitations" schema:"minLength=1,maxLength=100"`
}

// InvitationRevoked is revoke_team_invitation's result.
type InvitationRevoked struct {
	ID    string                   `json:"id" jsonschema:"the revoked invitation's ID"`
	State identity.InvitationState `json:"state" jsonschema:"always revoked" schema:"enum=revoked"`
}

// UpdateTeamMemberInput is update_team_member's input.
type UpdateTeamMemberInput struct {
	UserID string    `json:"userId" jsonschema:"the person's user ID from list_team_members" schema:"minLength=1,maxLength=100"`
	Role   core.Role `json:"role" jsonschema:"the new role: admin or member (the owner's role never changes)" schema:"enum=admin|member"`
}

// RemoveTeamMemberInput is remove_team_member's input.
type RemoveTeamMemberInput struct {
	UserID string `json:"userId" jsonschema:"the person's user ID from list_team_members" schema:"minLength=1,maxLength=100"`
}

// MemberRemoved is remove_team_member's result.
type MemberRemoved struct {
	UserID  string `json:"userId" jsonschema:"the removed person's user ID"`
	Removed bool   `json:"removed" jsonschema:"always true: the person, their keys and their sessions in the workspace are gone"`
}

const descListTeamMembers = "List the people of the workspace: userId, email, name, role (owner, admin or member) and joinedAt, in the order they joined. " +
	"Use it to tell the user who can approve (owners and admins) or to find a userId. It changes nothing."

const descListTeamInvitations = "List the workspace's latest 100 invitations, newest first, each with its state (pending, accepted, revoked or expired), " +
	"role, email, who invited and when it expires. Only an owner's or admin's key may read them; a member's key gets TEAM_MANAGER_REQUIRED. It changes nothing."

const descInviteTeamMember = "Invite a person to the workspace by email with the role member or admin. Only a signed-in owner or admin can invite " +
	"(only the owner can invite an admin); a key gets HUMAN_APPROVAL_REQUIRED with the team page's url: hand it to a person and stop. " +
	"The link works for 7 days, once, and only for the invited email; inviting the same email again replaces the pending invitation."

const descRevokeTeamInvitation = "Withdraw a pending invitation so that its link stops working. Only a signed-in owner or admin can; revoking an admin's " +
	"invitation needs the owner. An accepted, revoked or expired invitation gives 409 INVALID_REQUEST. Keys get HUMAN_APPROVAL_REQUIRED with the team page's url."

const descUpdateTeamMember = "Change a teammate's role to admin or member. Only the signed-in owner can; the owner's own role never changes (409 INVALID_REQUEST). " +
	"The person's keys follow the new role at once. Keys get HUMAN_APPROVAL_REQUIRED with the team page's url."

const descRemoveTeamMember = "Remove a person from the workspace; their API keys in it are revoked and their sign-in sessions there end at once. " +
	"Only a signed-in owner or admin can; the owner cannot be removed, and removing an admin needs the owner. Keys get HUMAN_APPROVAL_REQUIRED with the team page's url."

// teamTools are the team tools, in TOOLS.md's order.
func teamTools(app *giftwell.App) []Tool {
	teamPage := func(json.RawMessage) string { return app.Config.TeamURL() }
	return []Tool{
		Define("list_team_members", descListTeamMembers, ScopeDash, core.ActListTeammates,
			func(ctx context.Context, p core.Principal, _ ListTeamMembersInput) ([]identity.TeamMember, error) {
				return app.Identity.ListTeamMembers(ctx, p)
			},
			Title("List team members"), ReadOnly(), PersonURL(teamPage), REST(http.MethodGet, "/team/members", http.StatusOK)),
		Define("list_team_invitations", descListTeamInvitations, ScopeDash, core.ActReadInvitations,
			func(ctx context.Context, p core.Principal, _ ListTeamInvitationsInput) ([]identity.Invitation, error) {
				return app.Identity.ListTeamInvitations(ctx, p)
			},
			Title("List team invitations"), ReadOnly(), PersonURL(teamPage), REST(http.MethodGet, "/team/invitations", http.StatusOK)),
		Define("invite_team_member", descInviteTeamMember, ScopeSignedIn, core.ActInviteOrRemove,
			func(ctx context.Context, p core.Principal, in InviteTeamMemberInput) (InviteTeamMemberOutput, error) {
				created, err := app.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: in.Email, Role: in.Role})
				if err != nil {
					return InviteTeamMemberOutput{}, err
				}
				out := InviteTeamMemberOutput{Invitation: created.Invitation, InviteURL: created.InviteURL, EmailQueued: created.EmailQueued}
				if p.Via != core.ViaSession {
					out.InviteURL = "" // keys never see the link
				}
				return out, nil
			},
			Title("Invite a teammate"), OpenWorld(), PersonURL(teamPage), REST(http.MethodPost, "/team/invitations", http.StatusCreated)),
		Define("revoke_team_invitation", descRevokeTeamInvitation, ScopeSignedIn, core.ActInviteOrRemove,
			func(ctx context.Context, p core.Principal, in RevokeTeamInvitationInput) (InvitationRevoked, error) {
				if err := app.Identity.RevokeTeamInvitation(ctx, p, in.ID); err != nil {
					return InvitationRevoked{}, err
				}
				return InvitationRevoked{ID: in.ID, State: identity.InvitationRevoked}, nil
			},
			Title("Revoke an invitation"), Destructive(), PersonURL(teamPage), REST(http.MethodDelete, "/team/invitations/{id}", http.StatusOK)),
		Define("update_team_member", descUpdateTeamMember, ScopeSignedIn, core.ActChangeRole,
			func(ctx context.Context, p core.Principal, in UpdateTeamMemberInput) (identity.TeamMember, error) {
				return app.Identity.UpdateTeamMember(ctx, p, in.UserID, in.Role)
			},
			Title("Change a teammate's role"), Idempotent(), PersonURL(teamPage), REST(http.MethodPatch, "/team/members/{userId}", http.StatusOK)),
		Define("remove_team_member", descRemoveTeamMember, ScopeSignedIn, core.ActInviteOrRemove,
			func(ctx context.Context, p core.Principal, in RemoveTeamMemberInput) (MemberRemoved, error) {
				if err := app.Identity.RemoveTeamMember(ctx, p, in.UserID); err != nil {
					return MemberRemoved{}, err
				}
				return MemberRemoved{UserID: in.UserID, Removed: true}, nil
			},
			Title("Remove a teammate"), Destructive(), PersonURL(teamPage), REST(http.MethodDelete, "/team/members/{userId}", http.StatusOK)),
	}
}
