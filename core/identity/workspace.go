package identity

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// CreateWorkspaceParams describes a new workspace and its owner.
type CreateWorkspaceParams struct {
	// Name is the workspace's name, 1-200 characters.
	Name string
	// OwnerEmail is the owner's sign-in email; stored trimmed and lowercased.
	// An existing account is reused when OwnerPassword is its password.
	OwnerEmail string
	// OwnerPassword is the owner's password, at least 8 characters.
	OwnerPassword string
	// OwnerName is the owner's display name; empty means the email's local part.
	OwnerName string
	// Demo makes a preview-only workspace (keys, webhooks and uploads are
	// refused by Authorize with DEMO_LIMITED).
	Demo bool
	// WithKey also creates an API key acting as the owner.
	WithKey bool
}

// CreatedWorkspace is what CreateWorkspace made.
type CreatedWorkspace struct {
	WorkspaceID string
	UserID      string
	// APIKey is the owner's new key, shown only now; empty unless WithKey.
	APIKey string
}

// DefaultKeyName names the keys that CreateWorkspace and AddMember create.
const DefaultKeyName = "Created with the workspace"

// CreateWorkspace creates a workspace in test mode, its owner (or reuses the
// owner's existing account) and, with WithKey, an API key for the owner, in
// one transaction. It returns VALIDATION_ERROR naming name, ownerEmail,
// ownerPassword or ownerName, or INTERNAL_ERROR.
func (a *Service) CreateWorkspace(ctx context.Context, p CreateWorkspaceParams) (CreatedWorkspace, error) {
	var out CreatedWorkspace
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		out, err = a.createWorkspace(ctx, tx, p)
		return err
	})
	if err != nil {
		return CreatedWorkspace{}, core.AsCoreError(err)
	}
	return out, nil
}

// CreateFirstWorkspace is CreateWorkspace for a service's first start: it
// creates the workspace only when the database holds none, and reports
// whether it did. Concurrent callers are serialised, so at most one creates.
// It returns the codes of CreateWorkspace.
func (a *Service) CreateFirstWorkspace(ctx context.Context, p CreateWorkspaceParams) (CreatedWorkspace, bool, error) {
	var out CreatedWorkspace
	created := false
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.WorkspaceLockFirstRun(ctx); err != nil {
			return core.Internal(err)
		}
		exists, err := q.WorkspaceAnyExists(ctx)
		if err != nil || exists {
			return err
		}
		out, err = a.createWorkspace(ctx, tx, p)
		created = err == nil
		return err
	})
	if err != nil {
		return CreatedWorkspace{}, false, core.AsCoreError(err)
	}
	return out, created, nil
}

func (a *Service) createWorkspace(ctx context.Context, tx pgx.Tx, p CreateWorkspaceParams) (CreatedWorkspace, error) {
	name := strings.TrimSpace(p.Name)
	if err := checkName("name", name); err != nil {
		return CreatedWorkspace{}, err
	}
	owner, err := checkPerson("ownerEmail", p.OwnerEmail, "ownerPassword", p.OwnerPassword, "ownerName", p.OwnerName)
	if err != nil {
		return CreatedWorkspace{}, err
	}
	now := a.Clock.Now()
	out := CreatedWorkspace{WorkspaceID: core.NewID(core.PrefixWorkspace)}
	q := db.New(tx)
	if err := q.WorkspaceInsert(ctx, db.WorkspaceInsertParams{
		ID: out.WorkspaceID, Name: name, Mode: string(core.ModeTest), IsDemo: p.Demo, CreatedAt: now,
	}); err != nil {
		return CreatedWorkspace{}, core.Internal(err)
	}
	if out.UserID, err = a.findOrCreateUser(ctx, tx, owner); err != nil {
		return CreatedWorkspace{}, err
	}
	if err := q.MembershipInsert(ctx, db.MembershipInsertParams{
		WorkspaceID: out.WorkspaceID, UserID: out.UserID, Role: string(core.RoleOwner), CreatedAt: now,
	}); err != nil {
		return CreatedWorkspace{}, core.Internal(err)
	}
	if p.WithKey {
		if out.APIKey, _, err = a.createAPIKey(ctx, tx, out.WorkspaceID, out.UserID, DefaultKeyName); err != nil {
			return CreatedWorkspace{}, err
		}
	}
	return out, nil
}
