package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// WriteReference writes the tool reference (docs/tools.md) for list: one
// section per tool with its scope, profiles, REST route, annotations and
// input schema, after what each profile's MCP tool list costs. It is generated; `make generate` rewrites it.
func WriteReference(w io.Writer, list []Tool) error {
	var b strings.Builder
	b.WriteString("# Tool reference\n\n")
	b.WriteString("Generated from the registry by `make generate`; do not edit by hand.\n\n")
	fmt.Fprintf(&b, "What each profile's MCP `tools/list` costs an agent: its tools as compact JSON, in tokens counted as bytes/4 "+
		"(the budget: at most %d per tool on average, %d for any one tool; `mcp/tools_budget_test.go` holds it):\n\n",
		MaxTokensPerTool, MaxToolTokens)
	fmt.Fprintf(&b, "| profile | tools | bytes | tokens per tool | largest tool | its tokens |\n|---|---|---|---|---|---|\n")
	for _, p := range Profiles {
		c := CostOf(list, p)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s | %d |\n", p, c.Tools, c.Bytes, c.TokensPerTool(), c.Largest, c.LargestTokens())
	}
	if snake := snakeCaseTools(list); len(snake) > 0 {
		b.WriteString("\nField names are camelCase, except where the spec writes them in snake_case: the gift-link records " +
			"(the spec's export columns, so that a record and its CSV row read alike) and the webhook deliveries. " +
			"These tools answer such fields: " + strings.Join(snake, ", ") + ".\n")
	}
	b.WriteString("\n| tool | scope | profiles | REST |\n|---|---|---|---|\n")
	for _, t := range list {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", t.Name, t.Name, t.Scope, strings.Join(profileNames(t), ", "), routeText(t))
	}
	for _, t := range list {
		fmt.Fprintf(&b, "\n## %s\n\n", t.Name)
		if t.Title != "" {
			fmt.Fprintf(&b, "**%s**\n\n", t.Title)
		}
		fmt.Fprintf(&b, "%s\n\n", t.Description)
		fmt.Fprintf(&b, "- Scope: `%s`; role-matrix row: `%s`\n", t.Scope, t.Action)
		fmt.Fprintf(&b, "- Profiles: %s\n", orNone(strings.Join(profileNames(t), ", ")))
		fmt.Fprintf(&b, "- REST: %s\n", routeText(t))
		fmt.Fprintf(&b, "- Annotations: readOnly=%t destructive=%t idempotent=%t openWorld=%t\n\n", t.Hints.ReadOnly, t.Hints.Destructive, t.Hints.Idempotent, t.Hints.OpenWorld)
		in, err := json.MarshalIndent(t.InputSchema, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "Input schema:\n\n```json\n%s\n```\n", in)
		if t.Route != nil && t.Route.Form != nil {
			form, err := json.MarshalIndent(t.Route.Form.InputSchema, "", "  ")
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "\nREST input schema (the route's own form of the tool):\n\n```json\n%s\n```\n", form)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func profileNames(t Tool) []string {
	var names []string
	for _, p := range Profiles {
		if t.InProfile(p) {
			names = append(names, string(p))
		}
	}
	return names
}

// routeText is the tool's REST route with its status and what sets it
// apart: public or optional credentials, open to sign-in connections, a
// file instead of {data}, a form of its own.
func routeText(t Tool) string {
	r := t.Route
	if r == nil {
		return "MCP only"
	}
	notes := []string{strconv.Itoa(r.Status)}
	switch r.Credentials {
	case CredentialsNone:
		notes = append(notes, "public")
	case CredentialsOptional:
		notes = append(notes, "credentials optional")
	}
	if r.Connections {
		notes = append(notes, "sign-in connections too")
	}
	if r.Produces != "" {
		notes = append(notes, r.Produces)
	}
	if r.Form != nil {
		notes = append(notes, "own REST form")
	}
	return fmt.Sprintf("`%s /api/v1%s` (%s)", r.Method, r.Path, strings.Join(notes, "; "))
}

func orNone(s string) string {
	if s == "" {
		return "none (REST and the web app only)"
	}
	return s
}

// snakeCaseTools names, as links, the tools whose payload holds fields
// named in snake_case (the spec's export columns), found in their schemas.
func snakeCaseTools(list []Tool) []string {
	var out []string
	for _, t := range list {
		if hasSnakeCaseField(t.DataSchema, 0) {
			out = append(out, "["+t.Name+"](#"+t.Name+")")
		}
	}
	return out
}

// hasSnakeCaseField reports whether s, or a schema within it, has a
// property whose name holds an underscore.
func hasSnakeCaseField(s *jsonschema.Schema, depth int) bool {
	if s == nil || depth > 16 {
		return false
	}
	for name, p := range s.Properties {
		if strings.Contains(name, "_") || hasSnakeCaseField(p, depth+1) {
			return true
		}
	}
	if hasSnakeCaseField(s.Items, depth+1) || hasSnakeCaseField(s.AdditionalProperties, depth+1) {
		return true
	}
	for _, d := range s.Defs {
		if hasSnakeCaseField(d, depth+1) {
			return true
		}
	}
	return false
}
