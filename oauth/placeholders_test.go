package oauth_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// placeholder is a spec-style template name such as {mcp_url}: a text that
// still holds one was never filled in. Go template actions ({{...}}) are
// not placeholders.
var (
	placeholder    = regexp.MustCompile(`\{[a-z][a-z0-9_]*\}`)
	templateAction = regexp.MustCompile(`\{\{.*?\}\}`)
)

// No text the authorization server or the connection rules can send holds
// an unfilled placeholder: every string literal of oauth and core/connect
// (error descriptions, hints, core messages) is scanned.
func TestNoErrorTextHoldsAPlaceholder(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{".", "../core/connect"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				v, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				v = templateAction.ReplaceAllString(v, "")
				require.False(t, placeholder.MatchString(v), "%s: %q holds a placeholder", name, v)
				return true
			})
		}
	}
}
