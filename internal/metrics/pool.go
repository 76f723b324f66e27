package metrics

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// WatchPool registers a collector that reads pool.Stat() at each scrape.
// It panics when a pool is already watched: one pool per registry.
func (m *Metrics) WatchPool(pool *pgxpool.Pool) {
	m.registry.MustRegister(newPoolCollector(pool))
}

// poolCollector reports a pgxpool's statistics as gauges and counters.
type poolCollector struct {
	pool *pgxpool.Pool

	acquiredConns, idleConns, constructingConns, totalConns, maxConns *prometheus.Desc
	acquireCount, emptyAcquireCount, canceledAcquireCount, newConns   *prometheus.Desc
	acquireSeconds                                                    *prometheus.Desc
}

var _ prometheus.Collector = (*poolCollector)(nil)

func newPoolCollector(pool *pgxpool.Pool) *poolCollector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("giftwell_db_pool_"+name, help, nil, nil)
	}
	return &poolCollector{
		pool:                 pool,
		acquiredConns:        d("acquired_conns", "Connections currently in use."),
		idleConns:            d("idle_conns", "Connections currently idle."),
		constructingConns:    d("constructing_conns", "Connections being opened."),
		totalConns:           d("total_conns", "Connections open (acquired, idle and being opened)."),
		maxConns:             d("max_conns", "The pool's connection limit."),
		acquireCount:         d("acquires_total", "Successful acquires from the pool."),
		emptyAcquireCount:    d("empty_acquires_total", "Acquires that had to wait for a connection."),
		canceledAcquireCount: d("canceled_acquires_total", "Acquires cancelled by their context."),
		newConns:             d("new_conns_total", "Connections opened."),
		acquireSeconds:       d("acquire_seconds_total", "Time spent acquiring connections."),
	}
}

// Describe sends the collector's descriptors.
func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.acquiredConns, c.idleConns, c.constructingConns, c.totalConns, c.maxConns,
		c.acquireCount, c.emptyAcquireCount, c.canceledAcquireCount, c.newConns, c.acquireSeconds} {
		ch <- d
	}
}

// Collect reads the pool's statistics once and sends them.
func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	gauge(c.acquiredConns, float64(s.AcquiredConns()))
	gauge(c.idleConns, float64(s.IdleConns()))
	gauge(c.constructingConns, float64(s.ConstructingConns()))
	gauge(c.totalConns, float64(s.TotalConns()))
	gauge(c.maxConns, float64(s.MaxConns()))
	counter(c.acquireCount, float64(s.AcquireCount()))
	counter(c.emptyAcquireCount, float64(s.EmptyAcquireCount()))
	counter(c.canceledAcquireCount, float64(s.CanceledAcquireCount()))
	counter(c.newConns, float64(s.NewConnsCount()))
	counter(c.acquireSeconds, s.AcquireDuration().Seconds())
}
