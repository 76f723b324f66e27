package approval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/core/webhook"
)

// emptyStrings returns the JSON paths in v's encoding whose value is "".
func emptyStrings(t *testing.T, v any) []string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(raw, &doc))
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case string:
			if v == "" {
				out = append(out, path)
			}
		case map[string]any:
			for k, e := range v {
				walk(path+"."+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("$", doc)
	return out
}

// TestNoEmptyStandIns walks what agents and webhooks read about a test
// gift walked to delivered (no tracking URL) and a person waiting on a
// playbook (no gift): the add results, the gift, its tracking item, the
// feed, the gift's timeline, the queue, an outcome reported without a
// source, a preview, the webhook bodies and the deliveries list.
// A field with no value is left out, never "".
func TestNoEmptyStandIns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	app := w.env.App
	rcv := w.env.Receiver(t)
	ep, err := app.Webhooks.Create(ctx, w.owner, webhook.EndpointInput{URL: rcv.URL + "/hook", Events: []string{"all"}})
	require.NoError(t, err)

	c := w.playbook("gourmet-snack-crate", 100_000, 10_000)
	w.env.TopUp(t, w.owner, 30_000)
	added, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: knownPerson("1")})
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, added.Approval.State)
	sendID := added.Approval.SendID
	for _, step := range []gift.SendStatus{gift.SendInProduction, gift.SendShipped, gift.SendDelivered} {
		moved, err := app.Gifts.SimulateFulfilment(ctx, sendID, step)
		require.NoError(t, err)
		require.True(t, moved, step)
	}
	// A gift not shipped yet: no carrier, tracking number or URL.
	ready, err := app.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: knownPerson("3")})
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalAutoApproved, ready.Approval.State)
	// A person who waits: a playbook without auto-approve.
	off := w.playbook("gourmet-snack-crate", 0, 0)
	waiting, err := app.Approvals.AddToPlaybook(ctx, w.key, off.ID, approval.PlaybookPersonAdd{Recipient: newPerson("2")})
	require.NoError(t, err)
	require.Equal(t, campaign.ApprovalWaiting, waiting.Approval.State)

	// Deliver every webhook.
	rows, err := app.DB.Query(ctx, `SELECT id, cycle, attempts + 1 FROM webhook_deliveries WHERE state IN ('pending', 'retrying') ORDER BY event_seq, id`)
	require.NoError(t, err)
	pending, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.DeliverArgs, error) {
		var a webhook.DeliverArgs
		return a, r.Scan(&a.DeliveryID, &a.Cycle, &a.Attempt)
	})
	require.NoError(t, err)
	require.NotEmpty(t, pending)
	for _, a := range pending {
		require.NoError(t, app.Webhooks.Attempt(ctx, a))
	}

	read := map[string]any{"added": added, "waiting": waiting}
	read["gift"], err = app.Gifts.Get(ctx, w.key, sendID)
	require.NoError(t, err)
	read["trackingItem"], err = app.Tracking.Item(ctx, w.key, sendID)
	require.NoError(t, err)
	items, err := app.Tracking.Items(ctx, w.key, tracking.ItemsInput{})
	require.NoError(t, err)
	require.Len(t, items.Items, 2)
	read["trackingItems"] = items
	read["readyGift"], err = app.Gifts.Get(ctx, w.key, ready.Approval.SendID)
	require.NoError(t, err)
	// The feed holds back events until every transaction older than them
	// ended, on the whole server: tests of other packages share it.
	var feed tracking.EventPage
	require.Eventually(t, func() bool {
		feed, err = app.Tracking.Events(ctx, w.key, tracking.EventsInput{Limit: 100})
		return err == nil && len(feed.Items) > 0
	}, time.Minute, 50*time.Millisecond, "the feed shows the events: %v", err)
	read["feed"] = feed
	read["timeline"], err = app.Tracking.GiftEvents(ctx, w.key, sendID)
	require.NoError(t, err)
	read["queue"], err = app.Approvals.Queue(ctx, w.key, off.ID)
	require.NoError(t, err)
	read["outcome"], err = app.Tracking.RecordOutcome(ctx, w.key, tracking.OutcomeInput{SendID: sendID, Outcome: tracking.OutcomeReplied})
	require.NoError(t, err)
	read["preview"], err = app.Campaigns.PreviewCampaign(ctx, w.key, off.ID)
	require.NoError(t, err)
	types := map[string]bool{}
	var bodies []any
	for _, r := range rcv.Requests() {
		var body map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &body))
		types[body["type"].(string)] = true
		bodies = append(bodies, body)
	}
	require.True(t, types["playbook.person_waiting"], "a person_waiting delivery: %v", types)
	require.True(t, types["send.tracking_changed"], "a tracking_changed delivery: %v", types)
	read["webhookBodies"] = bodies
	for _, source := range []string{webhook.SourceGift, webhook.SourcePlaybook} {
		page, err := app.Webhooks.Deliveries(ctx, w.owner, ep.ID, webhook.DeliveryQuery{Source: source})
		require.NoError(t, err)
		require.NotEmpty(t, page.Items, source)
		read["deliveries "+source] = page
	}

	var empty []string
	for name, v := range read {
		for _, path := range emptyStrings(t, v) {
			empty = append(empty, name+" "+path)
		}
	}
	require.Empty(t, empty, "empty strings stand in for values these lack")
}
