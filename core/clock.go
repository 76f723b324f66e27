package core

import (
	"sync"
	"time"
)

// Clock tells the time. Services read time only through a Clock so that tests
// can move it.
type Clock interface {
	Now() time.Time
}

// SystemClock is the real clock, in UTC.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

var _ Clock = SystemClock{}

// FakeClock is a Clock that only moves when told to. Safe for concurrent use.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

var _ Clock = (*FakeClock)(nil)

// NewFakeClock returns a FakeClock stopped at t.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t.UTC()} }

// Now returns the clock's time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t.UTC()
}

// UTC is t in UTC: times read from PostgreSQL arrive in the local zone.
func UTC(t time.Time) time.Time { return t.UTC() }

// UTCPtr is utc for an optional time.
func UTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
