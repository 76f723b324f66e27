package identity

import (
	"context"
	"crypto/sha256"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// APIKeyPrefix starts every workspace API key; 64 lowercase hex characters
// (256 random bits) follow it.
const APIKeyPrefix = "gwk_"

// apiKeyHexLen is the number of hex characters after the prefix.
const apiKeyHexLen = 64

// apiKeyDisplayLen is how many leading characters of a key are kept for display.
const apiKeyDisplayLen = 8

// IsAPIKeyFormat reports whether s has the shape of a workspace API key:
// "gwk_" followed by exactly 64 lowercase hexadecimal characters.
func IsAPIKeyFormat(s string) bool {
	hex, ok := strings.CutPrefix(s, APIKeyPrefix)
	if !ok || len(hex) != apiKeyHexLen {
		return false
	}
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// HashAPIKey is the stored form of a key: its SHA-256. Keys carry 256 random
// bits, so a fast unsalted hash is enough.
func HashAPIKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// CreateAPIKey creates a key that acts as userID in workspaceID, with that
// person's current role, and returns the key (shown only now) and its ID.
// The caller has already authorised the creation (a signed-in person, or an
// operator on the command line). It returns VALIDATION_ERROR naming name (empty or over 100 characters),
// NOT_FOUND when the person is not a member of the workspace, or
// INTERNAL_ERROR.
func (a *Service) CreateAPIKey(ctx context.Context, workspaceID, userID, name string) (key string, id string, err error) {
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		key, id, err = a.createAPIKey(ctx, tx, workspaceID, userID, name)
		return err
	})
	if err != nil {
		return "", "", core.AsCoreError(err)
	}
	return key, id, nil
}

func (a *Service) createAPIKey(ctx context.Context, tx pgx.Tx, workspaceID, userID, name string) (string, string, error) {
	name = strings.TrimSpace(name)
	if err := checkKeyName(name); err != nil {
		return "", "", err
	}
	key := APIKeyPrefix + core.RandomHex(apiKeyHexLen/2)
	id := core.NewID(core.PrefixKey)
	n, err := db.New(tx).APIKeyInsert(ctx, db.APIKeyInsertParams{
		ID: id, WorkspaceID: workspaceID, UserID: userID, Name: name,
		Prefix: key[:apiKeyDisplayLen], Hash: HashAPIKey(key), CreatedAt: a.Clock.Now(),
	})
	if err != nil {
		return "", "", core.Internal(err)
	}
	if n == 0 {
		return "", "", core.Errorf(core.CodeNotFound, "user %s is not a member of workspace %s", userID, workspaceID)
	}
	return key, id, nil
}

// RevokeAPIKey revokes a workspace's key at once; later requests with it get
// AUTH_REQUIRED. Revoking a revoked key succeeds and changes nothing. The
// caller has already authorised it. It returns NOT_FOUND when the key is not
// in the workspace, or INTERNAL_ERROR.
func (a *Service) RevokeAPIKey(ctx context.Context, workspaceID, keyID string) error {
	n, err := db.New(a.DB).APIKeyRevoke(ctx, db.APIKeyRevokeParams{Now: a.Clock.Now(), ID: keyID, WorkspaceID: workspaceID})
	if err != nil {
		return core.Internal(err)
	}
	if n == 0 {
		return core.Errorf(core.CodeNotFound, "key %s is not in this workspace", keyID)
	}
	return nil
}
