package webhook

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// An endpoint has at most MaxInFlightPerEndpoint attempts in flight, a
// workspace at most MaxInFlightPerWorkspace over its endpoints, and an
// endpoint that failed BreakerFailures times in a row one, until an
// attempt delivers.
func TestEndpointLimits(t *testing.T) {
	t.Parallel()
	l := &endpointLimits{inFlight: map[string]int{}, workspace: map[string]int{}, failures: map[string]int{}}
	var held []func(bool)
	take := func(ws, id string) bool {
		release, ok := l.acquire(ws, id)
		if ok {
			held = append(held, release)
		}
		return ok
	}
	for range MaxInFlightPerEndpoint {
		require.True(t, take("ws_a", "wh_1"))
	}
	require.False(t, take("ws_a", "wh_1"), "the endpoint is full")
	for i := 0; len(held) < MaxInFlightPerWorkspace; i++ {
		require.True(t, take("ws_a", fmt.Sprintf("wh_%d", 2+i/MaxInFlightPerEndpoint)))
	}
	require.False(t, take("ws_a", "wh_9"), "the workspace is full")
	require.True(t, take("ws_b", "wh_b"), "another workspace is not")
	for _, r := range held {
		r(true)
	}
	held = nil

	// Three failures in a row open the breaker: one attempt at a time.
	for range BreakerFailures {
		r, ok := l.acquire("ws_a", "wh_1")
		require.True(t, ok)
		r(false)
	}
	require.True(t, take("ws_a", "wh_1"))
	require.False(t, take("ws_a", "wh_1"), "an open breaker lets one attempt through")
	held[0](true)
	held = nil
	for range MaxInFlightPerEndpoint {
		require.True(t, take("ws_a", "wh_1"), "a delivery closed the breaker")
	}
}
