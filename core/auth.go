package core

import (
	"context"
	"strings"

	"github.com/giftwell/giftwell/sql/db"
)

// Authenticate resolves a bearer token (the text after "Bearer ") to the
// Principal it acts as. A workspace key acts as its creator with the
// creator's current role, in the workspace's current mode.
//
// It returns AUTH_REQUIRED for an empty or malformed token (without touching
// the database), an unknown or revoked key, a key whose creator has left the
// workspace, and an OAuth access token that is unknown, expired, revoked, of
// an ended grant or of a person who has left the workspace; or
// INTERNAL_ERROR. An OAuth access token (mco_access_) acts as its grant's
// person with their current role and the grant's scopes (Via connection).
func (a *App) Authenticate(ctx context.Context, bearer string) (Principal, error) {
	if strings.HasPrefix(bearer, OAuthAccessTokenPrefix) {
		return a.authenticateConnection(ctx, bearer)
	}
	if !IsAPIKeyFormat(bearer) {
		return Principal{}, a.authRequired("a workspace key is gwk_ followed by 64 lowercase hex characters")
	}
	row, err := db.New(a.DB).APIKeyAuthenticate(ctx, db.APIKeyAuthenticateParams{Hash: hashAPIKey(bearer), Now: a.Clock.Now()})
	if isNoRows(err) {
		return Principal{}, a.authRequired("the key is unknown or revoked")
	}
	if err != nil {
		return Principal{}, Internal(err)
	}
	return Principal{
		WorkspaceID:  row.WorkspaceID,
		UserID:       row.UserID,
		Role:         Role(row.Role),
		Via:          ViaKey,
		Mode:         Mode(row.Mode),
		IsDemo:       row.IsDemo,
		CredentialID: row.ID,
	}, nil
}
