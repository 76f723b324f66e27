package resources

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
)

func TestCellEscapesTables(t *testing.T) {
	t.Parallel()
	require.Equal(t, `a \| b c`, cell("a | b\n  c"))
}

func TestCatalogSummaryListsOnlySelectableGifts(t *testing.T) {
	t.Parallel()
	no := false
	products := []catalog.Product{
		{ID: "ok", Name: "Desk Plant", Category: "Office", PriceCents: 4500, ShippingCents: 900, Verified: true,
			ShippingQuoteRequired: true, FulfillmentKind: catalog.FulfillmentFood, PersonalizationText: &catalog.PersonalizationText{}},
		{ID: "retired", Name: "Old", PriceCents: 100, Retired: true},
		{ID: "unavailable", Name: "Gone", PriceCents: 100, Available: &no},
		{ID: "quote", Name: "Quoted", PriceCents: 100, PriceQuoteRequired: true},
		{ID: "zero", Name: "Placeholder"},
	}
	md := renderCatalogSummary(products)
	require.Contains(t, md, "1 of the catalog's 5 gifts")
	require.Contains(t, md, "| `ok` | Desk Plant | Office | $45.00 | $9.00 | $54.00 | yes | shippingQuoteRequired, food, personalizationText |")
	for _, id := range []string{"retired", "unavailable", "quote", "zero"} {
		require.NotContains(t, md, "`"+id+"`")
	}
	require.Contains(t, md, "## Selection rules")
}

func TestGuideRendersEveryPart(t *testing.T) {
	t.Parallel()
	app := giftwell.New(nil, core.Config{SiteURL: "https://gifts.example.com"}, nil, nil)
	p := core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: core.RoleOwner, Via: core.ViaKey, Mode: core.ModeTest}
	r := All(app)[0]
	require.Equal(t, GuideURI, r.URI)
	md, err := r.Read(context.Background(), p)
	require.NoError(t, err)
	g, err := app.Guide.WorkflowGuide(context.Background(), p)
	require.NoError(t, err)
	for _, s := range append(append([]string{g.Instructions, g.ReviewURLTemplate, g.Tracking}, g.Steps...), g.BatchSteps...) {
		require.Contains(t, md, s)
	}
	for code := range g.Recovery {
		require.Contains(t, md, "| `"+code+"` |")
	}
	for reason := range g.ApprovalReasons {
		require.Contains(t, md, "| `"+reason+"` |")
	}
	for _, limit := range []string{"recipientsPerCampaign", "requestBytes", "sourceUploadExpiryHours"} {
		require.Contains(t, md, "| `"+limit+"` |")
	}
	require.Contains(t, md, "| `prepareCampaigns` | yes |")
	require.True(t, strings.HasPrefix(md, "# Giftwell workflow guide\n"))
}

func TestReadIsAuthorized(t *testing.T) {
	t.Parallel()
	app := giftwell.New(nil, core.Config{SiteURL: "https://gifts.example.com"}, nil, nil)
	for _, tc := range []struct {
		p    core.Principal
		code core.Code
	}{
		{core.Principal{}, core.CodeAuthRequired},
		{core.Principal{WorkspaceID: "ws_1", Via: core.ViaConnection}, core.CodeInsufficientScope},
		{core.Principal{WorkspaceID: "ws_1", Via: core.ViaKey, Role: core.RoleOwner, IsDemo: true}, core.CodeDemoLimited},
	} {
		for _, r := range All(app) {
			_, err := r.Read(context.Background(), tc.p)
			require.Equal(t, tc.code, core.ErrorCode(err), r.URI)
		}
	}
}

// TestResourcesDocListsEveryResource holds docs/resources.md to the
// registry: every resource's URI and template is on the page.
func TestResourcesDocListsEveryResource(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/resources.md")
	require.NoError(t, err)
	app := giftwell.New(nil, core.Config{SiteURL: "https://gifts.example.com"}, nil, nil)
	for _, r := range All(app) {
		require.Contains(t, string(doc), "| `"+r.URI+"` |", r.URI)
	}
	for _, tm := range Templates(app) {
		require.Contains(t, string(doc), "| `"+tm.URITemplate+"` |", tm.URITemplate)
	}
}

// TestDeliveriesURIs: the deliveries template takes
// giftwell://webhooks/<id>/deliveries with its query in any order, and
// nothing else.
func TestDeliveriesURIs(t *testing.T) {
	t.Parallel()
	for uri, ok := range map[string]bool{
		"giftwell://webhooks/whk_1/deliveries":                         true,
		"giftwell://webhooks/whk_1/deliveries?limit=5&source=playbook": true,
		"giftwell://webhooks/whk_1/deliveries?before=9&source=gift":    true,
		"giftwell://webhooks//deliveries":                              false,
		"giftwell://webhooks/whk_1/deliveries/dlv_1":                   false,
		"giftwell://webhooks/whk_1":                                    false,
		"giftwell://guide/whk_1/deliveries":                            false,
		"https://webhooks/whk_1/deliveries":                            false,
	} {
		_, _, got := parseDeliveriesURI(uri)
		require.Equal(t, ok, got, uri)
	}
}
