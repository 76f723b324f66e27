package rest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSchema30(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"nullable type", `{"type":["null","string"],"description":"d"}`, `{"type":"string","description":"d","nullable":true}`},
		{"type order kept", `{"type":["integer","null"]}`, `{"type":"integer","nullable":true}`},
		{"several types", `{"type":["string","integer"]}`, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`},
		{"only null", `{"type":"null"}`, `{"nullable":true,"enum":[null]}`},
		{"const", `{"type":"string","const":"x"}`, `{"type":"string","enum":["x"]}`},
		{"examples", `{"type":"integer","examples":[3,4]}`, `{"type":"integer","example":3}`},
		{"exclusive bounds", `{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10}`,
			`{"type":"number","exclusiveMinimum":true,"exclusiveMaximum":true,"minimum":0,"maximum":10}`},
		{"null member of anyOf", `{"anyOf":[{"$ref":"#/components/schemas/S"},{"type":"null"}]}`,
			`{"anyOf":[{"$ref":"#/components/schemas/S"}],"nullable":true}`},
		{"3.1-only keywords dropped", `{"type":"array","items":{"type":"string"},"prefixItems":[{"type":"string"}],"$comment":"c","x-keep":1,"patternProperties":{"a":{}}}`,
			`{"type":"array","items":{"type":"string"},"x-keep":1}`},
		{"nested", `{"type":"object","properties":{"a":{"type":["null","array"],"items":{"type":["null","object"],"additionalProperties":{"type":["null","integer"]}}}},"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","additionalProperties":{"type":"integer","nullable":true},"nullable":true},"nullable":true}},"additionalProperties":false}`},
		{"boolean sub-schemas", `{"type":"object","properties":{"a":true,"b":false},"additionalProperties":true}`,
			`{"type":"object","properties":{"a":{},"b":{"not":{}}},"additionalProperties":true}`},
		{"property named type", `{"type":"object","properties":{"type":{"type":["null","string"]}}}`,
			`{"type":"object","properties":{"type":{"type":"string","nullable":true}}}`},
		{"empty required dropped", `{"type":"object","required":[]}`, `{"type":"object"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := decodeOrdered([]byte(c.in))
			require.NoError(t, err)
			out, err := json.Marshal(schema30(in))
			require.NoError(t, err)
			require.JSONEq(t, c.want, string(out))
		})
	}
}

func TestDowngradeDocument(t *testing.T) {
	t.Parallel()
	in := `{"openapi":"3.1.0","info":{"title":"t","summary":"s","version":"1","license":{"name":"MIT","identifier":"MIT"}},
		"jsonSchemaDialect":"https://json-schema.org/draft/2020-12/schema",
		"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":["null","integer"]}}],
			"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"const":1}}}}}}}},
		"webhooks":{"evt":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":["null","string"]}}}},"responses":{"200":{"description":"ok"}}}}},
		"components":{"schemas":{"S":{"type":["null","object"]}}}}`
	tree, err := decodeOrdered([]byte(in))
	require.NoError(t, err)
	out, err := json.Marshal(downgrade(tree.(*object)))
	require.NoError(t, err)
	require.JSONEq(t, `{"openapi":"3.0.3","info":{"title":"t","version":"1","license":{"name":"MIT"}},
		"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"integer","nullable":true}}],
			"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"enum":[1]}}}}}}}},
		"x-webhooks":{"evt":{"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"string","nullable":true}}}},"responses":{"200":{"description":"ok"}}}}},
		"components":{"schemas":{"S":{"type":"object","nullable":true}}}}`, string(out))
	// x-webhooks keeps webhooks' place.
	require.Regexp(t, `"paths".*"x-webhooks".*"components"`, string(out))
}

func TestObjectKeepsOrder(t *testing.T) {
	t.Parallel()
	o := obj("b", 1, "a", 2)
	o.set("c", 3)
	o.set("b", 4)
	o.del("a")
	o.rename("c", "z")
	raw, err := json.Marshal(o)
	require.NoError(t, err)
	require.Equal(t, `{"b":4,"z":3}`, string(raw))

	tree, err := decodeOrdered([]byte(`{"z":[{"y":1,"x":null}],"a":"s"}`))
	require.NoError(t, err)
	raw, err = json.Marshal(tree)
	require.NoError(t, err)
	require.Equal(t, `{"z":[{"y":1,"x":null}],"a":"s"}`, string(raw))
}
