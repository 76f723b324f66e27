package identity

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// MaxKeyNameLength bounds an API key's name, in characters.
const MaxKeyNameLength = 100

// APIKeyInfo describes a live API key; the key itself is never shown again.
type APIKeyInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Prefix is the key's first 8 characters ("gwk_" and 4 hex), for recognising it.
	Prefix string `json:"prefix"`
	// CreatedByUserID is the person the key acts as; CreatedByName their name.
	CreatedByUserID string     `json:"createdByUserId"`
	CreatedByName   string     `json:"createdByName"`
	CreatedAt       time.Time  `json:"createdAt"`
	LastUsedAt      *time.Time `json:"lastUsedAt,omitempty"`
}

// CreatedAPIKey is a new key with its secret, shown only now.
type CreatedAPIKey struct {
	APIKeyInfo
	Key string `json:"key"`
}

// ListAPIKeys returns the live keys of p's workspace, newest first, with
// who created each: every signed-in person sees them all. It returns the
// codes of Authorize (ActManageAPIKeys: keys and connections get
// HUMAN_APPROVAL_REQUIRED with the keys page) or INTERNAL_ERROR.
func (a *Service) ListAPIKeys(ctx context.Context, p core.Principal) ([]APIKeyInfo, error) {
	if err := core.Authorize(p, core.ActManageAPIKeys, a.Config.KeysURL()); err != nil {
		return nil, err
	}
	rows, err := db.New(a.DB).APIKeyListActive(ctx, p.WorkspaceID)
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]APIKeyInfo, 0, len(rows))
	for _, r := range rows {
		out = append(out, APIKeyInfo{ID: r.ID, Name: r.Name, Prefix: r.Prefix, CreatedByUserID: r.UserID,
			CreatedByName: r.UserName, CreatedAt: core.UTC(r.CreatedAt), LastUsedAt: core.UTCPtr(r.LastUsedAt)})
	}
	return out, nil
}

// CreateAPIKeyFor creates a key acting as the signed-in person p, with their
// current role, in p's workspace. Keys cannot create keys.
//
// It returns the codes of Authorize (ActCreateAPIKey: a key or connection
// gets HUMAN_APPROVAL_REQUIRED with the keys page, a demo workspace
// DEMO_LIMITED), VALIDATION_ERROR naming name (empty or over 100
// characters), or INTERNAL_ERROR.
func (a *Service) CreateAPIKeyFor(ctx context.Context, p core.Principal, name string) (CreatedAPIKey, error) {
	if err := core.Authorize(p, core.ActCreateAPIKey, a.Config.KeysURL()); err != nil {
		return CreatedAPIKey{}, err
	}
	var out CreatedAPIKey
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		key, id, err := a.createAPIKey(ctx, tx, p.WorkspaceID, p.UserID, name)
		if err != nil {
			return err
		}
		u, err := db.New(tx).UserGetByID(ctx, p.UserID)
		if err != nil {
			return core.Internal(err)
		}
		out = CreatedAPIKey{Key: key, APIKeyInfo: APIKeyInfo{
			ID: id, Name: strings.TrimSpace(name), Prefix: key[:apiKeyDisplayLen], CreatedByUserID: p.UserID,
			CreatedByName: u.Name, CreatedAt: a.Clock.Now(),
		}}
		return a.RecordActivity(ctx, tx, p, core.ActivityRecord{Kind: core.ActivityKeyCreated, Subject: out.Name})
	})
	if err != nil {
		return CreatedAPIKey{}, core.AsCoreError(err)
	}
	return out, nil
}

// RevokeAPIKeyFor revokes a key of p's workspace at once. A signed-in owner
// or admin may revoke any key; a member only the keys they created.
// Revoking a revoked key succeeds and changes nothing.
//
// It returns the codes of Authorize (ActManageAPIKeys), NOT_FOUND when the
// key is not in the workspace, TEAM_MANAGER_REQUIRED when a member revokes
// someone else's key, or INTERNAL_ERROR.
func (a *Service) RevokeAPIKeyFor(ctx context.Context, p core.Principal, keyID string) error {
	if err := core.Authorize(p, core.ActManageAPIKeys, a.Config.KeysURL()); err != nil {
		return err
	}
	k, err := db.New(a.DB).APIKeyGetCreator(ctx, db.APIKeyGetCreatorParams{ID: keyID, WorkspaceID: p.WorkspaceID})
	if core.IsNoRows(err) {
		return core.Errorf(core.CodeNotFound, "key %s is not in this workspace", keyID)
	}
	if err != nil {
		return core.Internal(err)
	}
	if k.UserID != p.UserID && !p.Role.Manager() {
		return core.Errorf(core.CodeTeamManagerRequired, "only an owner or admin can revoke someone else's key")
	}
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		name, err := db.New(tx).APIKeyRevokeLive(ctx, db.APIKeyRevokeLiveParams{Now: a.Clock.Now(), ID: keyID, WorkspaceID: p.WorkspaceID})
		if core.IsNoRows(err) {
			return nil // revoked already: nothing changes
		}
		if err != nil {
			return core.Internal(err)
		}
		return a.RecordActivity(ctx, tx, p, core.ActivityRecord{Kind: core.ActivityKeyRevoked, Subject: name})
	})
	return core.AsCoreError(err)
}

// checkKeyName validates a trimmed key name of 1-100 characters.
func checkKeyName(name string) error {
	if name == "" {
		return core.Invalid("name", "is required")
	}
	if utf8.RuneCountInString(name) > MaxKeyNameLength {
		return core.Invalid("name", "must be at most %d characters", MaxKeyNameLength)
	}
	return nil
}
