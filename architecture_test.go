package giftwell_test

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/giftwell/giftwell"

// allowedImports is docs/architecture.md's table "Allowed imports": what
// each package may import of this module. A pattern ending in /* allows the
// packages under it.
var allowedImports = map[string][]string{
	"core":              {"sql/db"},
	"core/catalog":      {"core", "sql/db"},
	"core/identity":     {"core", "sql/db"},
	"core/connect":      {"core", "core/identity", "sql/db"},
	"core/ledger":       {"core", "sql/db"},
	"core/artwork":      {"core", "sql/db"},
	"core/gift":         {"core", "core/artwork", "core/catalog", "core/ledger", "sql/db"},
	"core/campaign":     {"core", "core/artwork", "core/catalog", "core/gift", "sql/db"},
	"core/approval":     {"core", "core/campaign", "core/catalog", "core/gift", "core/ledger", "sql/db"},
	"core/guide":        {"core", "core/catalog", "core/campaign"},
	"core/tracking":     {"core", "core/gift", "sql/db"},
	"core/giftlink":     {"core", "core/artwork", "core/campaign", "core/catalog", "core/gift", "sql/db"},
	"core/webhook":      {"core", "core/tracking", "sql/db"},
	"core/billing":      {"core", "core/approval", "core/campaign", "core/gift", "core/giftlink", "core/ledger", "sql/db"},
	"core/distribution": {"core", "core/artwork", "core/campaign", "core/gift", "core/giftlink", "sql/db"},
	"core/notify":       {"core", "core/approval", "core/campaign", "core/identity", "sql/db"},
	".":                 {"core", "core/*"},
	"tools":             {".", "core", "core/*"},
	"prompts":           {".", "core", "core/*"},
	"resources":         {".", "core", "core/*"},
	"mcp":               {".", "core", "core/*", "tools", "prompts", "resources", "internal/*"},
	"rest":              {".", "core", "core/*", "tools", "prompts", "resources", "internal/*"},
	"web":               {".", "core", "core/*", "tools", "prompts", "resources", "internal/*"},
	"oauth":             {".", "core", "core/*", "tools", "prompts", "resources", "internal/*"},
	"internal/smtp":     {"core", "core/identity"},
	"internal/payments": {"core", "core/ledger", "core/billing"},

	// The webhook sender, and the verifier customers import alone.
	"internal/webhooksend": {"core", "core/webhook"},
	"webhookverify":        {},

	// The fetcher of OAuth client ID metadata documents, over the webhook
	// sender's SSRF guard.
	"internal/clientmeta": {"core/connect", "internal/webhooksend"},

	// Artwork's blob store, and the photo fetcher over the webhook
	// sender's SSRF guard.
	"internal/blobstore":  {"core/artwork"},
	"internal/photofetch": {"core/artwork", "internal/webhooksend"},
}

// The packages import only what docs/architecture.md allows: the subjects
// of core only downward, core no face and no adapter, faces never each
// other. Tests may import more (test support lives in internal/).
func TestImportsFollowTheArchitecture(t *testing.T) {
	t.Parallel()
	for pkg, allowed := range allowedImports {
		p, err := build.ImportDir(filepath.FromSlash(pkg), 0)
		require.NoError(t, err, pkg)
		for _, imp := range p.Imports {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			if rel == "" {
				rel = "."
			}
			require.True(t, allows(allowed, rel), "%s imports %s; docs/architecture.md allows only %v", pkg, rel, allowed)
		}
	}
}

// Every package of core is in the table, so a new subject cannot skip it.
func TestEveryCorePackageHasARow(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir("core")
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := build.ImportDir(filepath.Join("core", e.Name()), 0); err != nil {
			continue // a data directory, not a package
		}
		_, ok := allowedImports["core/"+e.Name()]
		require.True(t, ok, "core/%s has no row in allowedImports (and docs/architecture.md)", e.Name())
	}
}

// core's packages depend on no face, no adapter and none of the libraries
// those adapters wrap.
func TestCoreImportsNoAdapterLibrary(t *testing.T) {
	t.Parallel()
	for pkg := range allowedImports {
		if pkg != "core" && !strings.HasPrefix(pkg, "core/") {
			continue
		}
		p, err := build.ImportDir(filepath.FromSlash(pkg), 0)
		require.NoError(t, err, pkg)
		for _, imp := range p.Imports {
			for _, banned := range []string{"github.com/ory/fosite", "github.com/wneessen/go-mail", "github.com/stripe/", "net/smtp", "gocloud.dev"} {
				require.False(t, strings.HasPrefix(imp, banned), "%s imports %s", pkg, imp)
			}
		}
	}
}

func allows(allowed []string, rel string) bool {
	return slices.ContainsFunc(allowed, func(a string) bool {
		if prefix, ok := strings.CutSuffix(a, "/*"); ok {
			return strings.HasPrefix(rel, prefix+"/")
		}
		return a == rel
	})
}
