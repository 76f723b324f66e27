package catalog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestValidateCatalogNamesProductAndField(t *testing.T) {
	t.Parallel()
	good := func() catalog.Product {
		return catalog.Product{ID: "mug", Name: "Mug", PriceCents: 100, FulfillmentKind: catalog.FulfillmentStandard}
	}
	cases := []struct {
		name    string
		edit    func(p *catalog.Product)
		field   string
		problem string
	}{
		{"empty id", func(p *catalog.Product) { p.ID = "" }, "[0].id", "is required"},
		{"long id", func(p *catalog.Product) { p.ID = strings.Repeat("a", 201) }, "[0].id", "at most 200"},
		{"id with a slash", func(p *catalog.Product) { p.ID = "a/b" }, "[0].id", "may use only"},
		{"no name", func(p *catalog.Product) { p.Name = " " }, "[0].name", "is required"},
		{"negative price", func(p *catalog.Product) { p.PriceCents = -1 }, "[0].priceCents", "negative"},
		{"negative shipping", func(p *catalog.Product) { p.ShippingCents = -5 }, "[0].shippingCents", "negative"},
		{"unknown fulfillmentKind", func(p *catalog.Product) { p.FulfillmentKind = "frozen" }, "[0].fulfillmentKind", `"frozen"`},
		{"lettering without maxLines", func(p *catalog.Product) {
			p.PersonalizationText = &catalog.PersonalizationText{Label: "Engraving", MaxLength: 10, LineMaxLength: 10}
		}, "[0].personalizationText.maxLines", "at least 1"},
		{"lettering line longer than total", func(p *catalog.Product) {
			p.PersonalizationText = &catalog.PersonalizationText{Label: "Engraving", MaxLength: 10, MaxLines: 2, LineMaxLength: 11}
		}, "[0].personalizationText.lineMaxLength", "between 1 and maxLength"},
		{"unknown detail kind", func(p *catalog.Product) {
			p.RecipientDetails = []catalog.DetailField{{Key: "city", Label: "City", Kind: "email", MaxLength: 10}}
		}, "[0].recipientDetails[0].kind", `"email"`},
		{"duplicate detail key", func(p *catalog.Product) {
			d := catalog.DetailField{Key: "city", Label: "City", Kind: catalog.DetailText, MaxLength: 10}
			p.RecipientDetails = []catalog.DetailField{d, d}
		}, "[0].recipientDetails[1].key", "duplicates"},
		{"detail maxLength 0", func(p *catalog.Product) {
			p.RecipientDetails = []catalog.DetailField{{Key: "city", Label: "City", Kind: catalog.DetailText}}
		}, "[0].recipientDetails[0].maxLength", "between 1 and 2000"},
		{"prepaid state", func(p *catalog.Product) {
			p.PrepaidOffer = &catalog.PrepaidOffer{UnitCents: 100, ShippingStates: []string{"California"}}
		}, "[0].prepaidOffer.shippingStates[0]", "two-letter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := good()
			c.edit(&p)
			e := apptest.RequireCode(t, catalog.ValidateCatalog([]catalog.Product{p}), core.CodeValidation)
			require.Contains(t, e.Fields, c.field)
			require.Contains(t, e.Message, "(#0)")
			require.Contains(t, e.Message, c.problem)
		})
	}

	dup := []catalog.Product{good(), good()}
	e := apptest.RequireCode(t, catalog.ValidateCatalog(dup), core.CodeValidation)
	require.Equal(t, []string{"[1].id"}, e.Fields)
	require.Contains(t, e.Message, `product "mug" (#1): id: duplicates product #0`)

	apptest.RequireCode(t, catalog.ValidateCatalog(nil), core.CodeValidation)
	require.NoError(t, catalog.ValidateCatalog([]catalog.Product{good()}))
}

func TestDecodeCatalog(t *testing.T) {
	t.Parallel()
	products, err := catalog.DecodeCatalog(strings.NewReader(`[{"id":"mug","name":"Mug","priceCents":1200,"shippingCents":300,"verified":true}]`))
	require.NoError(t, err)
	require.Len(t, products, 1)
	require.Equal(t, catalog.FulfillmentStandard, products[0].FulfillmentKind, "absent fulfillmentKind is standard")
	require.NotNil(t, products[0].Personalization)
	require.EqualValues(t, 1500, products[0].UnitCents())
	require.True(t, products[0].IsAvailable(), "absent available is not false")

	_, err = catalog.DecodeCatalog(strings.NewReader(`[{"id":"mug","name":"Mug","pryce":1}]`))
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Contains(t, e.Message, "pryce")

	_, err = catalog.DecodeCatalog(strings.NewReader(`[{"id":"mug","name":"Mug","priceCents":"12"}]`))
	e = apptest.RequireCode(t, err, core.CodeValidation)
	require.Contains(t, e.Message, "priceCents")

	_, err = catalog.DecodeCatalog(strings.NewReader(`[{"id":"mug",`))
	apptest.RequireCode(t, err, core.CodeInvalidJSON)

	_, err = catalog.DecodeCatalog(strings.NewReader(`[{"id":"mug"}] x`))
	apptest.RequireCode(t, err, core.CodeInvalidJSON)

	_, err = catalog.DecodeCatalog(strings.NewReader(`{"id":"mug"}`))
	apptest.RequireCode(t, err, core.CodeValidation)
}

func TestLetteringCheck(t *testing.T) {
	t.Parallel()
	engraving := catalog.PersonalizationText{Label: "Engraving", MaxLength: 12, MaxLines: 2, LineMaxLength: 8,
		FirstLineRequired: true, AllowedCharacters: "ABCDEFGHIJKLMNOPQRSTUVWXYZ &"}
	ok := []string{"", "ACME", "ACME & B", "ACME\nCO", "ACME\r\nCO", "ABCDEFGH\nABCD"}
	for _, text := range ok {
		require.NoError(t, engraving.Check("customization.displayText", text), "%q", text)
	}
	bad := map[string]string{
		"A\nB\nC":          "at most 2 lines",
		"ABCDEFGHI":        "line 1 has 9 characters",
		"ABCDEFGH\nABCDEF": "at most 12 characters",
		" \nACME":          "first line",
		"acme":             "allows only",
		"AC\tME":           "control character",
	}
	for text, want := range bad {
		e := apptest.RequireCode(t, engraving.Check("customization.displayText", text), core.CodeValidation)
		require.Equal(t, []string{"customization.displayText"}, e.Fields)
		require.Contains(t, e.Message, want, "%q", text)
	}
	free := catalog.PersonalizationText{Label: "Caption", MaxLength: 40, MaxLines: 1, LineMaxLength: 40}
	require.NoError(t, free.Check("customization.displayText", "Partner of the Year — 2026"))
}
