// Package connect is Giftwell's who is calling: credentials resolved to a Principal (keys, sessions, OAuth connections), OAuth clients, grants and tokens.
package connect

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the connect subject: who is calling: credentials resolved to a Principal (keys, sessions, OAuth connections), OAuth clients, grants and tokens. Its methods are
// the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
	// ClientMetadata fetches client ID metadata documents; cmd/giftwell
	// sets it (internal/clientmeta). Nil: clients cannot name themselves by
	// a document URL (ResolveOAuthClientDocument answers NOT_FOUND).
	ClientMetadata ClientMetadataFetcher
}
