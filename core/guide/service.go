// Package guide is Giftwell's the workflow guide agents read first.
package guide

import (
	"github.com/giftwell/giftwell/core"
)

// Service is the guide subject: the workflow guide agents read first. Its methods are
// the transaction boundaries of the subject.
type Service struct {
	*core.Kernel
}
