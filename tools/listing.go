package tools

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// What an MCP tools/list costs an agent is part of every tool's design: the
// list is read into the agent's context before any work. The registry's
// schemas stay whole for validation, REST and the OpenAPI documents; MCP
// lists each tool in a compact form (Tool.ListedInputSchema, the compact
// Tool.OutputSchema) that the budget below holds, profile by profile
// (mcp/tools_budget_test.go; docs/tools.md prints the figures).

// The tool list budget, in tokens counted as bytes/4 of compact JSON.
const (
	// MaxTokensPerTool bounds the average cost of a profile's tools/list.
	MaxTokensPerTool = 350
	// MaxToolTokens bounds the cost of any one tool in a list.
	MaxToolTokens = 1000
)

// ItemsAs lists the items of the array property prop, in MCP tool lists
// only, as objects whose fields another tool's prop documents (create_campaign's
// recipients are add_recipients' recipients): a person is described once per
// list instead of once per tool. Validation, REST and the tool reference keep
// the whole schema.
func ItemsAs(prop, tool string) Option {
	return func(t *Tool) {
		t.listedItems = append(t.listedItems, [2]string{prop, tool})
	}
}

// listedInput builds the input schema MCP lists for t: the registry's, with
// the items of each ItemsAs property reduced to objects that point to the
// tool documenting them.
func listedInput(t *Tool) (*jsonschema.Schema, error) {
	if len(t.listedItems) == 0 {
		return t.InputSchema, nil
	}
	s := t.InputSchema.CloneSchemas()
	for _, pt := range t.listedItems {
		prop, tool := pt[0], pt[1]
		p := s.Properties[prop]
		if p == nil || p.Items == nil {
			return nil, fmt.Errorf("ItemsAs(%q): no array property %s", prop, prop)
		}
		p.Items = &jsonschema.Schema{Type: "object"}
		p.Description += fmt.Sprintf("; each item as %s's %s items", tool, prop)
	}
	return s, nil
}

// Listing is what an MCP tools/list shows of one tool, member for member
// (the protocol's Tool): the mcp face lists exactly these values, and
// ListedBytes measures them.
type Listing struct {
	Annotations  ListingAnnotations `json:"annotations"`
	Description  string             `json:"description,omitempty"`
	InputSchema  *jsonschema.Schema `json:"inputSchema"`
	Name         string             `json:"name"`
	OutputSchema *jsonschema.Schema `json:"outputSchema,omitempty"`
	Title        string             `json:"title,omitempty"`
}

// ListingAnnotations are a listed tool's annotations (the protocol's
// ToolAnnotations): every hint is stated, since the protocol's defaults for
// an absent destructive or open-world hint are true.
type ListingAnnotations struct {
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}

// Listing returns what MCP lists of the tool.
func (t Tool) Listing() Listing {
	return Listing{
		Annotations: ListingAnnotations{
			DestructiveHint: t.Hints.Destructive,
			IdempotentHint:  t.Hints.Idempotent,
			OpenWorldHint:   t.Hints.OpenWorld,
			ReadOnlyHint:    t.Hints.ReadOnly,
			Title:           t.Title,
		},
		Description:  t.Description,
		InputSchema:  t.ListedInputSchema,
		Name:         t.Name,
		OutputSchema: t.OutputSchema,
		Title:        t.Title,
	}
}

// ListedBytes is the size of the tool's listing as compact JSON, written
// as MCP writes it (<, > and & unescaped).
func (t Tool) ListedBytes() int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t.Listing()); err != nil {
		panic("tools: " + t.Name + ": listing does not marshal: " + err.Error())
	}
	return b.Len() - 1 // Encode's newline
}

// ListCost is what a profile's tools/list costs: its tools' listings as a
// compact JSON array, in bytes and in tokens counted as bytes/4.
type ListCost struct {
	Profile Profile
	Tools   int
	// Bytes is the compact JSON array of the listings.
	Bytes int
	// Largest is the costliest tool and LargestBytes its listing's size.
	Largest      string
	LargestBytes int
}

// CostOf measures the tools/list of profile pr for a key (every tool of the
// profile; a connection sees a subset, which costs less).
func CostOf(list []Tool, pr Profile) ListCost {
	c := ListCost{Profile: pr, Bytes: 2} // []
	for _, t := range ForProfile(list, pr) {
		n := t.ListedBytes()
		if c.Tools > 0 {
			c.Bytes++ // ,
		}
		c.Tools++
		c.Bytes += n
		if n > c.LargestBytes {
			c.Largest, c.LargestBytes = t.Name, n
		}
	}
	return c
}

// TokensPerTool is the average cost of one tool, bytes/4.
func (c ListCost) TokensPerTool() int {
	if c.Tools == 0 {
		return 0
	}
	return c.Bytes / 4 / c.Tools
}

// LargestTokens is the costliest tool's cost, bytes/4.
func (c ListCost) LargestTokens() int { return c.LargestBytes / 4 }
