// Package photofetch fetches recipient photos for core/artwork
// (artwork.PhotoFetcher) through the SSRF-guarded client of
// internal/webhooksend: https to public addresses only (checked at the
// dial, so DNS rebinding is refused), the operator's allowed prefixes, no
// proxy, no redirect followed, at most Timeout and artwork.MaxFileBytes.
//
//	f, err := photofetch.New(photofetch.Options{AllowPrefixes: prefixes})
//	if err != nil {
//		return err
//	}
//	app.Artwork.Photos = f
package photofetch

import (
	"context"
	"crypto/tls"
	"net/http"
	"time"

	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/internal/webhooksend"
)

// Timeout bounds one fetch, dial to the last byte read.
const Timeout = 10 * time.Second

// Options configure a Fetcher. The zero value is the production setting.
type Options struct {
	// AllowPrefixes are URL prefixes fetched despite the public-address
	// rule (the operator's GIFTWELL_WEBHOOK_ALLOW_URLS; see webhooksend.Options).
	AllowPrefixes []string
	// TLSConfig, when set, replaces the TLS settings; tests set it to trust
	// their image server's certificate.
	TLSConfig *tls.Config
}

// Fetcher fetches photos. It is safe for concurrent use.
type Fetcher struct {
	client *webhooksend.Client
}

var _ artwork.PhotoFetcher = (*Fetcher)(nil)

// New builds a Fetcher, or says which allowed prefix is malformed.
func New(o Options) (*Fetcher, error) {
	c, err := webhooksend.New(webhooksend.Options{
		AllowPrefixes: o.AllowPrefixes, Timeout: Timeout, MaxResponseBytes: artwork.MaxFileBytes, TLSConfig: o.TLSConfig,
	})
	if err != nil {
		return nil, err
	}
	return &Fetcher{client: c}, nil
}

// FetchPhoto implements artwork.PhotoFetcher: one GET asking for an image.
// A redirect is answered as its status, never followed; a body over
// artwork.MaxFileBytes is an error.
func (f *Fetcher) FetchPhoto(ctx context.Context, url string) (artwork.Fetched, error) {
	ans, err := f.client.Get(ctx, url, http.Header{"Accept": {"image/png, image/jpeg, image/webp"}, "User-Agent": {"Giftwell"}})
	if err != nil {
		return artwork.Fetched{}, err
	}
	return artwork.Fetched{Status: ans.Status, ContentType: ans.Header.Get("Content-Type"), Body: ans.Body}, nil
}

// Allowed implements artwork.PhotoFetcher: whether url is under one of the
// operator's allowed prefixes (GIFTWELL_WEBHOOK_ALLOW_URLS), which may be
// fetched although it is not public https.
func (f *Fetcher) Allowed(url string) bool { return f.client.Allowed(url) }
