package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestCLIStaffGift(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	dsn := env.App.DB.Config().ConnString()
	_, owner := env.SignIn(t, env.OwnerEmail)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	env.TopUp(t, owner, 20_000)
	add := func(n string) string {
		t.Helper()
		in := campaign.RecipientInput{Name: "Person " + n, SourceSystem: "crm", ExternalID: "ext-" + n, Email: "p" + n + "@example.com",
			AddressMode: gift.AddressKnown, Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"}
		res, err := env.App.Approvals.AddToPlaybook(ctx, owner, c.ID, approval.PlaybookPersonAdd{Recipient: in})
		require.NoError(t, err)
		g, err := env.App.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: res.RecipientID})
		require.NoError(t, err)
		return g.ID
	}
	shipped, cancelled := add("1"), add("2")
	require.Equal(t, int64(2_000), balance(t, env, owner))

	sent := func(args ...string) map[string]any {
		t.Helper()
		stdout, stderr, code := runCLI(t, dsn, append([]string{"staff", "gift"}, args...)...)
		require.Equal(t, 0, code, stderr)
		require.Empty(t, stderr)
		require.Equal(t, 1, strings.Count(stdout, "\n"), "one JSON line")
		var g map[string]any
		require.NoError(t, json.Unmarshal([]byte(stdout), &g))
		return g
	}
	g := sent("--send", shipped, "--status", "in_production", "--reason", "order placed")
	require.Equal(t, "in_production", g["status"])
	require.Equal(t, map[string]any{"name": "Person 1", "street": "1 Main St", "city": "Austin", "state": "TX", "zip": "78701"},
		g["shippingAddress"], "staff see where it ships")
	require.Equal(t, "placed", g["orderState"])
	g = sent("--send", shipped, "--status", "shipped", "--carrier", "UPS", "--tracking-number", "1Z999", "--tracking-url", "https://ups.example/1Z999")
	require.Equal(t, []any{"shipped", "UPS", "1Z999", "https://ups.example/1Z999"}, []any{g["status"], g["carrier"], g["trackingNumber"], g["trackingUrl"]})

	// Cancelling credits the gift back once, however often it is repeated.
	for range 2 {
		require.Equal(t, "cancelled", sent("--send", cancelled, "--status", "cancelled")["status"])
	}
	require.Equal(t, int64(11_000), balance(t, env, owner))
	env.RequireLedgerConsistent(t, owner)

	for args, want := range map[string]string{
		"--send " + shipped + " --status ready":               "giftwell: INVALID_REQUEST: status: gift " + shipped + " is shipped and cannot become ready; it can become delivered",
		"--send " + cancelled + " --status declined":          "giftwell: INVALID_REQUEST: status: gift " + cancelled + " is cancelled and cannot become declined; it can become nothing: cancelled is an end",
		"--send send_none --status ready":                     "giftwell: NOT_FOUND: send: no gift send_none",
		"--send " + shipped + " --status approved":            "giftwell: VALIDATION_ERROR: status: must be one of awaiting_address, ready, in_production, shipped, delivered, declined, expired, cancelled",
		"--send " + cancelled + " --status ready --carrier X": "giftwell: VALIDATION_ERROR: carrier: only a shipped or delivered gift has tracking; ready has none",
		"--status ready":                "giftwell: --send is required",
		"--send " + shipped:             "giftwell: --status is required",
		"--send x --status ready extra": `giftwell: unexpected argument "extra"`,
	} {
		stdout, stderr, code := runCLI(t, dsn, append([]string{"staff", "gift"}, strings.Fields(args)...)...)
		require.Equal(t, 1, code, "%s: %s", args, stderr)
		require.Empty(t, stdout)
		require.Equal(t, want+"\n", stderr, args)
	}
}

// balance is p's balance in its mode.
func balance(t *testing.T, env *apptest.Env, p core.Principal) int64 {
	t.Helper()
	b, err := env.App.Approvals.Balance(context.Background(), p)
	require.NoError(t, err)
	return b.Cents
}
