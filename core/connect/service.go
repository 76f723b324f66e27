// Package connect is Giftwell's who is calling: credentials resolved to a Principal (keys, sessions, OAuth connections), OAuth clients, grants and tokens.
package connect

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the connect subject: who is calling: credentials resolved to a Principal (keys, sessions, OAuth connections), OAuth clients, grants and tokens. Its methods are
// the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
}
