package apptest

import (
	"crypto/tls"
	"crypto/x509"
	"net/http/httptest"
)

// trusting is a TLS configuration that trusts srv's certificate, for a
// fetcher allowed to reach a test's httptest TLS server on loopback.
func trusting(srv *httptest.Server) *tls.Config {
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	return &tls.Config{RootCAs: roots}
}
