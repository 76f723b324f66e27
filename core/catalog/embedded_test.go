package catalog_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

// TestEmbeddedCatalogExercisesEveryFieldAndFlag checks that the built-in
// catalog is valid and holds at least one gift of every variant the spec
// describes, so that every rule has something to act on.
func TestEmbeddedCatalogExercisesEveryFieldAndFlag(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	require.NoError(t, catalog.ValidateCatalog(products))
	require.GreaterOrEqual(t, len(products), 30)

	variants := map[string]func(p catalog.Product) bool{
		"retired but available true":   func(p catalog.Product) bool { return p.Retired && p.Available != nil && *p.Available },
		"retired and unavailable":      func(p catalog.Product) bool { return p.Retired && p.Available != nil && !*p.Available },
		"available false, not retired": func(p catalog.Product) bool { return !p.Retired && p.Available != nil && !*p.Available },
		"priceQuoteRequired":           func(p catalog.Product) bool { return p.PriceQuoteRequired },
		"priceCents 0 placeholder":     func(p catalog.Product) bool { return p.PriceCents == 0 && !p.PriceQuoteRequired },
		"shippingQuoteRequired":        func(p catalog.Product) bool { return p.ShippingQuoteRequired },
		"fixedPrice":                   func(p catalog.Product) bool { return p.FixedPrice },
		"estimateIncludesDelivery":     func(p catalog.Product) bool { return p.EstimateIncludesDelivery },
		"food with dietaryNote": func(p catalog.Product) bool {
			return p.FulfillmentKind == catalog.FulfillmentFood && p.DietaryNote != ""
		},
		"alcohol with deliveryNote": func(p catalog.Product) bool {
			return p.FulfillmentKind == catalog.FulfillmentAlcohol && p.DeliveryNote != ""
		},
		"requiresPortrait":    func(p catalog.Product) bool { return p.RequiresPortrait },
		"requiresArtwork":     func(p catalog.Product) bool { return p.RequiresArtwork },
		"personalizationText": func(p catalog.Product) bool { return p.PersonalizationText != nil },
		"firstLineRequired": func(p catalog.Product) bool {
			return p.PersonalizationText != nil && p.PersonalizationText.FirstLineRequired
		},
		"allowedCharacters": func(p catalog.Product) bool {
			return p.PersonalizationText != nil && p.PersonalizationText.AllowedCharacters != ""
		},
		"multi-line lettering": func(p catalog.Product) bool {
			return p.PersonalizationText != nil && p.PersonalizationText.MaxLines > 1
		},
		"required text detail":     func(p catalog.Product) bool { return hasDetail(p, catalog.DetailText, true) },
		"optional text detail":     func(p catalog.Product) bool { return hasDetail(p, catalog.DetailText, false) },
		"required url detail":      func(p catalog.Product) bool { return hasDetail(p, catalog.DetailURL, true) },
		"optional url detail":      func(p catalog.Product) bool { return hasDetail(p, catalog.DetailURL, false) },
		"verified":                 func(p catalog.Product) bool { return p.Verified },
		"unverified":               func(p catalog.Product) bool { return !p.Verified },
		"featured":                 func(p catalog.Product) bool { return p.Featured },
		"quoteDetails with inputs": func(p catalog.Product) bool { return p.QuoteDetails != nil && len(p.QuoteDetails.Inputs) > 0 },
		"example":                  func(p catalog.Product) bool { return p.Example != nil && p.Example.Occasion != "" },
		"prepaidOffer":             func(p catalog.Product) bool { return p.PrepaidOffer != nil },
		"standard":                 func(p catalog.Product) bool { return p.FulfillmentKind == catalog.FulfillmentStandard },
	}
	for name, match := range variants {
		count := 0
		for _, p := range products {
			if match(p) {
				count++
			}
		}
		require.Positive(t, count, "no product in the embedded catalog is %s", name)
	}
	giftBox := catalog.GiftBoxImage().Path("x")
	giftBox = giftBox[len(giftBox)-12:]
	counts := map[string]int{}
	for _, p := range products {
		require.Regexp(t, `^/catalog/images/`+regexp.QuoteMeta(p.ID)+`\.[0-9a-f]{8}\.svg$`, p.Image, p.ID)
		require.NotEqual(t, giftBox, p.Image[len(p.Image)-12:], "%s has an illustration of its own, not the gift box", p.ID)
		require.NotEmpty(t, p.Name, p.ID)
		require.NotEmpty(t, p.Tagline, p.ID)
		require.NotEmpty(t, p.Description, p.ID)
		require.NotEmpty(t, p.Category, p.ID)
		require.NotEmpty(t, p.ImageLabel, p.ID)
		require.NotEmpty(t, p.PriceLabel, p.ID)
		require.NotEmpty(t, p.ShippingLabel, p.ID)
		require.NotEmpty(t, p.LeadDays, p.ID)
		require.NotNil(t, p.Personalization, p.ID)
		require.LessOrEqual(t, len(p.Message), 500, p.ID)
		if p.FulfillmentKind == catalog.FulfillmentFood {
			require.NotEmpty(t, p.DietaryNote, "%s: food gifts state their ingredients", p.ID)
		}
		counts[p.Category]++
	}
	for _, c := range []string{"Desk & office", "Food & treats", "Wine & spirits", "Tech", "Books", "Plants", "Art & portraits"} {
		require.Positive(t, counts[c], "no %s gift", c)
	}
	// A gift's suggested note only uses the spec's placeholders.
	for _, p := range products {
		rest := p.Message
		for {
			i := strings.Index(rest, "{{")
			if i < 0 {
				break
			}
			j := strings.Index(rest[i:], "}}")
			require.Positive(t, j, p.ID)
			require.Contains(t, []string{"{{firstName}}", "{{name}}", "{{company}}", "{{custom}}"}, rest[i:i+j+2], p.ID)
			rest = rest[i+j+2:]
		}
	}
}

func hasDetail(p catalog.Product, kind catalog.DetailKind, required bool) bool {
	for _, d := range p.RecipientDetails {
		if d.Kind == kind && d.Required == required {
			return true
		}
	}
	return false
}
