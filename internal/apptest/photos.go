package apptest

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"

	"github.com/giftwell/giftwell/internal/photofetch"
)

// AllowPhotoServer lets the App import photos from srv, a test's httptest
// TLS server on loopback, despite the public-address rule (as the
// operator's allowed prefixes do) and trusting its certificate: it
// rebuilds the real fetcher of internal/photofetch.
func (e *Env) AllowPhotoServer(t testing.TB, srv *httptest.Server) {
	t.Helper()
	setPhotoFetcher(t, e, []string{srv.URL + "/"}, trusting(srv))
}

// AllowPhotoPrefixes gives the App the real photo fetcher with the
// operator's allowed prefixes (GIFTWELL_WEBHOOK_ALLOW_URLS), as serve
// builds it.
func (e *Env) AllowPhotoPrefixes(t testing.TB, prefixes ...string) {
	t.Helper()
	setPhotoFetcher(t, e, prefixes, nil)
}

// setPhotoFetcher gives the App's artwork the real photo fetcher allowing
// prefixes, with tlsConfig (nil: the system's roots).
func setPhotoFetcher(t testing.TB, e *Env, prefixes []string, tlsConfig *tls.Config) {
	t.Helper()
	f, err := photofetch.New(photofetch.Options{AllowPrefixes: prefixes, TLSConfig: tlsConfig})
	if err != nil {
		t.Fatalf("apptest: photo fetcher: %v", err)
	}
	e.App.Artwork.Photos = f
}
