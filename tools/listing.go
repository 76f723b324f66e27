package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// What an MCP tools/list costs an agent is part of every tool's design: the
// list is read into the agent's context before any work. The registry's
// schemas stay whole for validation, REST and the OpenAPI documents; MCP
// lists each tool in a compact form that the budget below holds, profile by
// profile (mcp/tools_budget_test.go; docs/tools.md prints the figures): the
// input schema projected by Tool.ListedInputSchema, no output schema (a
// result is {data} or the error envelope, which the server's instructions
// and the workflow guide describe once; REST's documents hold the payload
// schemas), and no destructive hint on a read-only tool, where the protocol
// gives it no meaning. The title is listed once, in the annotations, where
// clients of every protocol version read it (a top-level title, from
// 2025-06-18, would only repeat it).

// The tool list budget, in tokens counted as bytes/4 of compact JSON.
const (
	// MaxTokensPerTool bounds the average cost of a profile's tools/list.
	MaxTokensPerTool = 350
	// MaxToolTokens bounds the cost of any one tool in a list.
	MaxToolTokens = 1000
)

// FieldsAs lists the property prop, in MCP tool lists only, as plain
// objects whose fields another tool documents: the items of an array prop,
// or an object prop itself, have "the fields of tool's of"
// (create_campaign's recipients and add_to_playbook's recipient have the
// fields of add_recipients' "recipients items"), so that a shape is
// described once per list instead of once per tool. Wherever the tool is
// listed, tool is listed too (TestFieldsAsPointsToAListedTool).
// Validation, REST and the tool reference keep the whole schema.
func FieldsAs(prop, tool, of string) Option {
	return func(t *Tool) {
		t.listedFields = append(t.listedFields, ListedFields{Property: prop, Tool: tool, Of: of})
	}
}

// ListedFields is one FieldsAs option: Property is listed with the fields
// of Tool's Of.
type ListedFields struct {
	Property, Tool, Of string
}

// ListedFields returns the tool's FieldsAs options.
func (t Tool) ListedFields() []ListedFields { return t.listedFields }

// destructiveHint is the listed destructive hint: none on a read-only tool.
func destructiveHint(h Hints) *bool {
	if h.ReadOnly {
		return nil
	}
	return &h.Destructive
}

// DescribedBy lists the tool's top-level properties, in MCP tool lists
// only, by name and type alone, except the properties named in keep: tool,
// listed beside it, describes the same fields with their types and bounds
// (update_campaign's are create_campaign's), and the tool's description
// says so. Validation still holds every field to its whole schema.
func DescribedBy(tool string, keep ...string) Option {
	return func(t *Tool) { t.describedBy, t.describedKeep = tool, keep }
}

// DescribedBy returns the tool named by the DescribedBy option, or "".
func (t Tool) DescribedBy() string { return t.describedBy }

// listedInput builds the input schema MCP lists for t: the registry's,
// without string length caps (storage limits the server enforces, naming
// the field and its limit; a limit an agent must plan for, such as a note's
// 500 characters, is in the field's description), the safe-integer
// maximum or additionalProperties false (the server refuses an unknown
// field by name, and its instructions say so once), and with each FieldsAs property reduced to objects that name
// where their fields are documented.
func listedInput(t *Tool) (*jsonschema.Schema, error) {
	s := t.InputSchema.CloneSchemas()
	for _, li := range t.listedFields {
		p := s.Properties[li.Property]
		where := fmt.Sprintf("the fields of %s %s", possessive(li.Tool), li.Of)
		switch {
		case p == nil:
			return nil, fmt.Errorf("FieldsAs(%q): no such property", li.Property)
		case p.Items != nil:
			p.Items = &jsonschema.Schema{Type: "object"}
			p.Description += "; each item has " + where
		default:
			s.Properties[li.Property] = &jsonschema.Schema{Type: p.Type, Types: p.Types, Description: p.Description + "; has " + where}
		}
	}
	if t.describedBy != "" {
		for name, p := range s.Properties {
			if !slices.Contains(t.describedKeep, name) {
				s.Properties[name] = &jsonschema.Schema{Type: p.Type, Types: p.Types}
			}
		}
	}
	uncap(s)
	return s, nil
}

// uncap drops string length caps, safe-integer maximums and the refusal
// of unnamed members (additionalProperties false) from s and its
// subschemas; a map's value schema stays.
func uncap(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.MaxLength = nil
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
		s.AdditionalProperties = nil
	}
	if s.Maximum != nil && *s.Maximum == maxSafeInteger {
		s.Maximum = nil
	}
	for _, p := range s.Properties {
		uncap(p)
	}
	uncap(s.Items)
	uncap(s.AdditionalProperties)
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf} {
		for _, sub := range list {
			uncap(sub)
		}
	}
}

// maxSafeInteger is 2^53-1, the bound of integers JSON carries exactly.
const maxSafeInteger = 1<<53 - 1

// Listing is what an MCP tools/list shows of one tool, member for member
// (the protocol's Tool): the mcp face lists exactly these values, and
// ListedBytes measures them.
type Listing struct {
	Annotations ListingAnnotations `json:"annotations"`
	Description string             `json:"description,omitempty"`
	InputSchema *jsonschema.Schema `json:"inputSchema"`
	Name        string             `json:"name"`
}

// ListingAnnotations are a listed tool's annotations (the protocol's
// ToolAnnotations). The open-world hint is always stated, and the
// destructive one on every tool that is not read-only, since the
// protocol's defaults for them are true.
type ListingAnnotations struct {
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}

// Listing returns what MCP lists of the tool.
func (t Tool) Listing() Listing {
	return Listing{
		Annotations: ListingAnnotations{
			DestructiveHint: destructiveHint(t.Hints),
			IdempotentHint:  t.Hints.Idempotent,
			OpenWorldHint:   t.Hints.OpenWorld,
			ReadOnlyHint:    t.Hints.ReadOnly,
			Title:           t.Title,
		},
		Description: t.Description,
		InputSchema: t.ListedInputSchema,
		Name:        t.Name,
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

// possessive is name's possessive: add_recipients', create_campaign's.
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}
