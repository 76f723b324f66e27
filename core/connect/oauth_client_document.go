package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document,
// preferred by the MCP authorization spec from 2025-11-25): a client may
// name itself by an https URL as its client_id instead of registering; the
// JSON document at that URL describes it. Giftwell fetches the document
// (never inside a transaction, through the SSRF-guarded ClientMetadataFetcher),
// checks it as it checks a registration, and keeps it as that client's row,
// keyed by its URL, for as long as its HTTP caching headers say, within
// bounds. The client is then a registered public client in every respect:
// consent, grants, tokens and revocation name it by its URL.

// Bounds of a client ID metadata document: its size, and how long a fetched
// copy is used (its HTTP caching lifetime, clamped; the default when the
// answer gives none).
const (
	MaxClientDocumentBytes        = 64 << 10
	ClientDocumentMinLifetime     = 5 * time.Minute
	ClientDocumentMaxLifetime     = 24 * time.Hour
	ClientDocumentDefaultLifetime = time.Hour
)

// ClientMetadataFetcher fetches the client ID metadata document at a URL:
// one GET through the same SSRF guard as webhooks (https to public
// addresses only, checked at the dial), bounded in time and to
// MaxClientDocumentBytes, no redirect followed. cmd/giftwell fills it
// (internal/clientmeta). An error is a short text a person may read (never
// the document's content).
type ClientMetadataFetcher interface {
	FetchClientMetadata(ctx context.Context, url string) (ClientMetadataAnswer, error)
}

// ClientMetadataAnswer is a fetched document: its body, and the freshness
// lifetime its HTTP caching headers give (HasLifetime false when they give
// none; no-store or no-cache is a lifetime of zero).
type ClientMetadataAnswer struct {
	Body        []byte
	Lifetime    time.Duration
	HasLifetime bool
}

// IsClientMetadataURL reports whether clientID names a client by its
// metadata document (an https URL) rather than a registered client (oac_).
func IsClientMetadataURL(clientID string) bool { return strings.HasPrefix(clientID, "https://") }

// errFetchInTx refuses to call out while the caller holds a transaction.
var errFetchInTx = errors.New("connect: a client metadata document is never fetched inside a transaction")

// ResolveOAuthClientDocument makes sure the client named by the metadata
// document URL clientID is known and fresh, fetching its document when no
// copy is kept or the kept one has expired, and returns it. Call it before
// any lookup of the client (the oauth face does, at authorization and at
// the token endpoint); ctx must carry no transaction.
//
// It returns VALIDATION_ERROR naming client_id when the URL is not one a
// client may use, the document cannot be fetched, or it is not a valid
// document for this URL (its message says why); NOT_FOUND when no fetcher
// is configured; SERVICE_UNAVAILABLE or INTERNAL_ERROR.
func (a *Service) ResolveOAuthClientDocument(ctx context.Context, clientID string) (OAuthClient, error) {
	if core.CarriesTx(ctx) {
		return OAuthClient{}, core.Internal(errFetchInTx)
	}
	if err := checkClientMetadataURL(clientID); err != nil {
		return OAuthClient{}, core.Invalid("client_id", "%v", err)
	}
	now := a.Clock.Now().UTC()
	q := db.New(a.DB)
	row, err := q.OAuthClientGetByID(ctx, clientID)
	found := err == nil
	switch {
	case found && row.DocumentExpiresAt != nil && now.Before(*row.DocumentExpiresAt):
		return clientOf(row), nil
	case !found && !core.IsNoRows(err):
		return OAuthClient{}, core.Internal(err)
	}
	if a.ClientMetadata == nil {
		return OAuthClient{}, core.Errorf(core.CodeNotFound, "client_id: this server does not fetch client metadata documents")
	}
	answer, err := a.ClientMetadata.FetchClientMetadata(ctx, clientID)
	if err != nil {
		return OAuthClient{}, core.Invalid("client_id", "the client's metadata document could not be fetched: %v", err)
	}
	c, err := parseClientDocument(clientID, answer.Body, OAuthCallbacks(a.Config))
	if err != nil {
		return OAuthClient{}, core.Invalid("client_id", "the client's metadata document is not valid: %v", err)
	}
	fetched := now.Truncate(time.Second)
	expires := fetched.Add(clientDocumentLifetime(answer))
	err = q.OAuthClientDocumentUpsert(ctx, db.OAuthClientDocumentUpsertParams{
		ID: c.ClientID, ClientName: c.ClientName, ClientUri: c.ClientURI, RedirectUris: c.RedirectURIs,
		GrantTypes: c.GrantTypes, ResponseTypes: c.ResponseTypes, Scope: c.Scope,
		FetchedAt: fetched, ExpiresAt: expires,
	})
	if err != nil {
		return OAuthClient{}, core.Internal(err)
	}
	c.ClientIDIssuedAt = fetched.Unix()
	if found {
		c.ClientIDIssuedAt = row.CreatedAt.Unix() // the row keeps its first fetch as its creation
	}
	return c, nil
}

// clientDocumentLifetime is how long a fetched document is used: its
// caching lifetime within the bounds, or the default.
func clientDocumentLifetime(a ClientMetadataAnswer) time.Duration {
	if !a.HasLifetime {
		return ClientDocumentDefaultLifetime
	}
	return min(max(a.Lifetime, ClientDocumentMinLifetime), ClientDocumentMaxLifetime)
}

// checkClientMetadataURL applies the draft's rules for a client identifier
// URL: https with a host and a path, no credentials, query, fragment or dot
// segments; printable ASCII of at most MaxRedirectURILength bytes.
func checkClientMetadataURL(raw string) error {
	if len(raw) > MaxRedirectURILength {
		return errors.New("a client metadata document URL is at most 2000 bytes")
	}
	for _, c := range raw {
		if c <= 0x20 || c == 0x7f || c == '\\' || c > 0x7e {
			return errors.New("a client metadata document URL must not contain whitespace, a backslash, a control or a non-ASCII character")
		}
	}
	if strings.ContainsAny(raw, "?#") {
		return errors.New("a client metadata document URL must not have a query or fragment")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
		return errors.New("a client metadata document URL must be an https URL like https://app.example.com/oauth/client.json")
	}
	if u.User != nil || strings.Contains(u.Host, "@") {
		return errors.New("a client metadata document URL must not carry credentials")
	}
	p := u.EscapedPath()
	if p == "" || p == "/" {
		return errors.New("a client metadata document URL must have a path, like /oauth/client.json")
	}
	lower := strings.ToLower(p)
	if hasDotSegment(p) || strings.Contains(lower, "%2e") || strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") {
		return errors.New("a client metadata document URL must not have . or .. path segments or encoded dots and slashes")
	}
	return nil
}

// clientDocument is what Giftwell reads of a client ID metadata document;
// other members are allowed and ignored (logo_uri among them).
type clientDocument struct {
	ClientID                string          `json:"client_id"`
	RedirectURIs            []string        `json:"redirect_uris"`
	TokenEndpointAuthMethod *string         `json:"token_endpoint_auth_method"`
	GrantTypes              []string        `json:"grant_types"`
	ResponseTypes           []string        `json:"response_types"`
	ClientName              string          `json:"client_name"`
	ClientURI               string          `json:"client_uri"`
	ClientSecret            json.RawMessage `json:"client_secret"`
	ClientSecretExpiresAt   json.RawMessage `json:"client_secret_expires_at"`
}

// parseClientDocument checks the document fetched from clientID and returns
// the public client it describes. The document is one JSON object of UTF-8
// text without NUL characters; its client_id is exactly clientID; it holds
// no client secret; token_endpoint_auth_method, when present, is none;
// grant_types and response_types, when present, include authorization_code
// and code (only those and refresh_token are kept); redirect_uris, the name
// and client_uri pass the rules of registration (normaliseRegistration). Its
// scope is not read: the client may ask for any of Giftwell's scopes, and
// the person decides at consent.
func parseClientDocument(clientID string, body []byte, callbacks []string) (OAuthClient, error) {
	if !utf8.Valid(body) {
		return OAuthClient{}, errors.New("it must be UTF-8 text")
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	var doc clientDocument
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(body, &doc) != nil {
		return OAuthClient{}, errors.New("it is not one JSON object of client metadata")
	}
	if doc.ClientID != clientID {
		return OAuthClient{}, errors.New("its client_id must be exactly the URL it is served from")
	}
	if doc.ClientSecret != nil || doc.ClientSecretExpiresAt != nil {
		return OAuthClient{}, errors.New("it must not hold a client_secret: such clients are public")
	}
	if doc.TokenEndpointAuthMethod != nil && *doc.TokenEndpointAuthMethod != AuthMethodNone {
		return OAuthClient{}, errors.New("token_endpoint_auth_method must be none: such clients are public")
	}
	strs := append([]string{doc.ClientName, doc.ClientURI}, doc.RedirectURIs...)
	strs = append(append(strs, doc.GrantTypes...), doc.ResponseTypes...)
	for _, s := range strs {
		if strings.IndexByte(s, 0) >= 0 {
			return OAuthClient{}, errors.New("it must not contain a NUL character (U+0000)")
		}
	}
	grants := []string{"authorization_code", "refresh_token"}
	if doc.GrantTypes != nil {
		if !slices.Contains(doc.GrantTypes, "authorization_code") {
			return OAuthClient{}, errors.New("grant_types must include authorization_code")
		}
		grants = slices.DeleteFunc(slices.Clone(grants), func(g string) bool { return !slices.Contains(doc.GrantTypes, g) })
	}
	if doc.ResponseTypes != nil && !slices.Contains(doc.ResponseTypes, "code") {
		return OAuthClient{}, errors.New("response_types must include code")
	}
	c, err := normaliseRegistration(OAuthClientRegistration{
		RedirectURIs: doc.RedirectURIs, TokenEndpointAuthMethod: AuthMethodNone, GrantTypes: grants,
		ResponseTypes: []string{"code"}, ClientName: doc.ClientName, ClientURI: doc.ClientURI,
	}, callbacks)
	if err != nil {
		return OAuthClient{}, err
	}
	c.ClientID = clientID
	return c, nil
}
