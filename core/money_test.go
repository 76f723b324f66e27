package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestDollars(t *testing.T) {
	t.Parallel()
	for cents, want := range map[int64]string{
		0: "$0.00", 5: "$0.05", 1999: "$19.99", 9000: "$90.00", 123456: "$1,234.56", 123456789: "$1,234,567.89",
		100000000: "$1,000,000.00", -250: "-$2.50", -250050: "-$2,500.50",
	} {
		require.Equal(t, want, core.Dollars(cents), cents)
	}
}
