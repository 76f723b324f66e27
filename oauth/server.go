package oauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/tools"
)

// AuthorizationServerPath is where RFC 8414 places the authorization server's
// metadata for an issuer without a path.
const AuthorizationServerPath = "/.well-known/oauth-authorization-server"

// MaxRegistrationBytes bounds the body of POST /oauth/register.
const MaxRegistrationBytes = 16 << 10

// AuthorizationServer is the RFC 8414 authorization-server metadata document.
type AuthorizationServer struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	RevocationEndpoint                         string   `json:"revocation_endpoint"`
	ScopesSupported                            []string `json:"scopes_supported"`
	ResponseTypesSupported                     []string `json:"response_types_supported"`
	ResponseModesSupported                     []string `json:"response_modes_supported"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethodsSupported     []string `json:"revocation_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
	ServiceDocumentation                       string   `json:"service_documentation,omitempty"`
}

// NewAuthorizationServer builds the metadata of the authorization server on
// the site of cfg; its issuer is the site URL, the one the protected-resource
// documents of /mcp and /chatgpt/mcp name.
func NewAuthorizationServer(cfg core.Config) AuthorizationServer {
	site := cfg.SiteURL
	auth := []string{connect.AuthMethodNone, connect.AuthMethodClientSecretBasic, connect.AuthMethodClientSecretPost}
	return AuthorizationServer{
		Issuer:                                     site,
		AuthorizationEndpoint:                      site + "/oauth/authorize",
		TokenEndpoint:                              site + "/oauth/token",
		RegistrationEndpoint:                       site + "/oauth/register",
		RevocationEndpoint:                         site + "/oauth/revoke",
		ScopesSupported:                            scopeStrings(),
		ResponseTypesSupported:                     []string{"code"},
		ResponseModesSupported:                     []string{"query"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported:          auth,
		RevocationEndpointAuthMethodsSupported:     auth,
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseIssParameterSupported: true,
		ClientIDMetadataDocumentSupported:          true,
	}
}

// AuthorizationServerHandler serves the RFC 8414 document. Mount it at
// AuthorizationServerPath (and, for clients that append the resource path as
// RFC 8414 §3.1 does for issuers with a path, under it too).
func AuthorizationServerHandler(cfg core.Config) http.Handler {
	return staticJSON(NewAuthorizationServer(cfg))
}

// RegistrationHandler serves POST /oauth/register (RFC 7591): one JSON
// object of client metadata in (trailing bytes are refused), the registered
// client out with 201; another method is 405 invalid_request. Errors are RFC 7591's
// {error, error_description}: invalid_redirect_uri for a refused redirect
// URI, server_error (503 while the database is unavailable, 500 for an
// unexpected error), invalid_client_metadata for anything else (a field
// holding a NUL character or bytes that are not UTF-8 among them).
func RegistrationHandler(app *giftwell.App, log *slog.Logger) http.Handler {
	return onlyPost(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body must be application/json")
			return
		}
		raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRegistrationBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeOAuthError(w, http.StatusRequestEntityTooLarge, "invalid_client_metadata", "the body is larger than 16 KiB")
				return
			}
			writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body could not be read in full")
			return
		}
		reg, err := decodeRegistration(raw)
		if err != nil {
			writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", err.Error())
			return
		}
		// A NUL or bytes that are not UTF-8 in any field: refused before
		// anything is stored, naming the field.
		if err := tools.CheckJSON(raw); err != nil {
			writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", core.AsError(err).Message)
			return
		}
		client, err := app.Connect.RegisterOAuthClient(r.Context(), reg, remoteIP(r))
		if err != nil {
			e := core.AsError(err)
			if e.Code == core.CodeRateLimit {
				w.Header().Set("Retry-After", strconv.FormatInt((e.RetryAfterMs+999)/1000, 10))
				writeOAuthError(w, http.StatusTooManyRequests, "rate_limited", e.Message)
				return
			}
			if core.Unavailable(e) {
				log.ErrorContext(r.Context(), "oauth register: service unavailable", "err", err)
				writeUnavailable(w)
				return
			}
			if e.Code == core.CodeInternal {
				log.ErrorContext(r.Context(), "oauth register", "err", err)
				writeOAuthError(w, http.StatusInternalServerError, "server_error", "something went wrong; try again")
				return
			}
			code := "invalid_client_metadata"
			if len(e.Fields) > 0 && strings.HasPrefix(e.Fields[0], "redirect_uris") {
				code = "invalid_redirect_uri"
			}
			writeOAuthError(w, http.StatusBadRequest, code, e.Message)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(client)
	})
}

// decodeRegistration reads a registration body: one JSON object of client
// metadata and nothing after it but white space.
func decodeRegistration(raw []byte) (connect.OAuthClientRegistration, error) {
	var reg connect.OAuthClientRegistration
	notObject := errors.New("the body is not a JSON object of client metadata")
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return reg, notObject
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&reg); err != nil {
		return reg, notObject
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return reg, errors.New("the body must hold one JSON object and nothing after it")
	}
	return reg, nil
}

// remoteIP is the connection's address without its port. Registration
// counts it directly: the OAuth face trusts no forwarding header.
func remoteIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// writeOAuthError writes an OAuth error response (RFC 6749 §5.2, RFC 7591 §3.2.2).
func writeOAuthError(w http.ResponseWriter, status int, code, description string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description,omitempty"`
	}{code, description})
}

// staticJSON serves a public JSON document built once, to GET and HEAD,
// from any origin (publicCORS).
func staticJSON(doc any) http.Handler {
	body, err := json.Marshal(doc)
	if err != nil {
		panic("oauth: metadata: " + err.Error()) // plain strings cannot fail to marshal
	}
	return publicCORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, core.Errorf(core.CodeMethodNotAllowed, "%s is not allowed here; use GET", r.Method))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		if r.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(body)
	}), http.MethodGet, http.MethodHead)
}

// scopeStrings lists core.AllScopes as strings.
func scopeStrings() []string {
	out := make([]string, len(core.AllScopes))
	for i, s := range core.AllScopes {
		out[i] = string(s)
	}
	return out
}
