package connect

import (
	"context"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
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
// INTERNAL_ERROR. The request's rate charge (core.WithRateCharge) is
// counted in the same statement: RATE_LIMIT when the workspace is over its
// limit. An OAuth access token (mco_access_) acts as its grant's
// person with their current role and the grant's scopes (Via connection).
func (a *Service) Authenticate(ctx context.Context, bearer string) (core.Principal, error) {
	if strings.HasPrefix(bearer, OAuthAccessTokenPrefix) {
		return a.authenticateConnection(ctx, bearer)
	}
	if !identity.IsAPIKeyFormat(bearer) {
		return core.Principal{}, a.AuthRequired("a workspace key is gwk_ followed by 64 lowercase hex characters")
	}
	bucket, units, limit, at := a.RateChargeArgs(ctx)
	row, err := db.New(a.DB).APIKeyAuthenticate(ctx, db.APIKeyAuthenticateParams{
		Hash: identity.HashAPIKey(bearer), Now: a.Clock.Now(),
		RateBucket: bucket, RateUnits: units, RateLimit: limit, RateAt: at,
	})
	if core.IsNoRows(err) {
		return core.Principal{}, a.AuthRequired("the key is unknown or revoked")
	}
	if err != nil {
		return core.Principal{}, core.Internal(err)
	}
	if err := core.RateCounted(ctx, row.RateAdmitted, row.RateUsed, row.RateResetMs); err != nil {
		return core.Principal{}, err
	}
	return core.Principal{
		WorkspaceID:  row.WorkspaceID,
		UserID:       row.UserID,
		Role:         core.Role(row.Role),
		Via:          core.ViaKey,
		Mode:         core.Mode(row.Mode),
		IsDemo:       row.IsDemo,
		CredentialID: row.ID,
		Names:        &core.CredentialNames{Name: row.Name, Email: row.Email},
	}, nil
}
