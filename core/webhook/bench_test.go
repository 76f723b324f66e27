package webhook_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

// BenchmarkSignedDeliveries is the fan-out figure of `make bench`: signed
// deliveries per second to a loopback receiver, each an attempt as a job
// makes it (read the delivery and its event, build and sign the body, POST
// it through the SSRF-guarded client, record the outcome), 16 at a time.
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
	b.ReportMetric(float64(len(ids))/time.Since(start).Seconds(), "deliveries/s")
}
