package apptest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
)

// RequireCode fails the test unless err is a *core.Error with code, and
// returns it.
func RequireCode(t testing.TB, err error, code core.Code) *core.Error {
	t.Helper()
	require.Error(t, err)
	e := core.AsError(err)
	require.Equal(t, code, e.Code, "error: %v", err)
	return e
}

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// EmbeddedCatalog returns the catalog built into the binary.
func EmbeddedCatalog(t testing.TB) []catalog.Product {
	t.Helper()
	products, err := catalog.EmbeddedCatalog()
	require.NoError(t, err)
	return products
}
