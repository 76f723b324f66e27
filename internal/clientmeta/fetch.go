// Package clientmeta fetches OAuth client ID metadata documents for
// core/connect (connect.ClientMetadataFetcher) through the SSRF-guarded
// client of internal/webhooksend: https to public addresses only (checked
// at the dial, so DNS rebinding is refused), the operator's allowed
// prefixes, no proxy, no redirect followed, at most 5 seconds and
// connect.MaxClientDocumentBytes. It reads the answer's HTTP caching
// headers; core bounds the lifetime they give.
//
//	f, err := clientmeta.New(clientmeta.Options{AllowPrefixes: prefixes})
//	if err != nil {
//		return err
//	}
//	app.Connect.ClientMetadata = f
package clientmeta

import (
	"context"
	"crypto/tls"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/internal/webhooksend"
)

// Timeout bounds one fetch, dial to the last byte read.
const Timeout = 5 * time.Second

// Options configure a Fetcher. The zero value is the production setting.
type Options struct {
	// AllowPrefixes are URL prefixes fetched despite the public-address
	// rule (the operator's GIFTWELL_WEBHOOK_ALLOW_URLS; see webhooksend.Options).
	AllowPrefixes []string
	// TLSConfig, when set, replaces the TLS settings; tests set it to trust
	// their document server's certificate.
	TLSConfig *tls.Config
	// Resolver resolves names; nil means net.DefaultResolver.
	Resolver webhooksend.Resolver
	// Now is the clock an Expires header is compared with when the answer
	// has no Date; nil means time.Now.
	Now func() time.Time
}

// Fetcher fetches client ID metadata documents. It is safe for concurrent use.
type Fetcher struct {
	client *webhooksend.Client
	now    func() time.Time
}

var _ connect.ClientMetadataFetcher = (*Fetcher)(nil)

// New builds a Fetcher, or says which allowed prefix is malformed.
func New(o Options) (*Fetcher, error) {
	c, err := webhooksend.New(webhooksend.Options{
		AllowPrefixes: o.AllowPrefixes, Timeout: Timeout, MaxResponseBytes: connect.MaxClientDocumentBytes,
		TLSConfig: o.TLSConfig, Resolver: o.Resolver,
	})
	if err != nil {
		return nil, err
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Fetcher{client: c, now: now}, nil
}

// FetchClientMetadata implements connect.ClientMetadataFetcher: one GET
// with Accept: application/json. Only a 200 with a JSON content type
// (application/json or application/*+json) is a document; a redirect is
// refused, not followed. The error is a short text without the document.
func (f *Fetcher) FetchClientMetadata(ctx context.Context, url string) (connect.ClientMetadataAnswer, error) {
	ans, err := f.client.Get(ctx, url, http.Header{"Accept": {"application/json"}, "User-Agent": {"Giftwell"}})
	if err != nil {
		return connect.ClientMetadataAnswer{}, err
	}
	switch {
	case ans.Status >= 300 && ans.Status < 400:
		return connect.ClientMetadataAnswer{}, fmt.Errorf("it answered a redirect (HTTP %d), which is not followed", ans.Status)
	case ans.Status != http.StatusOK:
		return connect.ClientMetadataAnswer{}, fmt.Errorf("it answered HTTP %d", ans.Status)
	}
	if !isJSON(ans.Header.Get("Content-Type")) {
		return connect.ClientMetadataAnswer{}, fmt.Errorf("it is served as %q, not application/json", clip(ans.Header.Get("Content-Type")))
	}
	lifetime, ok := cacheLifetime(ans.Header, f.now())
	return connect.ClientMetadataAnswer{Body: ans.Body, Lifetime: lifetime, HasLifetime: ok}, nil
}

// isJSON reports whether a content type is application/json or
// application/<something>+json.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	sub, ok := strings.CutPrefix(mt, "application/")
	return ok && (sub == "json" || strings.HasSuffix(sub, "+json"))
}

// cacheLifetime is the freshness lifetime an answer's headers give (RFC
// 9111 §4.2.1): zero for Cache-Control no-store or no-cache, its max-age,
// else Expires minus Date (or now; an Expires that is not a date is in the
// past). ok is false when the headers say nothing.
func cacheLifetime(h http.Header, now time.Time) (time.Duration, bool) {
	maxAge, hasMaxAge := time.Duration(0), false
	for _, line := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(line, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store", "no-cache":
				return 0, true
			case "max-age":
				n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(value), `"`), 10, 64)
				if err != nil || n < 0 {
					return 0, true // a malformed max-age is stale (RFC 9111 §4.2.1)
				}
				maxAge, hasMaxAge = time.Duration(min(n, 1<<31))*time.Second, true
			}
		}
	}
	if hasMaxAge {
		return maxAge, true
	}
	exp := h.Get("Expires")
	if exp == "" {
		return 0, false
	}
	expires, err := http.ParseTime(exp)
	if err != nil {
		return 0, true
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	return max(expires.Sub(now), 0), true
}

// clip bounds a header's text in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
