package rest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/rest"
	"github.com/giftwell/giftwell/tools"
)

var docConfig = core.Config{SiteURL: "https://giftwell.example"}

// loadDoc loads and validates a document with kin-openapi (which validates
// OpenAPI 3.1 as well as 3.0 since v0.13x).
func loadDoc(t *testing.T, raw []byte) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	require.NoError(t, err)
	require.NoError(t, doc.Validate(loader.Context))
	return doc
}

func TestOpenAPIDocumentsLoadAndValidate(t *testing.T) {
	t.Parallel()
	list := tools.All(nil)
	v31, v30, err := rest.OpenAPI(list, docConfig)
	require.NoError(t, err)

	d31, d30 := loadDoc(t, v31), loadDoc(t, v30)
	require.True(t, d31.IsOpenAPI31OrLater())
	require.Equal(t, "3.1.0", d31.OpenAPI)
	require.True(t, d30.IsOpenAPI30())
	require.Equal(t, "3.0.3", d30.OpenAPI)

	for _, doc := range []*openapi3.T{d31, d30} {
		require.Equal(t, "1.0.0", doc.Info.Version)
		require.Len(t, doc.Servers, 1)
		require.Equal(t, "https://giftwell.example/api/v1", doc.Servers[0].URL)
		bearer := doc.Components.SecuritySchemes["bearerAuth"].Value
		require.Equal(t, "http", bearer.Type)
		require.Equal(t, "bearer", bearer.Scheme)
		require.Contains(t, doc.Components.Schemas, "Error")

		ops := map[string]*openapi3.Operation{}
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				require.NotContains(t, ops, op.OperationID, "operationId %s twice", op.OperationID)
				ops[op.OperationID] = op
				require.NotEmpty(t, op.Summary, op.OperationID)
				for code, r := range op.Responses.Map() {
					if code == "default" || code[0] == '2' {
						continue
					}
					require.Equal(t, "#/components/schemas/Error", r.Value.Content.Get("application/json").Schema.Ref, "%s %s %s", method, path, code)
				}
			}
		}
		// Every tool with a REST binding is one operation named after it.
		for _, tool := range list {
			if tool.Route == nil {
				continue
			}
			op := ops[tool.Name]
			require.NotNil(t, op, tool.Name)
			item := doc.Paths.Find(tool.Route.Path)
			require.NotNil(t, item, tool.Route.Path)
			require.Same(t, op, item.GetOperation(tool.Route.Method), tool.Name)
			success := op.Responses.Status(tool.Route.Status)
			require.NotNil(t, success, tool.Name)
			if media := tool.Route.Produces; media != "" {
				require.Nil(t, success.Value.Content.Get("application/json"), "%s answers with a file", tool.Name)
				for m := range strings.SplitSeq(media, ",") {
					require.True(t, success.Value.Content.Get(strings.TrimSpace(m)).Schema.Value.Type.Is("string"), tool.Name)
				}
			} else {
				require.True(t, strings.HasSuffix(success.Value.Content.Get("application/json").Schema.Ref, "Response"), tool.Name)
			}
			statuses := map[tools.Credentials][]int{
				tools.CredentialsRequired: {400, 401, 403, 404, 409, 429, 500},
				tools.CredentialsOptional: {400, 401, 403, 500},
				tools.CredentialsNone:     {400, 403, 500},
			}[tool.Route.Credentials]
			require.NotEmpty(t, statuses, tool.Name)
			for _, status := range statuses {
				require.NotNil(t, op.Responses.Status(status), "%s %d", tool.Name, status)
			}
			if tool.Route.Credentials == tools.CredentialsNone {
				require.Nil(t, op.Responses.Status(401), "%s reads no credentials", tool.Name)
			}
			require.NotNil(t, op.Responses.Default(), tool.Name)
		}
		require.Contains(t, ops, "get_catalog")
		require.Contains(t, ops, "get_session")
		require.NotNil(t, ops["get_catalog"].Security, "GET /catalog is public")
		require.Empty(t, *ops["get_catalog"].Security, "GET /catalog is public")
	}

	// 3.0.3 has no 3.1-only forms.
	var tree any
	require.NoError(t, json.Unmarshal(v30, &tree))
	walkJSON(tree, func(path string, key string, v any) {
		if strings.HasSuffix(path, "/properties") {
			return // a property's name, not a keyword
		}
		require.NotEqual(t, "const", key, path)
		require.NotEqual(t, "examples", key, "%s (schemas use example in 3.0)", path)
		if key == "type" {
			_, isString := v.(string)
			require.True(t, isString, "%s: type must be a single string in 3.0.3, got %v", path, v)
		}
	})
	top := tree.(map[string]any)
	require.NotContains(t, top, "webhooks")
	require.Contains(t, top, "x-webhooks")
	require.Contains(t, string(v31), `"webhooks"`)
}

func TestOpenAPIIsDeterministic(t *testing.T) {
	t.Parallel()
	a31, a30, err := rest.OpenAPI(tools.All(nil), docConfig)
	require.NoError(t, err)
	for range 3 {
		b31, b30, err := rest.OpenAPI(tools.All(nil), docConfig)
		require.NoError(t, err)
		require.Equal(t, string(a31), string(b31))
		require.Equal(t, string(a30), string(b30))
	}
}

func TestOpenAPIRefusesDuplicateRoutes(t *testing.T) {
	t.Parallel()
	list := append(tools.All(nil), testTools()...)
	dup := list[len(list)-1]
	dup.Name = "fail_test_again"
	_, _, err := rest.OpenAPI(append(list, dup), docConfig)
	require.ErrorContains(t, err, "/test-failures/{kind}")
}

func TestServedDocumentsAreTheGeneratedOnes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	v31, v30, err := rest.OpenAPI(append(tools.All(h.env.App), testTools()...), h.env.App.Config)
	require.NoError(t, err)

	for name, want := range map[string][]byte{"openapi.json": v31, "openapi-3.0.json": v30} {
		res, err := h.srv.Client().Get(h.base + "/" + name)
		require.NoError(t, err)
		body, err := io.ReadAll(res.Body)
		require.NoError(t, res.Body.Close())
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Equal(t, "application/json", res.Header.Get("Content-Type"))
		require.Equal(t, string(want), string(body), name)
	}
}

// TestEveryDocumentedOperationIsRouted calls every operation of the
// document and checks that it is routed (no 404 "no route", no 405).
func TestEveryDocumentedOperationIsRouted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	doc := h.docs[0].doc
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			concrete := path
			for _, p := range item.GetOperation(method).Parameters {
				if p.Value.In == "path" {
					concrete = strings.ReplaceAll(concrete, "{"+p.Value.Name+"}", "x"+strconv.Itoa(len(p.Value.Name)))
				}
			}
			res := h.do(method, concrete, nil, withKey(h.env.OwnerKey))
			require.NotEqual(t, http.StatusMethodNotAllowed, res.Status, "%s %s", method, concrete)
			require.NotContains(t, res.message(), "no route", "%s %s", method, concrete)
		}
	}
}

// walkJSON calls f for every key of every object in v.
func walkJSON(v any, f func(path, key string, v any)) {
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, child := range x {
				f(path, k, child)
				walk(path+"/"+k, child)
			}
		case []any:
			for i, child := range x {
				walk(path+"/"+strconv.Itoa(i), child)
			}
		}
	}
	walk("", v)
}

// TestOpenAPI31DocumentIsValidatedAs31 shows that kin-openapi validates the
// 3.1 document by the 3.1 rules: the same document labelled 3.0.3 is
// refused for its type arrays, which only 3.1 allows.
func TestOpenAPI31DocumentIsValidatedAs31(t *testing.T) {
	t.Parallel()
	v31, _, err := rest.OpenAPI(tools.All(nil), docConfig)
	require.NoError(t, err)
	relabelled := strings.Replace(string(v31), `"openapi": "3.1.0"`, `"openapi": "3.0.3"`, 1)
	require.NotEqual(t, string(v31), relabelled)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData([]byte(relabelled))
	require.NoError(t, err)
	require.Error(t, doc.Validate(loader.Context))
}
