package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// BenchmarkBareSDKSelect1 is the floor: a bare go-sdk stateless JSON server
// whose one tool runs SELECT 1 on the pool, called over HTTP by a go-sdk
// client. Compare BenchmarkReadToolGetGift with it to see what Giftwell's
// wrapper (auth query, checks, envelope) adds.
func BenchmarkBareSDKSelect1(b *testing.B) {
	env := apptest.New(b)
	cs := connectBench(b, apptest.BareSelect1(b, env.App.DB), "")
	benchCall(b, cs, apptest.BareSelect1Tool, map[string]any{})
}

// BenchmarkReadToolGetGift calls get_gift through the full MCP handler with
// a workspace key: authentication (one database round trip), the wrapper's
// checks, the cached server, Tool.Call and the result envelope.
func BenchmarkReadToolGetGift(b *testing.B) {
	bd := setup(b)
	products, err := bd.env.App.Catalog.Products(context.Background())
	if err != nil || len(products) == 0 {
		b.Fatalf("catalog: %v", err)
	}
	cs := connectBench(b, bd.srv.URL+"/mcp", bd.env.OwnerKey)
	benchCall(b, cs, "get_gift", map[string]any{"productId": products[0].ID})
}

func connectBench(b *testing.B, endpoint, token string) *sdk.ClientSession {
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	hc := http.DefaultClient
	if token != "" {
		hc = &http.Client{Transport: bearer{token}}
	}
	cs, err := client.Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

func benchCall(b *testing.B, cs *sdk.ClientSession, name string, args map[string]any) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("call %s: %v %v", name, err, res)
		}
	}
}

// BenchmarkReadToolListQueue calls list_queue (limit 50) through the full
// MCP handler with a workspace key on a playbook with 50 people waiting: the
// queue is computed in queue order in one read transaction (the people, the
// playbooks' commitments, earlier gifts and the balance).
func BenchmarkReadToolListQueue(b *testing.B) {
	bd := setup(b)
	ctx := context.Background()
	app := bd.env.App
	key, err := app.Connect.Authenticate(ctx, bd.env.OwnerKey)
	if err != nil {
		b.Fatal(err)
	}
	_, owner := bd.env.SignIn(b, bd.env.OwnerEmail)
	c, err := app.Campaigns.CreateCampaign(ctx, key, campaign.CampaignInput{Name: "Closed-won", Mode: campaign.ModeAlwaysOn, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	if err != nil {
		b.Fatal(err)
	}
	active := campaign.StatusActive
	if _, err := app.Campaigns.UpdateCampaign(ctx, owner, c.ID, campaign.CampaignPatch{Status: &active}); err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		in := approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{Name: fmt.Sprintf("Person %d", i), SourceSystem: "crm", ExternalID: fmt.Sprint(i)}}
		if _, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, in); err != nil {
			b.Fatal(err)
		}
	}
	cs := connectBench(b, bd.srv.URL+"/mcp", bd.env.OwnerKey)
	benchCall(b, cs, "list_queue", map[string]any{"limit": 50})
}
