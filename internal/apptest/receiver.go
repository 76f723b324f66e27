package apptest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Receiver is a loopback webhook receiver the Env's webhooks may reach: it
// keeps every request and answers with the statuses it is given, one per
// request, the last repeating (200 when none). A 3xx carries a Location,
// so a redirect that were followed would be seen.
type Receiver struct {
	*httptest.Server
	mu       sync.Mutex
	statuses []int
	got      []Received
}

// Received is one request a Receiver got.
type Received struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Receiver starts a Receiver answering statuses and allows its URL
// (AllowWebhookURLs). It stops with the test.
func (e *Env) Receiver(t testing.TB, statuses ...int) *Receiver {
	t.Helper()
	r := &Receiver{statuses: statuses}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	e.AllowWebhookURLs(t, r.URL+"/")
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.got = append(r.got, Received{Path: req.URL.Path, Header: req.Header.Clone(), Body: body})
	status := http.StatusOK
	if len(r.statuses) > 0 {
		status = r.statuses[0]
		if len(r.statuses) > 1 {
			r.statuses = r.statuses[1:]
		}
	}
	r.mu.Unlock()
	if status >= 300 && status < 400 {
		w.Header().Set("Location", "/elsewhere")
	}
	w.WriteHeader(status)
}

// Answer sets the statuses the next requests get.
func (r *Receiver) Answer(statuses ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.statuses = statuses
}

// Requests returns what the Receiver got so far, oldest first.
func (r *Receiver) Requests() []Received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Received(nil), r.got...)
}
