// Package identity is Giftwell's people and how they sign in: users, sessions, sign-in throttling, workspace keys, invitations, the team, workspace settings and modes.
package identity

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the identity subject: people and how they sign in: users, sessions, sign-in throttling, workspace keys, invitations, the team, workspace settings and modes. Its methods are
// the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
}
