package apptest

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"

	"github.com/giftwell/giftwell/internal/clientmeta"
)

// AllowClientMetadataServer lets the App fetch OAuth client ID metadata
// documents from srv, a test's httptest TLS server on loopback, despite the
// public-address rule (as the operator's allowed prefixes do) and trusting
// its certificate: it rebuilds the real fetcher of internal/clientmeta.
func (e *Env) AllowClientMetadataServer(t testing.TB, srv *httptest.Server) {
	t.Helper()
	setClientMetadata(t, e, []string{srv.URL + "/"}, trusting(srv))
}

// setClientMetadata gives the App's OAuth the real document fetcher
// allowing prefixes, with tlsConfig (nil: the system's roots).
func setClientMetadata(t testing.TB, e *Env, prefixes []string, tlsConfig *tls.Config) {
	t.Helper()
	f, err := clientmeta.New(clientmeta.Options{AllowPrefixes: prefixes, TLSConfig: tlsConfig})
	if err != nil {
		t.Fatalf("apptest: client metadata fetcher: %v", err)
	}
	e.App.Connect.ClientMetadata = f
}
