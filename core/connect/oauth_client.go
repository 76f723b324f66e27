package connect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// PrefixOAuthClient starts the IDs of registered OAuth clients; PrefixOAuthGrant
// those of grants (one per consent).
const (
	PrefixOAuthClient = "oac_"
	PrefixOAuthGrant  = "ogr_"
)

// MaxRedirectURIs bounds the redirect URIs of one client.
const MaxRedirectURIs = 10

// Registration rate limit: at most OAuthRegistrationsPerAddress clients from
// one address in OAuthRegistrationWindow.
const (
	OAuthRegistrationsPerAddress = 20
	OAuthRegistrationWindow      = time.Hour
)

// Token endpoint authentication methods a client may register (RFC 7591).
const (
	AuthMethodNone              = "none"
	AuthMethodClientSecretBasic = "client_secret_basic"
	AuthMethodClientSecretPost  = "client_secret_post"
)

// OAuthClientRegistration is the RFC 7591 client metadata a client sends to
// POST /oauth/register; fields it leaves out take the defaults of RFC 7591.
type OAuthClientRegistration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientURI               string   `json:"client_uri,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
}

// OAuthClient is a registered client as RFC 7591 returns it. ClientSecret
// is set only in the registration response of a confidential client.
type OAuthClient struct {
	ClientID                string   `json:"client_id"`
	ClientSecret            string   `json:"client_secret,omitempty"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientSecretExpiresAt   *int64   `json:"client_secret_expires_at,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientURI               string   `json:"client_uri,omitempty"`
	Scope                   string   `json:"scope"`
	// SecretHash is the stored SHA-256 (hex) of a confidential client's secret.
	SecretHash string `json:"-"`
}

// RegisterOAuthClient stores a dynamically registered client (RFC 7591).
// Public clients use token_endpoint_auth_method "none" and get no secret;
// confidential ones get a secret, shown only now and stored as a hash.
//
// clientIP is the registering address, counted for the rate limit.
//
// It returns VALIDATION_ERROR whose Fields name the offending metadata
// ("redirect_uris[1]" for a redirect URI that ValidateRedirectURI refuses),
// RATE_LIMIT after 20 registrations from the address in an hour, or
// INTERNAL_ERROR.
func (a *Service) RegisterOAuthClient(ctx context.Context, reg OAuthClientRegistration, clientIP string) (OAuthClient, error) {
	c, err := normaliseRegistration(reg, OAuthCallbacks(a.Config))
	if err != nil {
		return OAuthClient{}, err
	}
	now := a.Clock.Now().UTC().Truncate(time.Second)
	c.ClientID = core.NewID(PrefixOAuthClient)
	c.ClientIDIssuedAt = now.Unix()
	var secretHash *string
	if c.TokenEndpointAuthMethod != AuthMethodNone {
		c.ClientSecret = "mco_secret_" + core.RandomHex(32)
		h := HashOAuthSecret(c.ClientSecret)
		secretHash, c.SecretHash = &h, h
		zero := int64(0)
		c.ClientSecretExpiresAt = &zero
	}
	// Registrations from one address are serialised (a transaction-scoped
	// advisory lock on the address), so that concurrent ones cannot all
	// count the same number and exceed the bound together.
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		if err := q.OAuthClientLockAddress(ctx, clientIP); err != nil {
			return core.Internal(err)
		}
		recent, err := q.OAuthClientCountRecent(ctx, db.OAuthClientCountRecentParams{
			RegisteredFrom: clientIP, Since: now.Add(-OAuthRegistrationWindow),
		})
		if err != nil {
			return core.Internal(err)
		}
		if recent.N >= OAuthRegistrationsPerAddress {
			wait := recent.Oldest.Add(OAuthRegistrationWindow).Sub(now)
			return &core.Error{Code: core.CodeRateLimit, Message: "too many client registrations from this address; wait and try again",
				RetryAfterMs: max(wait.Milliseconds(), 1000)}
		}
		err = q.OAuthClientInsert(ctx, db.OAuthClientInsertParams{
			ID: c.ClientID, ClientName: c.ClientName, ClientUri: c.ClientURI, RedirectUris: c.RedirectURIs,
			TokenEndpointAuthMethod: c.TokenEndpointAuthMethod, SecretHash: secretHash,
			GrantTypes: c.GrantTypes, ResponseTypes: c.ResponseTypes, Scope: c.Scope, RegisteredFrom: clientIP, CreatedAt: now,
		})
		if err != nil {
			return core.Internal(err)
		}
		return nil
	})
	if err != nil {
		return OAuthClient{}, core.AsCoreError(err)
	}
	return c, nil
}

// OAuthClientByID returns a registered client. It joins the caller's
// transaction (see BeginTx). It returns NOT_FOUND or INTERNAL_ERROR.
func (a *Service) OAuthClientByID(ctx context.Context, id string) (OAuthClient, error) {
	r, err := db.New(a.Conn(ctx)).OAuthClientGetByID(ctx, id)
	if core.IsNoRows(err) {
		return OAuthClient{}, core.Errorf(core.CodeNotFound, "client_id: no client %q is registered", id)
	}
	if err != nil {
		return OAuthClient{}, core.Internal(err)
	}
	return clientOf(r), nil
}

// clientOf is the client a stored row describes.
func clientOf(r db.OauthClient) OAuthClient {
	c := OAuthClient{
		ClientID: r.ID, ClientIDIssuedAt: r.CreatedAt.Unix(), RedirectURIs: r.RedirectUris,
		TokenEndpointAuthMethod: r.TokenEndpointAuthMethod, GrantTypes: r.GrantTypes, ResponseTypes: r.ResponseTypes,
		ClientName: r.ClientName, ClientURI: r.ClientUri, Scope: r.Scope,
	}
	if r.SecretHash != nil {
		c.SecretHash = *r.SecretHash
	}
	return c
}

// HashOAuthSecret is the stored form of an OAuth secret or token: its
// SHA-256 in hex. They carry at least 256 random bits.
func HashOAuthSecret(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// normaliseRegistration checks reg, its https redirect URIs against
// callbacks, and fills RFC 7591's defaults.
func normaliseRegistration(reg OAuthClientRegistration, callbacks []string) (OAuthClient, error) {
	if len(reg.RedirectURIs) == 0 {
		return OAuthClient{}, core.Invalid("redirect_uris", "at least one redirect URI is required")
	}
	if len(reg.RedirectURIs) > MaxRedirectURIs {
		return OAuthClient{}, core.Invalid("redirect_uris", "at most %d redirect URIs", MaxRedirectURIs)
	}
	for i, u := range reg.RedirectURIs {
		if err := ValidateRedirectURI(u, callbacks); err != nil {
			f := fmt.Sprintf("redirect_uris[%d]", i)
			return OAuthClient{}, core.Invalid(f, "%v", err)
		}
	}
	method := reg.TokenEndpointAuthMethod
	if method == "" {
		method = AuthMethodClientSecretBasic
	}
	if method != AuthMethodNone && method != AuthMethodClientSecretBasic && method != AuthMethodClientSecretPost {
		return OAuthClient{}, core.Invalid("token_endpoint_auth_method", "must be none, client_secret_basic or client_secret_post")
	}
	grants := reg.GrantTypes
	if len(grants) == 0 {
		grants = []string{"authorization_code", "refresh_token"}
	}
	for _, g := range grants {
		if g != "authorization_code" && g != "refresh_token" {
			return OAuthClient{}, core.Invalid("grant_types", "only authorization_code and refresh_token are supported, not %q", g)
		}
	}
	if !slices.Contains(grants, "authorization_code") {
		return OAuthClient{}, core.Invalid("grant_types", "must include authorization_code")
	}
	responses := reg.ResponseTypes
	if len(responses) == 0 {
		responses = []string{"code"}
	}
	if len(responses) != 1 || responses[0] != "code" {
		return OAuthClient{}, core.Invalid("response_types", "only code is supported")
	}
	if utf8.RuneCountInString(reg.ClientName) > 200 {
		return OAuthClient{}, core.Invalid("client_name", "at most 200 characters")
	}
	if reg.ClientURI != "" && (len(reg.ClientURI) > 2000 || !strings.HasPrefix(reg.ClientURI, "https://")) {
		return OAuthClient{}, core.Invalid("client_uri", "must be an https URL of at most 2000 bytes")
	}
	scope := reg.Scope
	if scope == "" {
		scope = string(core.ScopeRead) + " " + string(core.ScopeWrite) + " " + string(core.ScopeLinks)
	}
	for _, s := range strings.Fields(scope) {
		if !slices.Contains(core.AllScopes, core.Scope(s)) {
			return OAuthClient{}, core.Invalid("scope", "unknown scope %q", s)
		}
	}
	return OAuthClient{
		RedirectURIs: slices.Clone(reg.RedirectURIs), TokenEndpointAuthMethod: method,
		GrantTypes: grants, ResponseTypes: responses, ClientName: strings.TrimSpace(reg.ClientName),
		ClientURI: reg.ClientURI, Scope: strings.Join(strings.Fields(scope), " "),
	}, nil
}
