package oauth

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/connect"
)

// A client may name itself by the https URL of its client ID metadata
// document instead of registering (connect.ResolveOAuthClientDocument).
// The authorization and token endpoints resolve such a client_id before
// fosite looks the client up, outside any transaction: the document is
// fetched when no fresh copy is kept, and from then on the client is a
// registered public client to fosite and the Store. Revocation fetches
// nothing: it works with the copy kept.

// authorizeClient is the client an authorization request names: a
// registered one, or one named by its metadata document URL (fetched when
// needed). It has answered with an error page when ok is false: never a
// redirect, since no redirect URI is verified yet.
func (s *Server) authorizeClient(w http.ResponseWriter, r *http.Request, clientID string) (connect.OAuthClient, bool) {
	var (
		client connect.OAuthClient
		err    error
	)
	if connect.IsClientMetadataURL(clientID) {
		client, err = s.app.Connect.ResolveOAuthClientDocument(r.Context(), clientID)
	} else {
		client, err = s.app.Connect.OAuthClientByID(r.Context(), clientID)
	}
	switch {
	case err == nil:
		return client, true
	case core.Unavailable(err):
		s.unavailablePage(w, r, err)
	case connect.IsClientMetadataURL(clientID) && core.ErrorCode(err) == core.CodeValidation:
		s.errorPage(w, http.StatusBadRequest, "The app asking to connect names itself by "+documentHost(clientID)+
			", but cannot be used. "+sentence(core.AsError(err)))
	default:
		if core.ErrorCode(err) == core.CodeInternal {
			s.log.ErrorContext(r.Context(), "oauth authorize client", "err", err)
		}
		s.errorPage(w, http.StatusBadRequest, "The app asking to connect is not registered.")
	}
	return connect.OAuthClient{}, false
}

// tokenClient resolves the client_id of a token request (form or HTTP
// Basic) that names a metadata document, before fosite authenticates the
// client. It has answered when ok is false: invalid_client for a document
// that cannot be fetched or is not valid, server_error 503 while the
// database is unavailable.
func (s *Server) tokenClient(w http.ResponseWriter, r *http.Request) bool {
	clientID := r.PostForm.Get("client_id")
	if id, _, ok := r.BasicAuth(); ok {
		if u, err := url.QueryUnescape(id); err == nil {
			clientID = u
		}
	}
	if !connect.IsClientMetadataURL(clientID) {
		return true
	}
	_, err := s.app.Connect.ResolveOAuthClientDocument(r.Context(), clientID)
	switch {
	case err == nil:
		return true
	case core.Unavailable(err):
		s.log.ErrorContext(r.Context(), "oauth token: service unavailable", "err", err)
		writeUnavailable(w)
	default:
		if core.ErrorCode(err) == core.CodeInternal {
			s.log.ErrorContext(r.Context(), "oauth token client", "err", err)
		}
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client", sentence(core.AsError(err)))
	}
	return false
}

// documentHost is the host of a metadata document URL client_id, which the
// consent page shows beside the name the document claims; "" for a
// registered client.
func documentHost(clientID string) string {
	if !connect.IsClientMetadataURL(clientID) {
		return ""
	}
	u, err := url.Parse(clientID)
	if err != nil {
		return ""
	}
	return u.Host
}
