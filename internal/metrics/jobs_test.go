package metrics_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/metrics"
)

func TestJobOutcome(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	require.Equal(t, metrics.JobCompleted, metrics.JobOutcome(ctx, nil))
	require.Equal(t, metrics.JobFailed, metrics.JobOutcome(ctx, errors.New("smtp down")))
	require.Equal(t, metrics.JobCancelled, metrics.JobOutcome(ctx, river.JobCancel(errors.New("gone"))))
	require.Equal(t, metrics.JobSnoozed, metrics.JobOutcome(ctx, river.JobSnooze(time.Minute)))

	remote, cancel := context.WithCancelCause(ctx)
	cancel(river.ErrJobCancelledRemotely)
	require.Equal(t, metrics.JobCancelled, metrics.JobOutcome(remote, context.Canceled))
}

func TestJobMiddlewareCountsPanicsAsFailed(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	mw := m.JobMiddleware()
	job := &rivertype.JobRow{Kind: "deliver_emails"}
	require.NoError(t, mw.Work(context.Background(), job, func(context.Context) error { return nil }))
	require.Panics(t, func() {
		_ = mw.Work(context.Background(), job, func(context.Context) error { panic("boom") })
	})
	families, err := m.Registry().Gather()
	require.NoError(t, err)
	got := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "giftwell_river_jobs_total" {
			continue
		}
		for _, s := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range s.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			got[labels["kind"]+"/"+labels["outcome"]] = s.GetCounter().GetValue()
		}
	}
	require.Equal(t, map[string]float64{"deliver_emails/completed": 1, "deliver_emails/failed": 1}, got)
}

func TestRegistriesAreSeparate(t *testing.T) {
	t.Parallel()
	a, b := metrics.New(), metrics.New()
	a.ObserveRequest("rest", "GET /workflow", 200, time.Millisecond)
	names := func(m *metrics.Metrics) []string {
		families, err := m.Registry().Gather()
		require.NoError(t, err)
		var out []string
		for _, f := range families {
			out = append(out, f.GetName())
		}
		return out
	}
	require.Contains(t, names(a), "giftwell_http_requests_total")
	require.NotContains(t, names(b), "giftwell_http_requests_total", "b's registry saw no request")
}
