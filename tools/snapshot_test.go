package tools_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

var update = flag.Bool("update", false, "rewrite the tool snapshots and docs/tools.md")

// snapshot is what a tool's golden file holds: everything a client sees.
type snapshot struct {
	Name         string       `json:"name"`
	Title        string       `json:"title,omitempty"`
	Description  string       `json:"description"`
	Scope        tools.Scope  `json:"scope"`
	Action       string       `json:"action"`
	Profiles     []string     `json:"profiles"`
	Hints        tools.Hints  `json:"annotations"`
	Route        *tools.Route `json:"rest,omitempty"`
	InputSchema  any          `json:"inputSchema"`
	OutputSchema any          `json:"outputSchema"`
}

func snapshotOf(t tools.Tool) snapshot {
	var profiles []string
	for _, p := range tools.Profiles {
		if t.InProfile(p) {
			profiles = append(profiles, string(p))
		}
	}
	return snapshot{Name: t.Name, Title: t.Title, Description: t.Description, Scope: t.Scope, Action: string(t.Action),
		Profiles: profiles, Hints: t.Hints, Route: t.Route, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
}

// TestToolSnapshots keeps a golden file per tool under __toolsnaps__, so that
// every schema change is a visible diff. `go test ./tools -update` rewrites them.
func TestToolSnapshots(t *testing.T) {
	dir := "__toolsnaps__"
	all := tools.All(nil)
	want := map[string]bool{}
	for _, tool := range all {
		b, err := json.MarshalIndent(snapshotOf(tool), "", "  ")
		require.NoError(t, err)
		b = append(b, '\n')
		path := filepath.Join(dir, tool.Name+".snap")
		want[tool.Name+".snap"] = true
		if *update {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(path, b, 0o644))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "no snapshot for %s: run make generate", tool.Name)
		require.Equal(t, string(got), string(b), "%s changed: run make generate and review the diff", tool.Name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if !want[e.Name()] {
			if *update {
				require.NoError(t, os.Remove(filepath.Join(dir, e.Name())))
				continue
			}
			t.Errorf("stale snapshot %s: run make generate", e.Name())
		}
	}
}

// TestToolMetadata checks what every tool must carry.
func TestToolMetadata(t *testing.T) {
	t.Parallel()
	all := tools.All(nil)
	names := map[string]bool{}
	routes := map[string]string{}
	for _, tool := range all {
		require.Regexp(t, `^[a-z][a-z_]*[a-z]$`, tool.Name)
		require.False(t, names[tool.Name], "%s defined twice", tool.Name)
		names[tool.Name] = true
		require.GreaterOrEqual(t, len(tool.Description), 80, "%s needs a description written for an agent", tool.Name)
		require.NotEmpty(t, tool.Title, "%s has a title", tool.Name)
		require.Contains(t, []tools.Scope{tools.ScopeRead, tools.ScopeWrite, tools.ScopeLinks, tools.ScopeDash, tools.ScopeSignedIn}, tool.Scope, tool.Name)
		require.NotEmpty(t, tool.Action, "%s names its row of the role matrix", tool.Name)
		require.NotNil(t, tool.Call, tool.Name)
		require.NotNil(t, tool.InputSchema, tool.Name)
		require.Equal(t, "object", tool.InputSchema.Type, "%s input is an object", tool.Name)
		require.NotNil(t, tool.OutputSchema, tool.Name)
		faces := 0
		for _, p := range tools.Profiles {
			if tool.InProfile(p) {
				faces++
			}
		}
		if tool.Route != nil {
			faces++
			key := tool.Route.Method + " " + tool.Route.Path
			require.Empty(t, routes[key], "%s and %s share %s", routes[key], tool.Name, key)
			routes[key] = tool.Name
			require.Contains(t, []int{200, 201, 202, 204}, tool.Route.Status, tool.Name)
		}
		require.Positive(t, faces, "%s is reachable through at least one face", tool.Name)
		if tool.Hints.ReadOnly {
			require.False(t, tool.Hints.Destructive, "%s cannot be read-only and destructive", tool.Name)
		}
		if tool.Scope == tools.ScopeRead || tool.Scope == tools.ScopeLinks {
			require.True(t, tool.Hints.ReadOnly, "%s is a read tool", tool.Name)
		}
		if tool.Scope == tools.ScopeSignedIn {
			require.True(t, tool.Action.SignedInOnly(), "%s: a signed-in tool performs a signed-in action", tool.Name)
		}
	}
}

// TestToolDocs keeps docs/tools.md, the generated tool reference, current.
func TestToolDocs(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, tools.WriteReference(&buf, tools.All(nil)))
	path := filepath.Join("..", "docs", "tools.md")
	if *update {
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err, "run make generate")
	require.Equal(t, string(got), buf.String(), "docs/tools.md is stale: run make generate")
}

// TestRegistryFollowsToolsMD checks every registered tool against TOOLS.md:
// its scope and assistant-endpoint membership. When all 61 are
// registered, the profiles hold 46, 31 and 12 tools.
func TestRegistryFollowsToolsMD(t *testing.T) {
	t.Parallel()
	all := tools.All(nil)
	index := map[string]int{}
	for i, c := range catalogOfTools {
		index[c.name] = i
	}
	for _, tool := range all {
		i, ok := index[tool.Name]
		require.True(t, ok, "%s is not in TOOLS.md", tool.Name)
		require.Equal(t, catalogOfTools[i].scope, tool.Scope, tool.Name)
		require.Equal(t, catalogOfTools[i].chatgpt, tool.ChatGPT, tool.Name)
	}
	if len(all) == len(catalogOfTools) {
		require.Len(t, tools.ForProfile(all, tools.ProfileFull), 46)
		require.Len(t, tools.ForProfile(all, tools.ProfileGifting), 31)
		require.Len(t, tools.ForProfile(all, tools.ProfileChatGPT), 12)
	}
}
