package identity

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// InvitationLifetime is how long an invitation link works (Limits: 7 days).
const InvitationLifetime = 7 * 24 * time.Hour

// MaxInvitationsListed is how many invitations ListTeamInvitations returns
// (Limits: the latest 100).
const MaxInvitationsListed = 100

// InvitationState is where an invitation stands.
type InvitationState string

// The invitation states.
const (
	InvitationPending  InvitationState = "pending"
	InvitationAccepted InvitationState = "accepted"
	InvitationRevoked  InvitationState = "revoked"
	InvitationExpired  InvitationState = "expired"
)

// Invitation is an invitation to join a workspace.
type Invitation struct {
	ID    string          `json:"id" jsonschema:"the invitation's ID (inv_...)"`
	Email string          `json:"email" jsonschema:"the invited email address"`
	Role  core.Role       `json:"role" jsonschema:"the role the person gets on joining: admin or member" schema:"enum=admin|member"`
	State InvitationState `json:"state" jsonschema:"pending (the link works), accepted, revoked or expired" schema:"enum=pending|accepted|revoked|expired"`
	// InvitedBy is the inviter's user ID; InvitedByName their name.
	InvitedBy     string     `json:"invitedBy" jsonschema:"the user ID of the person who invited"`
	InvitedByName string     `json:"invitedByName" jsonschema:"the name of the person who invited"`
	CreatedAt     time.Time  `json:"createdAt" jsonschema:"when the invitation was created"`
	ExpiresAt     time.Time  `json:"expiresAt" jsonschema:"when the link stops working (7 days after creation)"`
	AcceptedAt    *time.Time `json:"acceptedAt,omitempty" jsonschema:"when the invitation was accepted"`
}

// InviteParams is whom to invite and with which role.
type InviteParams struct {
	Email string
	// Role is admin or member; inviting an admin needs the owner.
	Role core.Role
}

// InvitationCreated is a new invitation, with its link (shown only now).
// It marshals as {invitation, inviteUrl, emailQueued}.
type InvitationCreated struct {
	Invitation `json:"invitation"`
	// InviteURL is {site_url}/invite/<token>, shown only at creation.
	InviteURL string `json:"inviteUrl,omitempty"`
	// EmailQueued reports that the invitation email was queued in the
	// outbox; it says nothing about delivery.
	EmailQueued bool `json:"emailQueued"`
}

// InvitationView is what the invitation page shows before the person accepts.
type InvitationView struct {
	WorkspaceName string
	Email         string
	Role          core.Role
	InvitedByName string
	ExpiresAt     time.Time
	// AccountExists is true when the invited email already has an account:
	// the person then gives that account's password instead of a new one.
	AccountExists bool
}

// AcceptParams is what a person sends to accept an invitation.
type AcceptParams struct {
	// Token is the invitation token from the link.
	Token string
	// Email must be the invited email.
	Email string
	// Password is the existing account's password, or the new account's
	// (at least 8 characters).
	Password string
	// Name is the new account's name, 1-200 characters; ignored for an
	// existing account.
	Name string
	// ClientIP is the request's client address, for throttling.
	ClientIP string
}

// invitationState derives the state of an invitation at now.
func invitationState(now, expiresAt time.Time, acceptedAt, revokedAt *time.Time) InvitationState {
	switch {
	case acceptedAt != nil:
		return InvitationAccepted
	case revokedAt != nil && revokedAt.Before(expiresAt):
		return InvitationRevoked
	case !now.Before(expiresAt):
		return InvitationExpired
	case revokedAt != nil:
		return InvitationRevoked
	}
	return InvitationPending
}

// ListTeamInvitations returns the latest 100 invitations of p's workspace,
// newest first. It returns the codes of Authorize (ActReadInvitations: an
// owner or admin, signed in or by key; a member or a member's key gets
// TEAM_MANAGER_REQUIRED) or INTERNAL_ERROR.
func (a *Service) ListTeamInvitations(ctx context.Context, p core.Principal) ([]Invitation, error) {
	if err := core.Authorize(p, core.ActReadInvitations, a.Config.TeamURL()); err != nil {
		return nil, err
	}
	rows, err := db.New(a.DB).InvitationList(ctx, db.InvitationListParams{WorkspaceID: p.WorkspaceID, MaxRows: MaxInvitationsListed})
	if err != nil {
		return nil, core.Internal(err)
	}
	now := a.Clock.Now()
	out := make([]Invitation, 0, len(rows))
	for _, r := range rows {
		out = append(out, Invitation{
			ID: r.ID, Email: r.Email, Role: core.Role(r.Role), State: invitationState(now, r.ExpiresAt, r.AcceptedAt, r.RevokedAt),
			InvitedBy: r.InvitedBy, InvitedByName: r.InvitedByName, CreatedAt: core.UTC(r.CreatedAt), ExpiresAt: core.UTC(r.ExpiresAt), AcceptedAt: core.UTCPtr(r.AcceptedAt),
		})
	}
	return out, nil
}

// InviteTeamMember invites a person by email to p's workspace with a role.
// The invitation link ({site_url}/invite/<token>) works for 7 days, once,
// and only with the invited email. Inviting an email that already has an
// open invitation replaces it (the old link stops working). The invitation
// email is queued in the outbox in the same transaction.
//
// It returns the codes of Authorize (ActInviteOrRemove: a signed-in owner or
// admin; keys and connections get HUMAN_APPROVAL_REQUIRED with the team
// page), VALIDATION_ERROR naming email (malformed, or already a member) and
// role (not admin or member), a malformed email and a wrong role at once,
// TEAM_MANAGER_REQUIRED when an admin invites an
// admin, INVALID_REQUEST (409) when another invitation for the email was
// created at the same moment, or INTERNAL_ERROR.
func (a *Service) InviteTeamMember(ctx context.Context, p core.Principal, in InviteParams) (InvitationCreated, error) {
	if err := core.Authorize(p, core.ActInviteOrRemove, a.Config.TeamURL()); err != nil {
		return InvitationCreated{}, err
	}
	email := core.NormalizeEmail(in.Email)
	var pr core.Problems
	if problem := core.EmailProblem(email); problem != "" {
		pr.Add("email", "%s", problem)
	}
	if in.Role != core.RoleAdmin && in.Role != core.RoleMember {
		pr.Add("role", "must be admin or member, not %q", in.Role)
	}
	if err := pr.Err(); err != nil {
		return InvitationCreated{}, err
	}
	if in.Role == core.RoleAdmin && p.Role != core.RoleOwner {
		return InvitationCreated{}, core.Errorf(core.CodeTeamManagerRequired, "only the workspace owner can invite an admin")
	}
	token := core.RandomHex(sessionTokenBytes)
	now := a.Clock.Now()
	inv := Invitation{
		ID: core.NewID(core.PrefixInvite), Email: email, Role: in.Role, State: InvitationPending,
		InvitedBy: p.UserID, CreatedAt: now, ExpiresAt: now.Add(InvitationLifetime),
	}
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if _, err := q.TeamMemberGetByEmail(ctx, db.TeamMemberGetByEmailParams{WorkspaceID: p.WorkspaceID, Email: email}); err == nil {
			return core.Invalid("email", "%s is already a member of this workspace", email)
		} else if !core.IsNoRows(err) {
			return core.Internal(err)
		}
		inviter, err := q.UserGetByID(ctx, p.UserID)
		if err != nil {
			return core.Internal(err)
		}
		ws, err := q.WorkspaceGetByID(ctx, p.WorkspaceID)
		if err != nil {
			return core.Internal(err)
		}
		inv.InvitedByName = inviter.Name
		if err := q.InvitationRevokeOpenByEmail(ctx, db.InvitationRevokeOpenByEmailParams{Now: now, WorkspaceID: p.WorkspaceID, Email: email}); err != nil {
			return core.Internal(err)
		}
		err = q.InvitationInsert(ctx, db.InvitationInsertParams{
			ID: inv.ID, WorkspaceID: p.WorkspaceID, Email: email, Role: string(in.Role), Hash: hashToken(token),
			InvitedBy: p.UserID, CreatedAt: now, ExpiresAt: inv.ExpiresAt,
		})
		if _, dup := core.ViolatedUnique(err); dup {
			return core.Errorf(core.CodeInvalidRequestState, "another invitation for %s was created at the same moment; read the invitations again", email)
		}
		if err != nil {
			return core.Internal(err)
		}
		return a.queueEmail(ctx, tx, p.WorkspaceID, invitationEmail(email, inviter.Name, ws.Name, in.Role, a.Config.InviteURL(token), inv.ExpiresAt))
	})
	if err != nil {
		return InvitationCreated{}, core.AsCoreError(err)
	}
	return InvitationCreated{Invitation: inv, InviteURL: a.Config.InviteURL(token), EmailQueued: true}, nil
}

// invitationEmail is the message that carries an invitation link.
func invitationEmail(to, inviter, workspace string, role core.Role, link string, expires time.Time) Email {
	article := "a"
	if role == core.RoleAdmin {
		article = "an"
	}
	return Email{
		To:      to,
		Subject: fmt.Sprintf("%s invited you to %s on Giftwell", inviter, workspace),
		Text: fmt.Sprintf("%s invited you to join %s on Giftwell as %s %s.\n\n"+
			"Accept the invitation here:\n%s\n\n"+
			"The link works once, only for %s, until %s.\n"+
			"If you did not expect this invitation, ignore this email.\n",
			inviter, workspace, article, role, link, to, expires.UTC().Format("2 January 2006 15:04 MST")),
	}
}

// RevokeTeamInvitation revokes a pending invitation of p's workspace; its
// link stops working at once. An admin may revoke only invitations of
// members (like removing, revoking an admin's invitation needs the owner).
//
// It returns the codes of Authorize (ActInviteOrRemove), NOT_FOUND when
// the invitation is not in the workspace, TEAM_MANAGER_REQUIRED when an
// admin revokes an admin's invitation, INVALID_REQUEST (409) when the
// invitation was already accepted, revoked or has expired, or INTERNAL_ERROR.
func (a *Service) RevokeTeamInvitation(ctx context.Context, p core.Principal, id string) error {
	if err := core.Authorize(p, core.ActInviteOrRemove, a.Config.TeamURL()); err != nil {
		return err
	}
	return core.AsCoreError(pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		inv, err := q.InvitationLock(ctx, db.InvitationLockParams{WorkspaceID: p.WorkspaceID, ID: id})
		if core.IsNoRows(err) {
			return core.Errorf(core.CodeNotFound, "invitation %s is not in this workspace", id)
		}
		if err != nil {
			return core.Internal(err)
		}
		if core.Role(inv.Role) == core.RoleAdmin && p.Role != core.RoleOwner {
			return core.Errorf(core.CodeTeamManagerRequired, "only the workspace owner can revoke an admin's invitation")
		}
		now := a.Clock.Now()
		if st := invitationState(now, inv.ExpiresAt, inv.AcceptedAt, inv.RevokedAt); st != InvitationPending {
			return core.Errorf(core.CodeInvalidRequestState, "invitation %s is %s; only a pending invitation can be revoked", id, st)
		}
		if err := q.InvitationRevoke(ctx, db.InvitationRevokeParams{Now: now, ID: id}); err != nil {
			return core.Internal(err)
		}
		return nil
	}))
}

// InvitationByToken returns what the invitation page shows for the token of
// an invitation link. It returns NOT_FOUND for a malformed or unknown token,
// INVALID_REQUEST (409) with a message saying so for an invitation that was
// already used, was revoked or has expired, or INTERNAL_ERROR.
func (a *Service) InvitationByToken(ctx context.Context, token string) (InvitationView, error) {
	inv, err := a.openInvitation(ctx, token)
	if err != nil {
		return InvitationView{}, err
	}
	return InvitationView{
		WorkspaceName: inv.WorkspaceName, Email: inv.Email, Role: core.Role(inv.Role), InvitedByName: inv.InvitedByName,
		ExpiresAt: core.UTC(inv.ExpiresAt), AccountExists: inv.AccountExists,
	}, nil
}

// openInvitation finds the pending invitation of a token.
func (a *Service) openInvitation(ctx context.Context, token string) (db.InvitationGetByHashRow, error) {
	notFound := core.Errorf(core.CodeNotFound, "this invitation link is not valid; check that it was copied whole, or ask for a new invitation")
	if !isTokenFormat(token) {
		return db.InvitationGetByHashRow{}, notFound
	}
	inv, err := db.New(a.DB).InvitationGetByHash(ctx, hashToken(token))
	if core.IsNoRows(err) {
		return db.InvitationGetByHashRow{}, notFound
	}
	if err != nil {
		return db.InvitationGetByHashRow{}, core.Internal(err)
	}
	if err := invitationUsable(a.Clock.Now(), inv.ExpiresAt, inv.AcceptedAt, inv.RevokedAt); err != nil {
		return db.InvitationGetByHashRow{}, err
	}
	return inv, nil
}

// invitationUsable fails with INVALID_REQUEST (409) unless the invitation is pending.
func invitationUsable(now, expiresAt time.Time, acceptedAt, revokedAt *time.Time) error {
	switch invitationState(now, expiresAt, acceptedAt, revokedAt) {
	case InvitationAccepted:
		return core.Errorf(core.CodeInvalidRequestState, "this invitation was already used; sign in instead")
	case InvitationRevoked:
		return core.Errorf(core.CodeInvalidRequestState, "this invitation was withdrawn; ask the workspace's owner or an admin for a new one")
	case InvitationExpired:
		return core.Errorf(core.CodeInvalidRequestState, "this invitation expired on %s; ask the workspace's owner or an admin for a new one",
			expiresAt.UTC().Format("2 January 2006"))
	}
	return nil
}

// AcceptInvitation accepts the invitation of a token: the person joins the
// workspace with the invited role and a session starts there. An existing
// account must give its password (failures are throttled like sign-in); a
// new account is created with Name and Password. Accepting proves the email,
// which is then marked verified. An invitation is accepted at most once,
// even by concurrent requests.
//
// It returns NOT_FOUND or INVALID_REQUEST (409) as InvitationByToken does
// (also for the loser of a concurrent double accept); VALIDATION_ERROR
// naming email (not the invited address, or already a member), password
// (missing, or too short for a new account) and name (a new account's,
// missing or over 200 characters), every one at fault at once;
// AUTH_REQUIRED when an existing account's password is wrong; RATE_LIMIT
// after too many wrong passwords; or INTERNAL_ERROR.
func (a *Service) AcceptInvitation(ctx context.Context, p AcceptParams) (SignedIn, error) {
	inv, err := a.openInvitation(ctx, p.Token)
	if err != nil {
		return SignedIn{}, err
	}
	email := core.NormalizeEmail(p.Email)
	var pr core.Problems
	switch {
	case email == "":
		pr.Add("email", "is required")
	case email != inv.Email:
		pr.Add("email", "must be the address the invitation was sent to")
	}
	// The invited address decides which form the page shows (the account's
	// password, or a new account's name and password), so every field is
	// checked against it, whatever email was typed.
	existing, err := db.New(a.DB).UserGetByEmail(ctx, inv.Email)
	hasAccount := err == nil
	if err != nil && !core.IsNoRows(err) {
		return SignedIn{}, core.Internal(err)
	}
	name := strings.TrimSpace(p.Name)
	if hasAccount {
		if p.Password == "" {
			pr.Add("password", "is required: give the password of your existing account")
		}
	} else {
		for _, err := range []error{checkName("name", name), checkPassword("password", p.Password)} {
			if err != nil {
				pr.AddError(err)
			}
		}
	}
	if err := pr.Err(); err != nil {
		return SignedIn{}, err
	}
	var userID, passwordHash string
	if hasAccount {
		if _, err := a.reserveSignInAttempt(ctx, email, p.ClientIP); err != nil {
			return SignedIn{}, err
		}
		if !comparePassword([]byte(existing.PasswordHash), p.Password) {
			return SignedIn{}, a.AuthRequired(wrongCredentials)
		}
		if err := a.signInSucceeded(ctx, email); err != nil {
			return SignedIn{}, err
		}
		userID = existing.ID
	} else if passwordHash, err = hashPassword(p.Password); err != nil {
		return SignedIn{}, err
	}

	var out SignedIn
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		locked, err := q.InvitationLock(ctx, db.InvitationLockParams{WorkspaceID: inv.WorkspaceID, ID: inv.ID})
		if err != nil {
			return core.Internal(err)
		}
		now := a.Clock.Now()
		if err := invitationUsable(now, locked.ExpiresAt, locked.AcceptedAt, locked.RevokedAt); err != nil {
			return err
		}
		if userID == "" {
			if userID, err = a.insertUser(ctx, q, email, name, passwordHash, "email"); err != nil {
				return err
			}
		}
		err = q.MembershipInsert(ctx, db.MembershipInsertParams{WorkspaceID: inv.WorkspaceID, UserID: userID, Role: locked.Role, CreatedAt: now})
		if _, dup := core.ViolatedUnique(err); dup {
			return core.Invalid("email", "%s is already a member of this workspace; sign in instead", email)
		} else if err != nil {
			return core.Internal(err)
		}
		if err := q.InvitationMarkAccepted(ctx, db.InvitationMarkAcceptedParams{Now: now, AcceptedBy: &userID, ID: inv.ID}); err != nil {
			return core.Internal(err)
		}
		if err := q.UserMarkEmailVerified(ctx, db.UserMarkEmailVerifiedParams{Now: now, ID: userID}); err != nil {
			return core.Internal(err)
		}
		out, err = a.startSession(ctx, tx, userID, inv.WorkspaceID)
		return err
	})
	if err != nil {
		return SignedIn{}, core.AsCoreError(err)
	}
	return out, nil
}
