package web

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestParseDollars(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"250": 25_000, "250.5": 25_050, "250.50": 25_050, "$1,250.05": 125_005, " 25 ": 2_500, "0.01": 1,
		"2,500": 250_000, "2,500.00": 250_000, "$12,345,678.9": 1_234_567_890,
	} {
		got, err := parseDollars(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", ".5", "25.", "25.505", "-25", "+25", "25.-5", "abc", "1e3", "1234567890",
		"25,0000", "2,50.00", ",250", "250,", "1,,250", "12,34,567", "1.250,5000"} {
		_, err := parseDollars(in)
		require.ErrorIs(t, err, notDollars, in)
	}
	// A comma where cents go would be read as a hundred times the amount.
	for _, in := range []string{"25,00", "$25,00", "25,5", "1.250,50", "2,500,00"} {
		_, err := parseDollars(in)
		require.ErrorIs(t, err, errCommaCents, in)
	}
}

// TestAutoApproveFormRefusesCommaCents: the playbook's limits are read as
// the top-up amount is.
func TestAutoApproveFormRefusesCommaCents(t *testing.T) {
	t.Parallel()
	_, err := autoApproveForm("true", "100,00", "", "1")
	e := core.AsError(err)
	require.Equal(t, core.CodeValidation, e.Code)
	require.Equal(t, []string{"perGift"}, e.Fields)
	require.Contains(t, e.Message, "use a dot for cents, like 100.00")
	in, err := autoApproveForm("true", "1,000.00", "", "1")
	require.NoError(t, err)
	require.EqualValues(t, 100_000, *in.PerGiftMaxCents)
}
