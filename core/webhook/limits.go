package webhook

import "sync"

// MaxInFlightPerEndpoint bounds the attempts one endpoint has in flight in
// one process, so that a slow receiver holds at most this many of the
// webhook queue's workers and never delays the others.
const MaxInFlightPerEndpoint = 8

// endpointLimits counts attempts in flight per endpoint.
type endpointLimits struct {
	mu       sync.Mutex
	inFlight map[string]int
}

// endpointLimits returns the Service's counter, made on first use.
func (s *Service) endpointLimits() *endpointLimits {
	s.limitsMu.Lock()
	defer s.limitsMu.Unlock()
	if s.limits == nil {
		s.limits = &endpointLimits{inFlight: map[string]int{}}
	}
	return s.limits
}

// acquire takes a slot of endpoint id, or reports false when it has
// MaxInFlightPerEndpoint already; release gives the slot back.
func (l *endpointLimits) acquire(id string) (release func(), ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight[id] >= MaxInFlightPerEndpoint {
		return nil, false
	}
	l.inFlight[id]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.inFlight[id]--; l.inFlight[id] == 0 {
			delete(l.inFlight, id)
		}
	}, true
}
