package giftlink_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestAddressNormalizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		state, zip         string
		wantState, wantZip string
	}{
		{"CA", "94107", "CA", "94107"},
		{" ca ", "94107-1234", "CA", "94107-1234"},
		{"California", "941071234", "CA", "94107-1234"},
		{"new york", "10001 0001", "NY", "10001-0001"},
		{"District of Columbia", "20001", "DC", "20001"},
		{"Washington, D.C.", "20001", "DC", "20001"},
		{"washington", "98101", "WA", "98101"},
		{"Puerto Rico", "00901", "PR", "00901"},
		{"gu", "96910", "GU", "96910"},
	} {
		a := giftlink.Address{Name: " Ada ", Street: " 1 Main St ", City: " Town ", State: c.state, Zip: c.zip}
		got, err := a.Normalize()
		require.NoError(t, err, "%+v", c)
		require.Equal(t, giftlink.Address{Name: "Ada", Street: "1 Main St", City: "Town", State: c.wantState, Zip: c.wantZip}, got)
	}
}

func TestAddressRefusalsNameTheField(t *testing.T) {
	t.Parallel()
	good := giftlink.Address{Name: "Ada", Street: "1 Main St", City: "Town", State: "IL", Zip: "62701"}
	for _, c := range []struct {
		field string
		edit  func(*giftlink.Address)
	}{
		{"name", func(a *giftlink.Address) { a.Name = "  " }},
		{"name", func(a *giftlink.Address) { a.Name = strings.Repeat("n", giftlink.MaxAddressName+1) }},
		{"name", func(a *giftlink.Address) { a.Name = "Ada\x00" }},
		{"street", func(a *giftlink.Address) { a.Street = "" }},
		{"street", func(a *giftlink.Address) { a.Street = "1 Main\nSt" }},
		{"street2", func(a *giftlink.Address) { a.Street2 = strings.Repeat("s", giftlink.MaxAddressStreet+1) }},
		{"city", func(a *giftlink.Address) { a.City = "" }},
		{"city", func(a *giftlink.Address) { a.City = strings.Repeat("c", giftlink.MaxAddressCity+1) }},
		{"state", func(a *giftlink.Address) { a.State = "" }},
		{"state", func(a *giftlink.Address) { a.State = "ZZ" }},
		{"state", func(a *giftlink.Address) { a.State = "Calif" }},
		{"state", func(a *giftlink.Address) { a.State = "Ontario" }},
		{"state", func(a *giftlink.Address) { a.State = strings.Repeat("x", 500) }},
		{"zip", func(a *giftlink.Address) { a.Zip = "" }},
		{"zip", func(a *giftlink.Address) { a.Zip = "6270" }},
		{"zip", func(a *giftlink.Address) { a.Zip = "62701-12" }},
		{"zip", func(a *giftlink.Address) { a.Zip = "6270a" }},
		{"zip", func(a *giftlink.Address) { a.Zip = "62701--1234" }},
		{"zip", func(a *giftlink.Address) { a.Zip = "SW1A 1AA" }},
	} {
		a := good
		c.edit(&a)
		_, err := a.Normalize()
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields, "%+v", a)
		require.True(t, strings.HasPrefix(e.Message, c.field+": "), e.Message)
	}
	_, err := good.Normalize()
	require.NoError(t, err)
}
