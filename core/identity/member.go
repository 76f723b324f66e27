package identity

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// AddMemberParams describes a person joining a workspace.
type AddMemberParams struct {
	WorkspaceID string
	// Email is the person's sign-in email; stored trimmed and lowercased. An
	// existing account is reused when Password is its password.
	Email string
	// Password is the person's password, at least 8 characters.
	Password string
	// Name is the person's display name; empty means the email's local part.
	Name string
	// Role is admin or member; a workspace has exactly one owner.
	Role core.Role
	// WithKey also creates an API key acting as the person.
	WithKey bool
}

// AddedMember is what AddMember made.
type AddedMember struct {
	UserID string
	// APIKey is the person's new key, shown only now; empty unless WithKey.
	APIKey string
}

// AddMember adds a person to a workspace with a role, creating their account
// when the email is new, and with WithKey an API key acting as them. It
// returns VALIDATION_ERROR naming email (bad shape, already a member, or an
// existing account whose password differs), password, name or role;
// NOT_FOUND when the workspace does not exist; or INTERNAL_ERROR.
func (a *Service) AddMember(ctx context.Context, p AddMemberParams) (AddedMember, error) {
	var out AddedMember
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		out, err = a.addMember(ctx, tx, p)
		return err
	})
	if err != nil {
		return AddedMember{}, core.AsCoreError(err)
	}
	return out, nil
}

func (a *Service) addMember(ctx context.Context, tx pgx.Tx, p AddMemberParams) (AddedMember, error) {
	person, err := checkPerson("email", p.Email, "password", p.Password, "name", p.Name)
	if err != nil {
		return AddedMember{}, err
	}
	if p.Role != core.RoleAdmin && p.Role != core.RoleMember {
		return AddedMember{}, core.Invalid("role", "must be admin or member, not %q", p.Role)
	}
	q := db.New(tx)
	if _, err := q.WorkspaceGetByID(ctx, p.WorkspaceID); core.IsNoRows(err) {
		return AddedMember{}, core.Errorf(core.CodeNotFound, "workspace %s does not exist", p.WorkspaceID)
	} else if err != nil {
		return AddedMember{}, core.Internal(err)
	}
	var out AddedMember
	if out.UserID, err = a.findOrCreateUser(ctx, tx, person); err != nil {
		return AddedMember{}, err
	}
	err = q.MembershipInsert(ctx, db.MembershipInsertParams{
		WorkspaceID: p.WorkspaceID, UserID: out.UserID, Role: string(p.Role), CreatedAt: a.Clock.Now(),
	})
	if _, dup := core.ViolatedUnique(err); dup {
		return AddedMember{}, core.Invalid("email", "%s is already a member of this workspace", person.email)
	} else if err != nil {
		return AddedMember{}, core.Internal(err)
	}
	if p.WithKey {
		if out.APIKey, _, err = a.createAPIKey(ctx, tx, p.WorkspaceID, out.UserID, DefaultKeyName); err != nil {
			return AddedMember{}, err
		}
	}
	return out, nil
}

// ChangeMemberRole sets a member's role to admin or member. Their keys follow
// the new role at once. The caller (an operator on the command line) has
// already authorised the change; people use UpdateTeamMember. It returns
// VALIDATION_ERROR naming role, NOT_FOUND when the person is not in the
// workspace, INVALID_REQUEST (409) for the owner, or INTERNAL_ERROR.
func (a *Service) ChangeMemberRole(ctx context.Context, workspaceID, userID string, role core.Role) error {
	return core.AsCoreError(pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		return a.changeMemberRole(ctx, tx, workspaceID, userID, role)
	}))
}

// RemoveMember takes a person out of a workspace and revokes the API keys
// they created there and their sign-in sessions in it, in one transaction.
// The caller (an operator on the command line) has already authorised the
// removal; people use RemoveTeamMember. It returns NOT_FOUND when the person
// is not in the workspace, INVALID_REQUEST (409) for the owner, or
// INTERNAL_ERROR.
func (a *Service) RemoveMember(ctx context.Context, workspaceID, userID string) error {
	return core.AsCoreError(pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		return a.removeMember(ctx, tx, workspaceID, userID, nil)
	}))
}

// changeMemberRole sets a non-owner's role to admin or member.
func (a *Service) changeMemberRole(ctx context.Context, tx pgx.Tx, workspaceID, userID string, role core.Role) error {
	if role != core.RoleAdmin && role != core.RoleMember {
		return core.Invalid("role", "must be admin or member, not %q", role)
	}
	q := db.New(tx)
	if _, err := lockNonOwner(ctx, q, workspaceID, userID, "the owner's role cannot change"); err != nil {
		return err
	}
	if _, err := q.MembershipUpdateRole(ctx, db.MembershipUpdateRoleParams{WorkspaceID: workspaceID, UserID: userID, Role: string(role)}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// removeMember deletes a non-owner's membership and revokes their keys and
// sessions in the workspace. allowed, when not nil, vets the person's
// current role first (removing an admin needs the owner).
func (a *Service) removeMember(ctx context.Context, tx pgx.Tx, workspaceID, userID string, allowed func(core.Role) error) error {
	q := db.New(tx)
	role, err := lockNonOwner(ctx, q, workspaceID, userID, "the owner cannot be removed")
	if err != nil {
		return err
	}
	if allowed != nil {
		if err := allowed(role); err != nil {
			return err
		}
	}
	if _, err := q.MembershipDelete(ctx, db.MembershipDeleteParams{WorkspaceID: workspaceID, UserID: userID}); err != nil {
		return core.Internal(err)
	}
	now := a.Clock.Now()
	if err := q.APIKeyRevokeByUser(ctx, db.APIKeyRevokeByUserParams{Now: now, WorkspaceID: workspaceID, UserID: userID}); err != nil {
		return core.Internal(err)
	}
	if err := q.SessionRevokeByMember(ctx, db.SessionRevokeByMemberParams{Now: now, WorkspaceID: workspaceID, UserID: userID}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// lockNonOwner locks the person's membership and returns their role. It
// fails with NOT_FOUND when they are not a member and with INVALID_REQUEST
// (409) when they are the owner.
func lockNonOwner(ctx context.Context, q *db.Queries, workspaceID, userID, ownerMessage string) (core.Role, error) {
	role, err := q.MembershipLockRole(ctx, db.MembershipLockRoleParams{WorkspaceID: workspaceID, UserID: userID})
	if core.IsNoRows(err) {
		return "", core.Errorf(core.CodeNotFound, "user %s is not a member of this workspace", userID)
	}
	if err != nil {
		return "", core.Internal(err)
	}
	if core.Role(role) == core.RoleOwner {
		return "", core.Errorf(core.CodeInvalidRequestState, "%s", ownerMessage)
	}
	return core.Role(role), nil
}
