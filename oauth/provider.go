package oauth

import (
	"context"
	"strings"

	"github.com/ory/fosite"
	"github.com/ory/fosite/compose"
	"github.com/ory/fosite/handler/oauth2"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
)

// newProvider composes fosite for Giftwell: authorization code with PKCE
// S256 only, refresh tokens (rotated; issued without an offline scope) and
// revocation, over st (the Store of app in production), with
// tokenStrategy's mco_-prefixed tokens on the App's clock. State is
// optional with PKCE S256 (optionalState).
func newProvider(app *giftwell.App, st Storage) fosite.OAuth2Provider {
	cfg := &fosite.Config{
		AccessTokenLifespan:            connect.OAuthAccessTokenLifetime,
		RefreshTokenLifespan:           connect.OAuthGrantIdleLifetime,
		AuthorizeCodeLifespan:          connect.OAuthCodeLifetime,
		EnforcePKCE:                    true,
		EnforcePKCEForPublicClients:    true,
		EnablePKCEPlainChallengeMethod: false,
		RefreshTokenScopes:             []string{},
		ScopeStrategy:                  fosite.ExactScopeStrategy,
		ClientSecretsHasher:            SecretHasher{},
		AccessTokenIssuer:              app.Config.SiteURL,
		IDTokenIssuer:                  app.Config.SiteURL,
		TokenURL:                       app.Config.SiteURL + "/oauth/token",
		MinParameterEntropy:            8,
	}
	return optionalState{compose.Compose(cfg, st, tokenStrategy{clock: app.Clock},
		compose.OAuth2AuthorizeExplicitFactory,
		compose.OAuth2RefreshTokenGrantFactory,
		compose.OAuth2TokenRevocationFactory,
		compose.OAuth2PKCEFactory,
	)}
}

// tokenStrategy issues opaque tokens with the spec's prefixes: 256 random
// bits after mco_access_, mco_refresh_ or mco_code_. A token's signature
// (its storage key) is its SHA-256, so core can authenticate an access
// token with one lookup and no secret; the strategy holds no key, and a
// token is valid exactly when its hash is stored, active and unexpired.
// Expiry is read on clock, the App's: the Store puts each record's expiry,
// stamped on the same clock, in the session it loads.
type tokenStrategy struct{ clock core.Clock }

var _ oauth2.CoreStrategy = tokenStrategy{}

func (tokenStrategy) generate(prefix string) (string, string, error) {
	tok := prefix + core.RandomHex(32)
	return tok, connect.HashOAuthSecret(tok), nil
}

func (s tokenStrategy) validate(r fosite.Requester, token, prefix string, tt fosite.TokenType, expired *fosite.RFC6749Error) error {
	if !strings.HasPrefix(token, prefix) {
		return fosite.ErrInvalidRequest.WithHint("The token has the wrong format.")
	}
	if exp := r.GetSession().GetExpiresAt(tt); !exp.IsZero() && exp.Before(s.clock.Now()) {
		return expired
	}
	return nil
}

// AccessTokenSignature implements oauth2.AccessTokenStrategy.
func (tokenStrategy) AccessTokenSignature(_ context.Context, token string) string {
	return connect.HashOAuthSecret(token)
}

// GenerateAccessToken implements oauth2.AccessTokenStrategy.
func (s tokenStrategy) GenerateAccessToken(context.Context, fosite.Requester) (string, string, error) {
	return s.generate(connect.OAuthAccessTokenPrefix)
}

// ValidateAccessToken implements oauth2.AccessTokenStrategy.
func (s tokenStrategy) ValidateAccessToken(_ context.Context, r fosite.Requester, token string) error {
	return s.validate(r, token, connect.OAuthAccessTokenPrefix, fosite.AccessToken,
		fosite.ErrTokenExpired.WithHint("The access token expired."))
}

// RefreshTokenSignature implements oauth2.RefreshTokenStrategy.
func (tokenStrategy) RefreshTokenSignature(_ context.Context, token string) string {
	return connect.HashOAuthSecret(token)
}

// GenerateRefreshToken implements oauth2.RefreshTokenStrategy.
func (s tokenStrategy) GenerateRefreshToken(context.Context, fosite.Requester) (string, string, error) {
	return s.generate(connect.OAuthRefreshTokenPrefix)
}

// ValidateRefreshToken implements oauth2.RefreshTokenStrategy.
func (s tokenStrategy) ValidateRefreshToken(_ context.Context, r fosite.Requester, token string) error {
	return s.validate(r, token, connect.OAuthRefreshTokenPrefix, fosite.RefreshToken,
		fosite.ErrTokenExpired.WithHint("The refresh token expired."))
}

// AuthorizeCodeSignature implements oauth2.AuthorizeCodeStrategy.
func (tokenStrategy) AuthorizeCodeSignature(_ context.Context, token string) string {
	return connect.HashOAuthSecret(token)
}

// GenerateAuthorizeCode implements oauth2.AuthorizeCodeStrategy.
func (s tokenStrategy) GenerateAuthorizeCode(context.Context, fosite.Requester) (string, string, error) {
	return s.generate(connect.OAuthCodePrefix)
}

// ValidateAuthorizeCode implements oauth2.AuthorizeCodeStrategy.
func (s tokenStrategy) ValidateAuthorizeCode(_ context.Context, r fosite.Requester, token string) error {
	return s.validate(r, token, connect.OAuthCodePrefix, fosite.AuthorizeCode,
		fosite.ErrInvalidGrant.WithHint("The authorization code expired."))
}
