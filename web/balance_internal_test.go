package web

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseDollars(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"250": 25_000, "250.5": 25_050, "250.50": 25_050, "$1,250.05": 125_005, " 25 ": 2_500, "0.01": 1,
	} {
		got, ok := parseDollars(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", ".5", "25.", "25.505", "-25", "+25", "25.-5", "abc", "1e3", "1234567890"} {
		_, ok := parseDollars(in)
		require.False(t, ok, in)
	}
}
