package tools

import (
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"
)

// The reference names the tools whose payload holds snake_case fields,
// however deep: a record in a list, a definition.
func TestSnakeCaseToolsAreNamed(t *testing.T) {
	t.Parallel()
	camel := &jsonschema.Schema{Properties: map[string]*jsonschema.Schema{"giftId": {}, "items": {Items: &jsonschema.Schema{Properties: map[string]*jsonschema.Schema{"sendId": {}}}}}}
	snake := &jsonschema.Schema{Properties: map[string]*jsonschema.Schema{"records": {Items: &jsonschema.Schema{Properties: map[string]*jsonschema.Schema{"gift_id": {}}}}}}
	defs := &jsonschema.Schema{Defs: map[string]*jsonschema.Schema{"Row": {Properties: map[string]*jsonschema.Schema{"next_at": {}}}}}
	got := snakeCaseTools([]Tool{{Name: "a", DataSchema: camel}, {Name: "b", DataSchema: snake}, {Name: "c", DataSchema: defs}, {Name: "d"}})
	require.Equal(t, []string{"[b](#b)", "[c](#c)"}, got)
}
