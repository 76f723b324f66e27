// Package webhook delivers events to the HTTPS endpoints a workspace
// registers: at least once, signed, retried on the spec's schedule and
// observable (see
// docs/decisions/0075-webhook-deliveries-secrets-and-schedule.md). A
// delivery is recorded and its River job inserted in the transaction of the
// event it carries (Service.Enqueue, the kernel's EventOutbox); the attempt
// itself runs in the job, outside any transaction, through a Sender that
// dials only public addresses.
package webhook

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/giftwell/giftwell/core"
)

// Service keeps webhook endpoints and delivers events to them.
type Service struct {
	*core.Kernel
	// Sender makes one attempt; cmd/giftwell sets the SSRF-guarded HTTP
	// sender (internal/webhooksend).
	Sender Sender
	// Guard checks an endpoint's URL at registration.
	Guard URLGuard
	// BackoffUnit is the unit of the retry schedule (1, 2, 4 ... 64 units
	// between attempts): a minute unless a test or an operator says
	// otherwise (GIFTWELL_WEBHOOK_BACKOFF_UNIT).
	BackoffUnit time.Duration
	// limits bounds attempts in flight per endpoint in this process.
	limits   *endpointLimits
	limitsMu sync.Mutex
}

// Sender makes one delivery attempt: a POST of body with header to url,
// answering the HTTP status, or an error when no status came back (a
// refused address, a timeout, a reset). It never follows a redirect; a 3xx
// is answered as its status.
type Sender interface {
	Send(ctx context.Context, url string, header http.Header, body []byte) (status int, err error)
}

// URLGuard checks an endpoint URL at registration: nil when deliveries may
// go there (public HTTPS, or an operator's allowed prefix), else an error
// whose text says why.
type URLGuard interface {
	CheckURL(ctx context.Context, rawURL string) error
}

// backoff is the wait before attempt n+1 after attempt n failed (n from
// 1 to 7): 1, 2, 4, 8, 16, 32 and 64 units.
func (s *Service) backoff(n int) time.Duration {
	unit := s.BackoffUnit
	if unit <= 0 {
		unit = time.Minute
	}
	return unit << (n - 1)
}
