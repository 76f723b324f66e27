package testdb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWithDatabase(t *testing.T) {
	t.Parallel()
	got, err := withDatabase("postgres://u:p@db.example:5433/base?sslmode=disable", "gw_x")
	require.NoError(t, err)
	require.Equal(t, "postgres://u:p@db.example:5433/gw_x?sslmode=disable", got)

	got, err = withDatabase("host=/tmp/s port=5432 user=postgres dbname=postgres", "gw_x")
	require.NoError(t, err)
	require.Equal(t, "host=/tmp/s port=5432 user=postgres dbname=postgres dbname=gw_x", got)

	_, err = withDatabase("host='unterminated", "gw_x")
	require.Error(t, err)
}
