package tools_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/tools"
)

var update = flag.Bool("update", false, "rewrite the tool snapshots and docs/tools.md")

// snapshot is what a tool's golden file holds: everything a client sees.
type snapshot struct {
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description"`
	Scope       tools.Scope  `json:"scope"`
	Action      string       `json:"action"`
	Profiles    []string     `json:"profiles"`
	RESTOnly    bool         `json:"restOnly,omitempty"`
	Hints       tools.Hints  `json:"annotations"`
	Route       *tools.Route `json:"rest,omitempty"`
	RESTForm    *formSnap    `json:"restForm,omitempty"`
	InputSchema any          `json:"inputSchema"`
	// ListedInputSchema is what MCP lists when it differs from InputSchema.
	ListedInputSchema any `json:"listedInputSchema,omitempty"`
	// DataSchema is the payload's whole schema (REST's {data}).
	DataSchema any `json:"dataSchema"`
}

// formSnap is a route's own form of its tool, as REST serves it.
type formSnap struct {
	Description string `json:"description,omitempty"`
	InputSchema any    `json:"inputSchema"`
	DataSchema  any    `json:"dataSchema"`
}

func snapshotOf(t tools.Tool) snapshot {
	var profiles []string
	for _, p := range tools.Profiles {
		if t.InProfile(p) {
			profiles = append(profiles, string(p))
		}
	}
	s := snapshot{Name: t.Name, Title: t.Title, Description: t.Description, Scope: t.Scope, Action: string(t.Action),
		Profiles: profiles, RESTOnly: t.RESTOnly, Hints: t.Hints, Route: t.Route, InputSchema: t.InputSchema, DataSchema: t.DataSchema}
	if t.ListedInputSchema != t.InputSchema {
		s.ListedInputSchema = t.ListedInputSchema
	}
	if t.Route != nil && t.Route.Form != nil {
		f := t.Route.Form
		s.RESTForm = &formSnap{Description: f.Description, InputSchema: f.InputSchema, DataSchema: f.DataSchema}
	}
	return s
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
		require.NotNil(t, tool.DataSchema, tool.Name)
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
		if tool.RESTOnly {
			require.NotNil(t, tool.Route, "%s is REST only, so it needs a route", tool.Name)
			require.False(t, tool.ChatGPT, "%s is REST only", tool.Name)
		}
		if r := tool.Route; r != nil {
			require.Contains(t, []tools.Credentials{tools.CredentialsRequired, tools.CredentialsOptional, tools.CredentialsNone}, r.Credentials, tool.Name)
			if r.Credentials != tools.CredentialsRequired {
				require.True(t, tool.RESTOnly, "%s: only a REST-only tool may read fewer credentials (MCP always authorizes)", tool.Name)
				require.True(t, tool.Hints.ReadOnly, "%s: a route without required credentials only reads", tool.Name)
			}
			require.Equal(t, distributionRoute(r.Path), r.Connections,
				"%s: exactly the gift-link distribution routes accept sign-in connections", tool.Name)
			out := tool.Out
			if r.Form != nil {
				out = r.Form.Out // the route's own form (download_gift_link_export: {csv, filename} on MCP)
			}
			require.Equal(t, r.Produces != "", out == reflect.TypeFor[tools.File](),
				"%s: a route produces a file exactly when its handler returns a tools.File", tool.Name)
			if f := r.Form; f != nil {
				require.NotNil(t, f.Call, tool.Name)
				require.Equal(t, "object", f.InputSchema.Type, "%s: the REST form's input is an object", tool.Name)
				for name, p := range f.InputSchema.Properties {
					if rawField(r.Raw, name) {
						continue // read from the raw body or a header, in the route's own terms
					}
					require.Equal(t, tool.InputSchema.Properties[name], p, "%s: the REST form's %s is the tool's", tool.Name, name)
				}
			}
		} else {
			require.False(t, tool.Out == reflect.TypeFor[tools.File](), "%s: a file needs a route that produces it", tool.Name)
		}
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
// its scope and assistant-endpoint membership, or, for a REST-only
// operation, that its route is one of TOOLS.md's "REST routes with no tool
// of their own". When all 61 tools are registered, the profiles hold 46,
// 31 and 12 tools.
func TestRegistryFollowsToolsMD(t *testing.T) {
	t.Parallel()
	all := tools.All(nil)
	index := map[string]int{}
	for i, c := range catalogOfTools {
		index[c.name] = i
	}
	mcpTools := 0
	for _, tool := range all {
		if tool.RESTOnly {
			_, named := index[tool.Name]
			require.False(t, named, "%s is one of TOOLS.md's tools, not REST only", tool.Name)
			require.Contains(t, restOnlyRoutes, tool.Route.Method+" "+tool.Route.Path, "%s is not one of TOOLS.md's REST routes with no tool", tool.Name)
			continue
		}
		mcpTools++
		i, ok := index[tool.Name]
		require.True(t, ok, "%s is not in TOOLS.md", tool.Name)
		require.Equal(t, catalogOfTools[i].scope, tool.Scope, tool.Name)
		require.Equal(t, catalogOfTools[i].chatgpt, tool.ChatGPT, tool.Name)
	}
	if mcpTools == len(catalogOfTools) {
		require.Len(t, tools.ForProfile(all, tools.ProfileFull), 46)
		require.Len(t, tools.ForProfile(all, tools.ProfileGifting), 31)
		require.Len(t, tools.ForProfile(all, tools.ProfileChatGPT), 12)
	}
}

// distributionRoute reports whether path (relative to /api/v1) is a
// gift-link distribution route, /campaigns/{id}/distribution... or
// /distribution/exports/...: the only REST routes sign-in connections may
// use (Authentication §3). It is the oracle of the Route.Connections check.
func distributionRoute(path string) bool {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case len(segs) >= 3 && segs[0] == "campaigns" && segs[1] != "" && segs[2] == "distribution":
		return true
	case len(segs) >= 2 && segs[0] == "distribution" && segs[1] == "exports":
		return true
	}
	return false
}

func TestDistributionRoute(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"/campaigns/{id}/distribution":                    true,
		"/campaigns/{id}/distribution/exports":            true,
		"/campaigns/{id}/distribution/imports":            true,
		"/campaigns/cmp_1/distribution/source-columns":    true,
		"/distribution/exports/{id}":                      true,
		"/distribution/exports":                           true,
		"/campaigns":                                      false,
		"/campaigns/{id}":                                 false,
		"/campaigns//distribution":                        false,
		"/campaigns/{id}/gift-links":                      false,
		"/campaigns/{id}/distributions":                   false,
		"/distribution":                                   false,
		"/distribution/imports":                           false,
		"/workflow":                                       false,
		"/session":                                        false,
		"/sends/{id}/distribution":                        false,
		"/campaigns/{id}/recipients/distribution/exports": false,
	}
	for path, want := range cases {
		require.Equal(t, want, distributionRoute(path), path)
	}
}

// rawField reports whether a raw route (tools.Raw) fills the input field
// name from its body or headers.
func rawField(raw *tools.Raw, name string) bool {
	if raw == nil {
		return false
	}
	if name == raw.BodyField || name == raw.MediaTypeField {
		return true
	}
	for _, h := range raw.Headers {
		if h.Field == name {
			return true
		}
	}
	return false
}
