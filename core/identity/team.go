package identity

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// TeamMember is a person of the workspace (the spec's Team member).
type TeamMember struct {
	UserID   string    `json:"userId" jsonschema:"the person's user ID"`
	Email    string    `json:"email" jsonschema:"the person's sign-in email"`
	Name     string    `json:"name" jsonschema:"the person's name"`
	Role     core.Role `json:"role" jsonschema:"the person's role: owner, admin or member" schema:"enum=owner|admin|member"`
	JoinedAt time.Time `json:"joinedAt" jsonschema:"when the person joined the workspace"`
}

// ListTeamMembers returns the people of p's workspace in the order they
// joined. It returns the codes of Authorize (ActListTeammates: every person
// and key; connections get HUMAN_APPROVAL_REQUIRED) or INTERNAL_ERROR.
func (a *Service) ListTeamMembers(ctx context.Context, p core.Principal) ([]TeamMember, error) {
	if err := core.Authorize(p, core.ActListTeammates, a.Config.TeamURL()); err != nil {
		return nil, err
	}
	rows, err := db.New(a.DB).TeamMemberList(ctx, p.WorkspaceID)
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]TeamMember, 0, len(rows))
	for _, r := range rows {
		out = append(out, TeamMember{UserID: r.UserID, Email: r.Email, Name: r.Name, Role: core.Role(r.Role), JoinedAt: core.UTC(r.JoinedAt)})
	}
	return out, nil
}

// UpdateTeamMember sets a person's role to admin or member. Only the
// signed-in owner may; the person's keys follow the new role at once.
//
// It returns the codes of Authorize (ActChangeRole: keys and connections
// get HUMAN_APPROVAL_REQUIRED with the team page, an admin or member
// TEAM_MANAGER_REQUIRED), VALIDATION_ERROR naming role, NOT_FOUND when the
// person is not in the workspace, INVALID_REQUEST (409) for the owner
// (whose role never changes), or INTERNAL_ERROR.
func (a *Service) UpdateTeamMember(ctx context.Context, p core.Principal, userID string, role core.Role) (TeamMember, error) {
	if err := core.Authorize(p, core.ActChangeRole, a.Config.TeamURL()); err != nil {
		return TeamMember{}, err
	}
	var out TeamMember
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		if err := a.changeMemberRole(ctx, tx, p.WorkspaceID, userID, role); err != nil {
			return err
		}
		r, err := db.New(tx).TeamMemberGet(ctx, db.TeamMemberGetParams{WorkspaceID: p.WorkspaceID, UserID: userID})
		if err != nil {
			return core.Internal(err)
		}
		out = TeamMember{UserID: r.UserID, Email: r.Email, Name: r.Name, Role: core.Role(r.Role), JoinedAt: core.UTC(r.JoinedAt)}
		return nil
	})
	if err != nil {
		return TeamMember{}, core.AsCoreError(err)
	}
	return out, nil
}

// RemoveTeamMember takes a person out of p's workspace. In the same
// transaction their API keys in the workspace are revoked and their sign-in
// sessions there end. A signed-in owner may remove an admin or a member; a
// signed-in admin only a member (so an admin cannot remove themselves;
// nobody can remove the owner).
//
// It returns the codes of Authorize (ActInviteOrRemove), NOT_FOUND when the
// person is not in the workspace, INVALID_REQUEST (409) for the owner,
// TEAM_MANAGER_REQUIRED when an admin removes an admin, or INTERNAL_ERROR.
func (a *Service) RemoveTeamMember(ctx context.Context, p core.Principal, userID string) error {
	if err := core.Authorize(p, core.ActInviteOrRemove, a.Config.TeamURL()); err != nil {
		return err
	}
	return core.AsCoreError(pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		return a.removeMember(ctx, tx, p.WorkspaceID, userID, func(target core.Role) error {
			if target == core.RoleAdmin && p.Role != core.RoleOwner {
				return core.Errorf(core.CodeTeamManagerRequired, "only the workspace owner can remove an admin")
			}
			return nil
		})
	}))
}
