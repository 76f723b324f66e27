package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/giftwell/giftwell/core"
)

// maxErrors caps how many problems one VALIDATION_ERROR lists.
const maxErrors = 10

// validator checks arguments against one tool's input schema. The checks
// are jsonschema-go's (Resolved.Validate); the validator only walks the
// arguments so that every problem is reported at its path
// (recipients[2].email) in the words the API has always used, which
// jsonschema-go's errors (the first problem only, at a schema location) do
// not give. Its tree is resolved at the tool's first call, not when the tool
// is defined: a server holds the trees of the tools it is called with, not
// of all of them (docs/decisions/0122-an-idle-server-holds-little.md).
// TestEveryToolResolves resolves every tool's tree.
type validator struct {
	name   string
	schema *jsonschema.Schema
	once   sync.Once
	root   *node
	err    error
}

// node is one schema of the tree, resolved for validation at one place of
// the arguments.
type node struct {
	schema *jsonschema.Schema
	// local is the schema without its children (properties, items and
	// additional properties only say which names are known): it judges the
	// value at this place alone, so a problem further down is not reported
	// twice.
	local *jsonschema.Resolved
	// keywords are local's keywords one by one, in the order problems are
	// reported; each is resolved on its own. They are resolved when local
	// first fails, to name every problem: valid arguments never need them.
	keywords     []keyword
	keywordsErr  error
	keywordsOnce sync.Once
	// integer is true when the schema's type is integer (or null|integer).
	integer bool

	properties map[string]*node
	items      *node
	additional *node // a schema for other properties (a map's values)
	closed     bool  // additionalProperties: false
}

// keyword is one keyword of a node, resolved as a schema of its own.
type keyword struct {
	name     string
	resolved *jsonschema.Resolved
	// property is the required property this keyword checks, for "required".
	property string
}

// newValidator is the validator of the tool called name, whose input
// schema is s; its tree is resolved at the first call (resolve).
func newValidator(name string, s *jsonschema.Schema) *validator {
	return &validator{name: name, schema: s}
}

// resolve builds the tree once. A schema that does not resolve is a
// programming error the registry's tests find (TestEveryToolResolves); a
// call then answers an internal error rather than panicking the server.
func (val *validator) resolve() (*node, error) {
	val.once.Do(func() {
		if val.schema != nil {
			_, val.err = val.schema.Resolve(nil)
		}
		if val.err == nil {
			val.root, val.err = newNode(val.schema)
		}
		if val.err != nil {
			val.err = fmt.Errorf("tools: %s: schema does not resolve: %w", val.name, val.err)
		}
	})
	return val.root, val.err
}

// newNode builds the node of s and its children; the whole of s was
// resolved first (resolve), so each node resolves only its local schema.
func newNode(s *jsonschema.Schema) (*node, error) {
	if s == nil {
		return nil, nil
	}
	n := &node{schema: s, integer: slices.Contains(types(s), "integer"), closed: isFalse(s.AdditionalProperties)}
	local := n.localSchema()
	var err error
	if n.local, err = local.Resolve(nil); err != nil {
		return nil, err
	}
	if n.items, err = newNode(s.Items); err != nil {
		return nil, err
	}
	if !n.closed {
		if n.additional, err = newNode(s.AdditionalProperties); err != nil {
			return nil, err
		}
	}
	for name, ps := range s.Properties {
		child, err := newNode(ps)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if n.properties == nil {
			n.properties = make(map[string]*node, len(s.Properties))
		}
		n.properties[name] = child
	}
	return n, nil
}

// localSchema is the node's schema without its children: known names stay
// known to additionalProperties: false; their values are checked by their
// own nodes.
func (n *node) localSchema() *jsonschema.Schema {
	local := *n.schema
	local.Items, local.AdditionalProperties, local.Properties = nil, nil, nil
	if n.schema.Properties != nil {
		local.Properties = make(map[string]*jsonschema.Schema, len(n.schema.Properties))
		for name := range n.schema.Properties {
			local.Properties[name] = &jsonschema.Schema{}
		}
	}
	if n.closed {
		local.AdditionalProperties = falseSchema()
	}
	return &local
}

// keywordList is the node's keywords, resolved at the first failure.
func (n *node) keywordList() ([]keyword, error) {
	n.keywordsOnce.Do(func() { n.keywords, n.keywordsErr = keywordsOf(n.localSchema()) })
	return n.keywords, n.keywordsErr
}

// keywordsOf splits the keywords the API names problems for into schemas of
// their own, in the order today's messages list them.
func keywordsOf(s *jsonschema.Schema) ([]keyword, error) {
	var out []keyword
	add := func(name, property string, k *jsonschema.Schema) error {
		r, err := k.Resolve(nil)
		if err != nil {
			return err
		}
		out = append(out, keyword{name: name, resolved: r, property: property})
		return nil
	}
	type part struct {
		name    string
		present bool
		schema  *jsonschema.Schema
	}
	parts := []part{
		{"type", s.Type != "" || len(s.Types) > 0, &jsonschema.Schema{Type: s.Type, Types: s.Types}},
		{"enum", len(s.Enum) > 0, &jsonschema.Schema{Enum: s.Enum}},
		{"minLength", s.MinLength != nil, &jsonschema.Schema{MinLength: s.MinLength}},
		{"maxLength", s.MaxLength != nil, &jsonschema.Schema{MaxLength: s.MaxLength}},
		{"pattern", s.Pattern != "", &jsonschema.Schema{Pattern: s.Pattern}},
		{"minimum", s.Minimum != nil, &jsonschema.Schema{Minimum: s.Minimum}},
		{"maximum", s.Maximum != nil, &jsonschema.Schema{Maximum: s.Maximum}},
		{"minItems", s.MinItems != nil, &jsonschema.Schema{MinItems: s.MinItems}},
		{"maxItems", s.MaxItems != nil, &jsonschema.Schema{MaxItems: s.MaxItems}},
	}
	for _, p := range parts {
		if p.present {
			if err := add(p.name, "", p.schema); err != nil {
				return nil, err
			}
		}
	}
	for _, r := range s.Required {
		if err := add("required", r, &jsonschema.Schema{Required: []string{r}}); err != nil {
			return nil, err
		}
	}
	if s.MaxProperties != nil {
		if err := add("maxProperties", "", &jsonschema.Schema{MaxProperties: s.MaxProperties}); err != nil {
			return nil, err
		}
	}
	if s.AdditionalProperties != nil {
		if err := add("additionalProperties", "", &jsonschema.Schema{Properties: s.Properties, AdditionalProperties: s.AdditionalProperties}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeArgs checks raw arguments against the tool's input schema and then
// decodes them into v. Every refusal is a VALIDATION_ERROR whose message
// names each offending field by its path (recipients[2].email); syntax errors
// are INVALID_JSON. Hostile text (a NUL, bytes that are not UTF-8) is refused
// first, by CheckJSON: this is the one place every face's arguments pass.
// Absent or null arguments are an empty object.
func decodeArgs(val *validator, raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return &core.Error{Code: core.CodeInvalidJSON, Message: "arguments: invalid JSON: " + err.Error()}
	}
	if dec.More() {
		return &core.Error{Code: core.CodeInvalidJSON, Message: "arguments: invalid JSON: more than one value"}
	}
	if _, ok := doc.(map[string]any); !ok {
		return core.Invalid("arguments", "must be a JSON object")
	}
	if err := CheckJSON(raw); err != nil {
		return err
	}
	root, err := val.resolve()
	if err != nil {
		return err
	}
	var c checker
	root.check(&c, "", doc)
	if err := c.err(); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return core.Invalid(te.Field, "must be %s", te.Type)
		}
		return core.Invalid("arguments", "%v", err)
	}
	return nil
}

// check reports the problems of the value v at path, then of its children.
func (n *node) check(c *checker, path string, v any) {
	if n == nil {
		return
	}
	num, isNum := v.(json.Number)
	if isNum && n.integer && !isIntegerLiteral(num) {
		// JSON Schema counts 1.0 and 1e2 as integers; the Go fields they
		// decode into do not, so a literal with a fraction or an exponent
		// is a number here.
		c.add(path, "must be %s", describe(types(n.schema)))
		return
	}
	if isNum && isInfinite(num) && typeMatches(types(n.schema), "number") {
		c.add(path, "is out of range")
		return
	}
	var unknown bool // jsonschema-go found names additionalProperties: false refuses
	if err := n.local.Validate(instance(v)); err != nil {
		var stop bool
		if stop, unknown = n.itemize(c, path, v, err); stop {
			return
		}
	}
	if isNum && n.integer && !fitsInt64(num) && !c.reported(path) {
		c.add(path, "is out of range")
	}
	if str, ok := v.(string); ok && !c.reported(path) {
		if msg := formatProblem(n.schema, str); msg != "" {
			c.add(path, "%s", msg)
		}
	}
	switch x := v.(type) {
	case []any:
		for i, item := range x {
			n.items.check(c, fmt.Sprintf("%s[%d]", path, i), item)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			child, known := n.properties[k]
			switch {
			case known:
				child.check(c, join(path, k), x[k])
			case unknown:
				c.add(join(path, k), "is not a known field")
			case !n.closed:
				n.additional.check(c, join(path, k), x[k])
			}
		}
	}
}

// itemize runs the node's keywords one by one on v, which failed the local
// schema with err, and reports each failing one. It returns stop when the
// value is of the wrong type or not one of the allowed values (then nothing
// below it is checked), and unknown when the object has names that
// additionalProperties: false refuses (the caller names them in key order,
// among the problems of the known ones).
func (n *node) itemize(c *checker, path string, v any, err error) (stop, unknown bool) {
	before := len(c.problems)
	inst := instance(v)
	var numberReported bool
	keywords, kerr := n.keywordList()
	if kerr != nil {
		// Resolved with local, so a programming error: jsonschema-go's words.
		c.add(path, "%s", schemaMessage(err))
		return true, false
	}
	for _, k := range keywords {
		if k.resolved.Validate(inst) == nil {
			continue
		}
		switch {
		case k.name == "additionalProperties":
			unknown = true
			continue
		case k.name == "maximum" && numberReported:
			continue // one bound at a time, as the range reads
		}
		numberReported = numberReported || k.name == "minimum"
		problem(c, n.schema, path, k)
		if k.name == "type" || k.name == "enum" {
			return true, false
		}
	}
	if len(c.problems) == before && !unknown {
		// A keyword without a message of its own: jsonschema-go's words.
		c.add(path, "%s", schemaMessage(err))
	}
	return false, unknown
}

// problem reports the failed keyword k of schema s at path in the API's
// words: the one mapping from jsonschema-go's keywords to messages.
func problem(c *checker, s *jsonschema.Schema, path string, k keyword) {
	switch k.name {
	case "type":
		c.add(path, "must be %s", describe(types(s)))
	case "enum":
		var opts []string
		for _, e := range s.Enum {
			opts = append(opts, fmt.Sprint(e))
		}
		c.add(path, "must be one of %s", strings.Join(opts, ", "))
	case "minLength":
		if *s.MinLength == 1 {
			c.add(path, "must not be empty")
		} else {
			c.add(path, "must be at least %d characters", *s.MinLength)
		}
	case "maxLength":
		c.add(path, "must be at most %d characters", *s.MaxLength)
	case "pattern":
		c.add(path, "has an invalid format")
	case "minimum":
		c.add(path, "must be at least %s", strconv.FormatFloat(*s.Minimum, 'f', -1, 64))
	case "maximum":
		c.add(path, "must be at most %s", strconv.FormatFloat(*s.Maximum, 'f', -1, 64))
	case "minItems":
		c.add(path, "must have at least %d items", *s.MinItems)
	case "maxItems":
		c.add(path, "must have at most %d items", *s.MaxItems)
	case "required":
		c.add(join(path, k.property), "is required")
	case "maxProperties":
		c.add(path, "must have at most %d entries", *s.MaxProperties)
	}
}

// schemaMessage is jsonschema-go's message without its "validating <schema
// location>: " prefixes.
func schemaMessage(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		_, rest, ok := strings.Cut(msg, ": ")
		if !ok {
			break
		}
		msg = rest
	}
	return msg
}

// instance is v as jsonschema-go validates it: a JSON number as an int64
// when it is one, else a float64. Children are left as they are: a local
// schema does not look at their values.
func instance(v any) any {
	num, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, err := strconv.ParseInt(num.String(), 10, 64); err == nil {
		return i
	}
	f, _ := num.Float64() // out of range: ±Inf, handled before
	return f
}

// isIntegerLiteral reports whether num is written as an integer: no
// fraction and no exponent.
func isIntegerLiteral(num json.Number) bool {
	return !strings.ContainsAny(num.String(), ".eE")
}

// isInfinite reports whether num is beyond a float64.
func isInfinite(num json.Number) bool {
	f, err := num.Float64()
	return err != nil || math.IsInf(f, 0)
}

// fitsInt64 reports whether num, an integer literal, fits an int64.
func fitsInt64(num json.Number) bool {
	_, err := strconv.ParseInt(num.String(), 10, 64)
	return err == nil
}

// checker collects problems.
type checker struct {
	problems []string
	fields   []string
}

func (c *checker) full() bool { return len(c.problems) >= maxErrors }

func (c *checker) add(path, format string, args ...any) {
	if c.full() {
		return
	}
	name := path
	if name == "" {
		name = "arguments"
	}
	c.problems = append(c.problems, name+": "+fmt.Sprintf(format, args...))
	c.fields = append(c.fields, name)
}

// reported reports whether a problem was already added at path.
func (c *checker) reported(path string) bool {
	if path == "" {
		path = "arguments"
	}
	return slices.Contains(c.fields, path)
}

func (c *checker) err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return &core.Error{Code: core.CodeValidation, Message: strings.Join(c.problems, "; "), Fields: c.fields}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// falseSchema is the schema that accepts nothing, as jsonschema-go spells
// additionalProperties: false.
func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

func isFalse(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

func types(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func typeMatches(want []string, got string) bool {
	if len(want) == 0 {
		return true
	}
	for _, w := range want {
		if w == got || (w == "number" && got == "integer") {
			return true
		}
	}
	return false
}

func describe(want []string) string {
	names := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "null" })
	for i, n := range names {
		switch n {
		case "object", "array", "integer":
			names[i] = "an " + n
		default:
			names[i] = "a " + n
		}
	}
	return strings.Join(names, " or ")
}
