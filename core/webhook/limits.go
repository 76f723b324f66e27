package webhook

import "sync"

// Fair delivery. Serve runs a fixed pool of webhook workers per process; a
// workspace whose endpoints hang must not take them from the others. An
// attempt takes a slot of its endpoint and of its workspace, or waits a
// moment (ErrEndpointBusy: the job is snoozed, and still made on its
// schedule, a moment late):
const (
	// MaxInFlightPerEndpoint bounds the attempts one endpoint has in flight
	// in one process.
	MaxInFlightPerEndpoint = 8
	// MaxInFlightPerWorkspace bounds the attempts of one workspace's
	// endpoints in flight in one process: half of serve's 32 webhook
	// workers, so that one workspace's hanging endpoints leave the other
	// half to every other workspace, and one hanging endpoint leaves half
	// of its workspace's share to the workspace's other endpoints.
	MaxInFlightPerWorkspace = 16
	// BreakerFailures is how many attempts in a row an endpoint may fail
	// before its breaker opens: from then on it has one attempt in flight
	// at a time, until one succeeds.
	BreakerFailures = 3
)

// endpointLimits counts attempts in flight per endpoint and per workspace,
// and each endpoint's failures in a row (its breaker), in one process.
type endpointLimits struct {
	mu        sync.Mutex
	inFlight  map[string]int
	workspace map[string]int
	failures  map[string]int
}

// endpointLimits returns the Service's counter, made on first use.
func (s *Service) endpointLimits() *endpointLimits {
	s.limitsMu.Lock()
	defer s.limitsMu.Unlock()
	if s.limits == nil {
		s.limits = &endpointLimits{inFlight: map[string]int{}, workspace: map[string]int{}, failures: map[string]int{}}
	}
	return s.limits
}

// acquire takes a slot of endpoint id of workspace ws, or reports false
// when the endpoint (one slot while its breaker is open) or the workspace
// has all it may have; release gives the slot back and records whether
// the attempt delivered (closing the breaker) or failed (counting toward
// opening it).
func (l *endpointLimits) acquire(ws, id string) (release func(delivered bool), ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	limit := MaxInFlightPerEndpoint
	if l.failures[id] >= BreakerFailures {
		limit = 1
	}
	if l.inFlight[id] >= limit || l.workspace[ws] >= MaxInFlightPerWorkspace {
		return nil, false
	}
	l.inFlight[id]++
	l.workspace[ws]++
	return func(delivered bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.inFlight[id]--; l.inFlight[id] == 0 {
			delete(l.inFlight, id)
		}
		if l.workspace[ws]--; l.workspace[ws] == 0 {
			delete(l.workspace, ws)
		}
		if delivered {
			delete(l.failures, id)
		} else {
			l.failures[id]++
		}
	}, true
}
