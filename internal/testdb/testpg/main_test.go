package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The command runs with the shared server's variables set, and its exit
// status is testpg's.
func TestRunPassesServerAndStatus(t *testing.T) {
	t.Setenv("TEST_DATABASE_TEMPLATE", "") // only testpg can set it now
	t.Setenv("TEST_DATABASE_TEMPLATE_VERSION", "")
	code := run([]string{"--", "sh", "-c", `test -n "$TEST_DATABASE_URL" && test -n "$TEST_DATABASE_TEMPLATE" && test -n "$TEST_DATABASE_TEMPLATE_VERSION" && exit 3`})
	require.Equal(t, 3, code, "the command saw both variables and its status came back")
	require.Equal(t, 0, run([]string{"true"}))
	require.Equal(t, 2, run(nil), "no command is a usage error")
}
