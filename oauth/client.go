package oauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"strings"

	"github.com/ory/fosite"

	"github.com/giftwell/giftwell/core/connect"
)

// Client is a registered client (core.OAuthClient) as fosite sees it.
type Client struct{ connect.OAuthClient }

var _ fosite.Client = (*Client)(nil)

// GetID implements fosite.Client.
func (c *Client) GetID() string { return c.ClientID }

// GetHashedSecret implements fosite.Client: the SHA-256 (hex) that
// SecretHasher compares.
func (c *Client) GetHashedSecret() []byte { return []byte(c.SecretHash) }

// GetRedirectURIs implements fosite.Client.
func (c *Client) GetRedirectURIs() []string { return c.RedirectURIs }

// GetGrantTypes implements fosite.Client.
func (c *Client) GetGrantTypes() fosite.Arguments { return c.GrantTypes }

// GetResponseTypes implements fosite.Client.
func (c *Client) GetResponseTypes() fosite.Arguments { return c.ResponseTypes }

// GetScopes implements fosite.Client.
func (c *Client) GetScopes() fosite.Arguments { return fosite.Arguments(strings.Fields(c.Scope)) }

// IsPublic implements fosite.Client.
func (c *Client) IsPublic() bool { return c.TokenEndpointAuthMethod == connect.AuthMethodNone }

// GetAudience implements fosite.Client; resources are checked by core
// (core.OAuthGrant.CheckTokenRequest), not by fosite's audience.
func (c *Client) GetAudience() fosite.Arguments { return nil }

// SecretHasher compares client secrets with their stored SHA-256 (hex,
// core.HashOAuthSecret). Secrets are 256 random bits, so a fast hash is
// enough (as for API keys).
type SecretHasher struct{}

var _ fosite.Hasher = SecretHasher{}

// Compare implements fosite.Hasher in constant time.
func (SecretHasher) Compare(_ context.Context, hash, data []byte) error {
	want := []byte(connect.HashOAuthSecret(string(data)))
	if len(hash) == 0 || subtle.ConstantTimeCompare(hash, want) != 1 {
		return errors.New("client secret mismatch")
	}
	return nil
}

// Hash implements fosite.Hasher.
func (SecretHasher) Hash(_ context.Context, data []byte) ([]byte, error) {
	return []byte(connect.HashOAuthSecret(string(data))), nil
}
