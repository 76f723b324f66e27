package identity

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Session is who the caller is, as GET /session reports it (the spec's
// Session resource). Where a field's source does not exist yet the choice is
// recorded in docs/decisions/:
//
//   - ID is the user's ID; TeamID is the workspace's ID.
//   - TeamRole is the user's current role in the workspace.
//   - Company is the workspace's name (workspaces have no separate company).
//   - EmailVerified is true once the person accepted an invitation sent to
//     their email (there is no other verification flow).
//   - IsAdmin is true for an owner or admin of the workspace.
//   - LiveEnabled is true once staff have switched the workspace to live;
//     WorkspaceMode is that mode.
type Session struct {
	ID            string    `json:"id" jsonschema:"the user's ID"`
	TeamID        string    `json:"teamId" jsonschema:"the workspace's ID"`
	TeamRole      core.Role `json:"teamRole" jsonschema:"the user's current role in the workspace: owner, admin or member" schema:"enum=owner|admin|member"`
	Name          string    `json:"name" jsonschema:"the user's name"`
	Email         string    `json:"email" jsonschema:"the user's email address"`
	Company       string    `json:"company" jsonschema:"the workspace's name"`
	EmailVerified bool      `json:"emailVerified" jsonschema:"whether the user has confirmed their email address"`
	IsAdmin       bool      `json:"isAdmin" jsonschema:"true for an owner or admin of the workspace"`
	IsDemo        bool      `json:"isDemo" jsonschema:"a demo (preview-only) workspace"`
	LiveEnabled   bool      `json:"liveEnabled" jsonschema:"whether live gifting is enabled for the workspace"`
	WorkspaceMode core.Mode `json:"workspaceMode" jsonschema:"the workspace's current mode: test or live" schema:"enum=test|live"`
}

// Session returns the session of p, or nil for an anonymous principal. The
// role and mode are read afresh, so a key reports its creator's current role.
// It returns AUTH_REQUIRED when the principal's membership no longer exists
// and INTERNAL_ERROR when the database fails.
func (a *Service) Session(ctx context.Context, p core.Principal) (*Session, error) {
	if p.Anonymous() {
		return nil, nil
	}
	row, err := db.New(a.DB).SessionGet(ctx, db.SessionGetParams{WorkspaceID: p.WorkspaceID, UserID: p.UserID})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, a.AuthRequired("the credential's user is no longer a member of the workspace")
	}
	if err != nil {
		return nil, core.Internal(err)
	}
	role := core.Role(row.Role)
	mode := core.Mode(row.Mode)
	return &Session{
		ID:            row.UserID,
		TeamID:        row.WorkspaceID,
		TeamRole:      role,
		Name:          row.UserName,
		Email:         row.Email,
		Company:       row.WorkspaceName,
		EmailVerified: row.EmailVerifiedAt != nil,
		IsAdmin:       role.Manager(),
		IsDemo:        row.IsDemo,
		LiveEnabled:   mode == core.ModeLive,
		WorkspaceMode: mode,
	}, nil
}
