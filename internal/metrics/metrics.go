// Package metrics is Giftwell's Prometheus instrumentation: HTTP requests
// by face, route and status with their durations, River job outcomes, and
// the database pool's statistics. Each process (and each test) builds its
// own registry with New; nothing registers with Prometheus's global default.
//
//	m := metrics.New()
//	m.WatchPool(pool)                                     // pgxpool gauges
//	river.Config{Middleware: []rivertype.Middleware{m.JobMiddleware()}}
//	mux.Handle("GET /metrics", m.Handler())
//	m.ObserveRequest("rest", "GET /campaigns/{id}", 200, d) // from the access log
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is one process's registry and the instruments in it.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	jobs     *prometheus.CounterVec
}

// New returns a Metrics with its own registry, holding the request and job
// instruments and Go's runtime and process collectors.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "giftwell_http_requests_total",
			Help: "HTTP requests served, by face (rest, mcp, web, oauth, site), route (a route template, MCP mount and tool, or a fixed word) and status.",
		}, []string{"face", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "giftwell_http_request_duration_seconds",
			Help:    "How long HTTP requests took, by face and route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"face", "route"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "giftwell_river_jobs_total",
			Help: "River jobs worked in this process, by job kind and outcome (completed, failed, cancelled, snoozed).",
		}, []string{"kind", "outcome"}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.jobs,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// Registry is the registry the instruments live in, for tests and for
// collectors of other packages.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// ObserveRequest counts one finished request and records its duration.
// face and route must come from bounded sets: never a raw path or an id.
func (m *Metrics) ObserveRequest(face, route string, status int, d time.Duration) {
	m.requests.WithLabelValues(face, route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(face, route).Observe(d.Seconds())
}
