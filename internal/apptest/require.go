package apptest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
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
