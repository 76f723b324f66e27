package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// staffEnableLive switches a workspace from test to live mode, as the
// service's staff do on request, and prints {"workspaceId", "name", "mode",
// "changed"}; changed is false when it was live already.
func staffEnableLive(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("staff enable-live")
	workspace := fs.String("workspace", "", "the workspace ID (ws_...)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *workspace == "" {
		return fmt.Errorf("--workspace is required")
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	app := giftwell.New(d.Pool, core.Config{}, nil, nil)
	out, err := app.Identity.EnableLive(ctx, *workspace)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(out)
}

// staffGift moves one gift forward, as the service's staff do for the
// fulfilment partner (campaign.Service.MoveGift), or confirms a
// shipping-quote gift's final price (--final-price,
// campaign.Service.ConfirmFinalPrice: a balance-paid gift whose amount
// changed fails with BALANCE_MISMATCH and waits for staff), and prints the gift as
// one JSON line with its shippingAddress (null while there is none). An
// illegal move fails with its code and message.
func staffGift(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlags("staff gift")
	send := fs.String("send", "", "the gift ID (send_...)")
	status := fs.String("status", "", "the status it becomes: ready, in_production, shipped, delivered, declined, expired or cancelled")
	carrier := fs.String("carrier", "", "the shipping carrier (shipped or delivered only)")
	number := fs.String("tracking-number", "", "the carrier's tracking number (shipped or delivered only)")
	trackingURL := fs.String("tracking-url", "", "where the shipment can be followed (shipped or delivered only)")
	reason := fs.String("reason", "", "why, recorded in the send.status_changed event")
	finalPrice := fs.Int64("final-price", 0, "a shipping-quote gift's final price in cents, delivery included")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *send == "":
		return fmt.Errorf("--send is required")
	case *status == "" && *finalPrice == 0:
		return fmt.Errorf("--status is required")
	case *status != "" && *finalPrice != 0:
		return fmt.Errorf("--status and --final-price are separate decisions; give one")
	}
	d, err := openDatabase(ctx, dataDir())
	if err != nil {
		return err
	}
	defer d.Close()
	app := giftwell.New(d.Pool, core.Config{}, nil, nil)
	// A test gift the move makes ready, in_production or shipped gets the
	// simulator's next step, which serve works (unless its simulator is off).
	app.Gifts.TestFulfilment = envBool("GIFTWELL_TEST_FULFILMENT", true)
	if err := insertJobs(d.Pool, app); err != nil {
		return err
	}
	var g gift.Gift
	if *finalPrice != 0 {
		g, err = app.Gifts.ConfirmFinalPrice(ctx, *send, *finalPrice)
	} else {
		g, err = app.Gifts.MoveGift(ctx, gift.GiftMove{
			SendID: *send, To: gift.SendStatus(*status), Reason: *reason,
			Carrier: *carrier, TrackingNumber: *number, TrackingURL: *trackingURL,
		})
	}
	if err != nil {
		return err
	}
	addr, err := app.GiftLinks.ShippingAddress(ctx, g.ID)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(staffGiftLine{Gift: g, ShippingAddress: addr})
}

// staffGiftLine is what staff gift prints: the gift and, for the staff who
// ship it, where it goes (the recipient's confirmed address, which no key,
// connection or signed-in read shows).
type staffGiftLine struct {
	gift.Gift
	ShippingAddress *giftlink.Address `json:"shippingAddress"`
}
