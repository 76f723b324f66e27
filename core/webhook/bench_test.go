package webhook_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

// BenchmarkSignedDeliveries is the fan-out figure of `make bench`: signed
// deliveries per second to a loopback receiver, each an attempt as a job
// makes it (read the delivery and its event, build and sign the body, POST
// it through the SSRF-guarded client, record the outcome), 16 at a time,
// beside a bare go-sdk server's SELECT 1 on the same pool.
func BenchmarkSignedDeliveries(b *testing.B) {
	ctx := context.Background()
	env := apptest.New(b)
	_, owner := env.SignIn(b, env.OwnerEmail)
	rcv := env.Receiver(b, http.StatusNoContent)
	if _, err := env.App.Webhooks.Create(ctx, owner, webhook.EndpointInput{URL: rcv.URL + "/", Events: []string{"all"}}); err != nil {
		b.Fatal(err)
	}
	env.Clock.Advance(time.Second)
	err := pgx.BeginFunc(ctx, env.App.DB, func(tx pgx.Tx) error {
		for range b.N {
			if err := env.App.RecordEvent(ctx, tx, core.EventRecord{WorkspaceID: env.WorkspaceID, Type: core.EventSendCreated, Mode: core.ModeTest, SendID: "send_bench"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	rows, err := env.App.DB.Query(ctx, `SELECT id FROM webhook_deliveries`)
	if err != nil {
		b.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.Fatal(err)
	}
	work := make(chan string)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range webhook.MaxInFlightPerEndpoint {
		wg.Go(func() {
			for id := range work {
				if err := env.App.Webhooks.Attempt(ctx, webhook.DeliverArgs{DeliveryID: id, Cycle: 1, Attempt: 1}); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	took := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(len(ids))/took.Seconds(), "deliveries/s")
	// Beside it: as many calls of a bare go-sdk server's SELECT 1 on the
	// same pool, as many at a time.
	bare := bareCalls(b, apptest.BareSelect1(b, env.App.DB), len(ids), webhook.MaxInFlightPerEndpoint)
	b.ReportMetric(float64(len(ids))/bare.Seconds(), "bare-calls/s")
	b.ReportMetric(float64(took)/float64(bare), "x-bare")
}

// bareCalls makes n calls of the bare server at url from workers sessions
// at once and returns how long they took.
func bareCalls(b *testing.B, url string, n, workers int) time.Duration {
	tr := apptest.BenchTransport()
	sessions := make([]*sdk.ClientSession, workers)
	for i := range sessions {
		sessions[i] = apptest.MCPSession(b, url, "", tr)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for _, cs := range sessions {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				if res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: apptest.BareSelect1Tool, Arguments: map[string]any{}}); err != nil || res.IsError {
					b.Errorf("bare call: %v %v", err, res)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}
