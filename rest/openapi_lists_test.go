package rest_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

// nullableArrays counts the schemas of a decoded document that type a list
// as nullable: type [array, null] (3.1) or type array with nullable (3.0).
func nullableArrays(node any) int {
	n := 0
	switch x := node.(type) {
	case map[string]any:
		switch typ := x["type"].(type) {
		case []any:
			if slices.Contains(typ, any("array")) && slices.Contains(typ, any("null")) {
				n++
			}
		case string:
			if typ == "array" && x["nullable"] == true {
				n++
			}
		}
		for _, v := range x {
			n += nullableArrays(v)
		}
	case []any:
		for _, v := range x {
			n += nullableArrays(v)
		}
	}
	return n
}

// TestOpenAPINoNullableLists holds both documents at no nullable list: the
// server refuses a null list and writes an empty one as [] (tools.EmptyLists).
func TestOpenAPINoNullableLists(t *testing.T) {
	t.Parallel()
	v31, v30, err := rest.OpenAPI(tools.All(nil), docConfig)
	require.NoError(t, err)
	for name, raw := range map[string][]byte{"3.1": v31, "3.0.3": v30} {
		var doc any
		require.NoError(t, json.Unmarshal(raw, &doc))
		count := nullableArrays(doc)
		t.Logf("OpenAPI %s: %d nullable arrays", name, count)
		require.Zero(t, count, "OpenAPI %s types a list as nullable", name)
	}
}
