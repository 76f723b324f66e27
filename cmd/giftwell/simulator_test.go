package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// readyTestGift approves a test gift for a person with a known address:
// ready, its simulator step queued.
func readyTestGift(t *testing.T, env *apptest.Env) (gift.Gift, core.Principal) {
	t.Helper()
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	env.TopUp(t, owner, 20_000)
	res, err := env.App.Approvals.AddToPlaybook(ctx, owner, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Ana", SourceSystem: "crm", ExternalID: "1", Email: "ana@example.com",
		AddressMode: gift.AddressKnown, Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701",
	}})
	require.NoError(t, err)
	g, err := env.App.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: res.RecipientID})
	require.NoError(t, err)
	require.Equal(t, gift.SendReady, g.Status)
	return g, owner
}

// The staff command moves a test gift too, and schedules the simulator's
// next step from where it left the gift (unless GIFTWELL_TEST_FULFILMENT
// is off), for serve to work.
func TestCLIStaffGiftSchedulesTheNextStep(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	g, _ := readyTestGift(t, env)
	stdout, stderr, code := runCLI(t, env.App.DB.Config().ConnString(), "staff", "gift", "--send", g.ID, "--status", "in_production")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, `"status":"in_production"`)
	var steps []string
	for _, j := range apptest.Jobs(t, env.App, gift.SimulateFulfilmentArgs{}.Kind()) {
		var a gift.SimulateFulfilmentArgs
		require.NoError(t, json.Unmarshal(j.EncodedArgs, &a))
		require.Equal(t, g.ID, a.SendID)
		steps = append(steps, string(a.Step))
	}
	require.Equal(t, []string{"in_production", "shipped"}, steps)
}

// The River client serve starts works the test-mode fulfilment simulator:
// a test gift created ready walks to delivered. The FakeClock is behind
// the real one, so every step is due at once.
func TestJobsSimulateTestFulfilment(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	g, owner := readyTestGift(t, env)

	var cfg serveConfig
	cfg.testFulfilment = true
	cfg.configure(env.App)
	startJobs(t, env, &outbox{})
	require.Eventually(t, func() bool {
		got, err := env.App.Gifts.Get(ctx, owner, g.ID)
		return err == nil && got.Status == gift.SendDelivered && got.Carrier == gift.SimulatedCarrier
	}, 30*time.Second, 100*time.Millisecond, "the simulator's three steps ran")
}

// --test-fulfilment is on by default, GIFTWELL_TEST_FULFILMENT=off turns
// it off, the flag wins over the environment, and serve hands it to the
// campaigns service.
func TestServeTestFulfilmentFlag(t *testing.T) {
	app := apptest.New(t).App
	for _, tc := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, true},
		{"off", nil, false},
		{"false", nil, false},
		{"on", nil, true},
		{"not a switch", nil, true},
		{"off", []string{"--test-fulfilment"}, true},
		{"off", []string{"--test-fulfilment=on"}, true},
		{"", []string{"--test-fulfilment=off"}, false},
		{"on", []string{"--test-fulfilment=false"}, false},
		{"", []string{"--test-fulfilment", "off"}, false},
		{"off", []string{"--test-fulfilment", "on"}, true},
		{"", []string{"-test-fulfilment", "no", "--addr", "127.0.0.1:0"}, false},
		{"off", []string{"--test-fulfilment", "--addr", "127.0.0.1:0"}, true},
	} {
		t.Setenv("GIFTWELL_TEST_FULFILMENT", tc.env)
		cfg, err := serveFlags(tc.args)
		require.NoError(t, err, "%q %v", tc.env, tc.args)
		require.Equal(t, tc.want, bool(cfg.testFulfilment), "%q %v", tc.env, tc.args)
		app.Gifts.TestFulfilment = !tc.want
		cfg.configure(app)
		require.Equal(t, tc.want, app.Gifts.TestFulfilment, "%q %v", tc.env, tc.args)
	}
	_, err := serveFlags([]string{"--test-fulfilment=sometimes"})
	require.ErrorContains(t, err, `"sometimes" is neither on nor off`)
}
