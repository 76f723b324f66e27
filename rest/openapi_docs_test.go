package rest_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

var update = flag.Bool("update", false, "rewrite docs/openapi.json and docs/openapi-3.0.json")

// TestOpenAPIDocs keeps the published OpenAPI documents in docs/ current.
// They describe a server at the default site URL; a running server serves
// its own at /api/v1/openapi.json. `make generate` rewrites them.
func TestOpenAPIDocs(t *testing.T) {
	v31, v30, err := rest.OpenAPI(tools.All(nil), core.Config{SiteURL: "http://127.0.0.1:8080"})
	require.NoError(t, err)
	for name, want := range map[string][]byte{"openapi.json": v31, "openapi-3.0.json": v30} {
		path := filepath.Join("..", "docs", name)
		if *update {
			require.NoError(t, os.WriteFile(path, want, 0o644))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "run make generate")
		require.Equal(t, string(want), string(got), "docs/%s is stale: run make generate", name)
	}
}
