package main

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// shutdownGrace bounds a graceful stop: in-flight requests and running jobs
// get this long to finish before they are cut.
const shutdownGrace = 20 * time.Second

// jobsCancelGrace is how long cancelled jobs get to return once the grace
// is over; River retries them later.
const jobsCancelGrace = 5 * time.Second

// inFlight counts the requests a handler is serving, for the shutdown's
// log line.
type inFlight struct{ n atomic.Int64 }

// wrap counts the requests next serves.
func (f *inFlight) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.n.Add(1)
		defer f.n.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// shutdown stops srv and the jobs gracefully and at once, within grace:
// srv closes its listener (no new connection is accepted) and waits for the
// requests in flight, and River stops fetching and waits for the jobs
// running. Whatever is left when grace is over is cut: connections closed,
// jobs cancelled (River retries them). It logs what was in flight and how
// long the stop took.
func shutdown(srv *http.Server, j *jobs, requests *inFlight, grace time.Duration, log *slog.Logger) {
	start := time.Now()
	log.Info("shutting down", "requests_in_flight", requests.n.Load(), "grace", grace.String())
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := srv.Shutdown(ctx); err != nil {
			log.Error("http shutdown: closing the requests still running", "err", err, "requests_in_flight", requests.n.Load())
			_ = srv.Close()
		}
	})
	wg.Go(func() {
		if err := j.Stop(ctx); err != nil {
			log.Error("river shutdown: cancelling the jobs still running", "err", err)
			cctx, ccancel := context.WithTimeout(context.Background(), jobsCancelGrace)
			defer ccancel()
			_ = j.Client.StopAndCancel(cctx)
		}
	})
	wg.Wait()
	log.Info("drained", "took_ms", time.Since(start).Milliseconds())
}
