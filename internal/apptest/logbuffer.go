package apptest

import (
	"bytes"
	"sync"
)

// LogBuffer is a log sink that tests read back, safe for the goroutines of
// a server under test: pass it to slog.NewJSONHandler and read String().
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (s *LogBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// String returns everything written so far.
func (s *LogBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
