package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
)

// staffRefund decides a gift's refund request, as the service's staff do
// (giftlink.Service.DecideRefund), and prints the request as one JSON line:
// approve credits a balance-paid gift to its balance, or refunds a card-paid
// one through the processor, exactly once; reject ends the request.
func staffRefund(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("staff refund")
	send := fs.String("send", "", "the gift ID (send_...)")
	decision := fs.String("decision", "", "approve or reject")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *send == "":
		return fmt.Errorf("--send is required")
	case *decision == "":
		return fmt.Errorf("--decision is required")
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	app := giftwell.New(d.Pool, core.Config{}, nil, nil)
	// A card-paid gift is refunded through the processor that took it.
	app.Ledger.Payments = paymentSettingsFromEnv().processor(app)
	if err := insertJobs(d.Pool, app); err != nil {
		return err
	}
	r, err := app.GiftLinks.DecideRefund(ctx, *send, giftlink.RefundDecision(*decision))
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(r)
}
