package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/internal/apptest"
)

// staffDesk is a playbook of gift product whose signed-in owner approves
// people, for the staff commands' tests.
type staffDesk struct {
	t        *testing.T
	env      *apptest.Env
	dsn      string
	owner    core.Principal
	campaign string
}

func newStaffDesk(t *testing.T, product string) *staffDesk {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	c, err := env.App.Campaigns.CreateCampaign(context.Background(), owner, campaign.CampaignInput{
		Name: "Thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: product,
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	env.TopUp(t, owner, 50_000)
	return &staffDesk{t: t, env: env, dsn: env.App.DB.Config().ConnString(), owner: owner, campaign: c.ID}
}

// approve adds a person (mode confirm unless known) and approves them.
func (d *staffDesk) approve(n string, known bool) gift.Gift {
	d.t.Helper()
	ctx := context.Background()
	in := campaign.RecipientInput{Name: "Person " + n, Email: "p" + n + "@example.com"}
	if known {
		in.AddressMode, in.Address, in.City, in.State, in.Zip = gift.AddressKnown, "1 Main St", "Austin", "TX", "78701"
	}
	res, err := d.env.App.Approvals.AddToPlaybook(ctx, d.owner, d.campaign, approval.PlaybookPersonAdd{Recipient: in})
	require.NoError(d.t, err)
	g, err := d.env.App.Approvals.ApproveGift(ctx, d.owner, approval.QueueDecision{CampaignID: d.campaign, RecipientID: res.RecipientID})
	require.NoError(d.t, err)
	return g
}

// staff runs a staff command and returns its JSON line, or fails.
func (d *staffDesk) staff(args ...string) map[string]any {
	d.t.Helper()
	stdout, stderr, code := runCLI(d.t, d.dsn, append([]string{"staff"}, args...)...)
	require.Equal(d.t, 0, code, stderr)
	require.Equal(d.t, 1, strings.Count(stdout, "\n"), "one JSON line")
	var out map[string]any
	require.NoError(d.t, json.Unmarshal([]byte(stdout), &out))
	return out
}

// staffFails runs a staff command that must fail and returns its stderr.
func (d *staffDesk) staffFails(args ...string) string {
	d.t.Helper()
	stdout, stderr, code := runCLI(d.t, d.dsn, append([]string{"staff"}, args...)...)
	require.Equal(d.t, 1, code, stderr)
	require.Empty(d.t, stdout)
	return stderr
}

func TestCLIStaffRefund(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := newStaffDesk(t, "gourmet-snack-crate")
	g := d.approve("1", false)
	_, err := d.env.App.GiftLinks.Revoke(ctx, d.owner, g.ID, 1)
	require.NoError(t, err)
	before := balance(t, d.env, d.owner)
	r, err := d.env.App.GiftLinks.RequestRefund(ctx, d.owner, g.ID, "sent to the wrong person")
	require.NoError(t, err)

	for range 2 {
		out := d.staff("refund", "--send", g.ID, "--decision", "approve")
		require.Equal(t, []any{r.ID, "refunded", true}, []any{out["id"], out["state"], out["refunded"]})
	}
	require.Equal(t, before+g.TotalCents, balance(t, d.env, d.owner), "credited once")
	d.env.RequireLedgerConsistent(t, d.owner)

	for args, want := range map[string]string{
		"refund --send send_none --decision approve":    "giftwell: NOT_FOUND: send: gift send_none has no refund request",
		"refund --send " + g.ID + " --decision maybe":   "giftwell: VALIDATION_ERROR: decision: must be approve or reject",
		"refund --decision approve":                     "giftwell: --send is required",
		"refund --send " + g.ID:                         "giftwell: --decision is required",
		"refund --send x --decision approve extra":      `giftwell: unexpected argument "extra"`,
		"gift --send x --status ready --final-price 10": "giftwell: --status and --final-price are separate decisions; give one",
	} {
		require.Equal(t, want+"\n", d.staffFails(strings.Fields(args)...), args)
	}
	require.Contains(t, d.staffFails("gift", "--send", g.ID, "--final-price", "100"),
		"giftwell: INVALID_REQUEST: finalPrice: gift "+g.ID+" (gourmet-snack-crate) needs no shipping quote")
}

func TestCLIStaffFinalPrice(t *testing.T) {
	t.Parallel()
	d := newStaffDesk(t, "artisan-cheese-board") // delivery quoted later
	same, changed := d.approve("1", true), d.approve("2", true)
	paid := balance(t, d.env, d.owner)

	out := d.staff("gift", "--send", same.ID, "--final-price", itoa(same.TotalCents))
	require.Equal(t, []any{"confirmed", float64(same.TotalCents)}, []any{out["priceReview"], out["finalPriceCents"]})
	require.Equal(t, "in_production", d.staff("gift", "--send", same.ID, "--status", "in_production")["status"])

	// A balance-paid gift whose amount changed waits for staff; the balance
	// is never charged more.
	require.Equal(t, int64(8_900), changed.TotalCents, "the catalog's price, delivery not included")
	higher := int64(10_400)
	require.Equal(t, "giftwell: BALANCE_MISMATCH: gift "+changed.ID+" was paid $89.00"+
		" from the balance and its final price is $104.00; it waits for staff and the balance is never charged more\n",
		d.staffFails("gift", "--send", changed.ID, "--final-price", itoa(higher)))
	require.Equal(t, paid, balance(t, d.env, d.owner))
	g, err := d.env.App.Gifts.Get(context.Background(), d.owner, changed.ID)
	require.NoError(t, err)
	require.Equal(t, gift.PriceBalanceMismatch, g.PriceReview)
	require.Equal(t, higher, *g.FinalPriceCents)
	require.Equal(t, changed.TotalCents, g.TotalCents, "what the gift cost stays what the balance paid")
	require.Contains(t, d.staffFails("gift", "--send", changed.ID, "--status", "in_production"), "giftwell: BALANCE_MISMATCH: ")

	// Staff settle it at the price paid; then it may be ordered.
	require.Equal(t, "confirmed", d.staff("gift", "--send", changed.ID, "--final-price", itoa(changed.TotalCents))["priceReview"])
	require.Equal(t, "in_production", d.staff("gift", "--send", changed.ID, "--status", "in_production")["status"])
	require.Equal(t, paid, balance(t, d.env, d.owner))
	d.env.RequireLedgerConsistent(t, d.owner)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
