package artwork

import (
	"context"
	"errors"
	"strings"
)

// Fetch failure phrases: what a caller learns of a photo that could not
// be fetched. The fetcher's own text may carry resolved addresses and the
// SSRF guard's reasons, so it is logged, never returned.
const (
	fetchTimedOut   = "timed out"
	fetchNotPublic  = "refused: not a public address"
	fetchTooLarge   = "too large (over 5 MiB)"
	fetchNoHost     = "the host name does not resolve"
	fetchTLS        = "the secure connection failed"
	fetchNoAnswer   = "the server did not answer"
	fetchCancelled  = "cancelled"
	fetchRefusedURL = "refused: the address cannot be fetched"
)

// fetchPhrase is the fixed phrase for a PhotoFetcher's error, read from
// the fetcher's short texts (internal/webhooksend's): a timeout, an
// address the guard refuses, an answer over the size cap, a name that
// does not resolve, a TLS failure; anything else is no answer.
func fetchPhrase(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(msg, "timed out"):
		return fetchTimedOut
	case errors.Is(err, context.Canceled) || strings.HasPrefix(msg, "cancelled"):
		return fetchCancelled
	case strings.Contains(msg, "not a public address") || strings.HasPrefix(msg, "dial refused"):
		return fetchNotPublic
	case strings.HasPrefix(msg, "refused"):
		return fetchRefusedURL
	case strings.Contains(msg, "larger than"):
		return fetchTooLarge
	case strings.HasPrefix(msg, "does not resolve"):
		return fetchNoHost
	case strings.HasPrefix(msg, "TLS"):
		return fetchTLS
	}
	return fetchNoAnswer
}
