package rest_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/rest"
)

// noteBody is a JSON body of exactly size bytes: {"note":"aaa..."}.
func noteBody(size int) []byte {
	const open, close = `{"note":"`, `"}`
	return []byte(open + strings.Repeat("a", size-len(open)-len(close)) + close)
}

func TestPostWithBody(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.do(http.MethodPost, "/test-notes/n1", strings.NewReader(`{"note":"hello","count":2}`),
		withKey(h.env.OwnerKey), withHeader("Content-Type", "application/json; charset=utf-8"))
	require.Equal(t, http.StatusCreated, res.Status)
	require.JSONEq(t, `{"data":{"id":"n1","note":"hello","count":2}}`, string(res.Body))
}

func TestBodyRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)

	cases := []struct {
		name   string
		body   io.Reader
		opts   []reqOpt
		status int
		code   string
		names  string // the message names this
	}{
		{"text/plain", strings.NewReader(`{"note":"hi"}`), []reqOpt{withHeader("Content-Type", "text/plain")}, 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"no content type", strings.NewReader(`{"note":"hi"}`), nil, 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"chunked text/plain", strings.NewReader(`{"note":"hi"}`), []reqOpt{withHeader("Content-Type", "text/plain"), chunked()}, 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"over 1 MiB", bytes.NewReader(noteBody(rest.MaxBodyBytes + 1)), []reqOpt{withJSON()}, 413, "REQUEST_TOO_LARGE", "1 MiB"},
		{"over 1 MiB chunked", bytes.NewReader(noteBody(rest.MaxBodyBytes + 1)), []reqOpt{withJSON(), chunked()}, 413, "REQUEST_TOO_LARGE", "1 MiB"},
		{"exactly 1 MiB is read", bytes.NewReader(noteBody(rest.MaxBodyBytes)), []reqOpt{withJSON()}, 400, "VALIDATION_ERROR", "note"},
		{"exactly 1 MiB chunked is read", bytes.NewReader(noteBody(rest.MaxBodyBytes)), []reqOpt{withJSON(), chunked()}, 400, "VALIDATION_ERROR", "note"},
		{"invalid JSON", strings.NewReader(`{"note":`), []reqOpt{withJSON()}, 400, "INVALID_JSON", "body"},
		{"invalid JSON character", strings.NewReader(`{note:"x"}`), []reqOpt{withJSON()}, 400, "INVALID_JSON", "body"},
		{"two values", strings.NewReader(`{"note":"a"} {}`), []reqOpt{withJSON()}, 400, "INVALID_JSON", "body"},
		{"not an object", strings.NewReader(`["note"]`), []reqOpt{withJSON()}, 400, "VALIDATION_ERROR", "body"},
		{"unknown field", strings.NewReader(`{"note":"hi","colour":"red"}`), []reqOpt{withJSON()}, 400, "VALIDATION_ERROR", "colour"},
		{"path parameter in body", strings.NewReader(`{"note":"hi","id":"n2"}`), []reqOpt{withJSON()}, 400, "VALIDATION_ERROR", "id"},
		{"wrong type", strings.NewReader(`{"note":"hi","count":"two"}`), []reqOpt{withJSON()}, 400, "VALIDATION_ERROR", "count"},
		{"empty body is {}", nil, nil, 400, "VALIDATION_ERROR", "note: is required"},
		{"query on a body operation", strings.NewReader(`{"note":"hi"}`), []reqOpt{withJSON()}, 400, "VALIDATION_ERROR", "count"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := "/test-notes/n1"
			if c.name == "query on a body operation" {
				path += "?count=2"
			}
			res := h.do(http.MethodPost, path, c.body, append([]reqOpt{key}, c.opts...)...)
			require.Equal(t, c.status, res.Status, "%s", res.Body)
			require.Equal(t, c.code, res.code())
			require.Contains(t, res.message(), c.names)
		})
	}
}

// An operation that takes no body refuses one with fields, naming each
// field, as unknown fields are refused elsewhere: a client must never
// believe a field it sent was applied. No body, or {}, passes.
func TestOperationWithoutBodyRefusesOne(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)

	res := h.do(http.MethodPost, "/test-items/i1/ping", strings.NewReader(`{"cursor":3,"b":1}`), key, withJSON())
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.Contains(t, res.message(), "b: is not a known field; this operation takes no body")
	require.Contains(t, res.message(), "cursor: is not a known field; this operation takes no body")

	res = h.do(http.MethodPost, "/test-items/i1/ping", strings.NewReader("not json at all"), key, withHeader("Content-Type", "text/plain"))
	require.Equal(t, http.StatusUnsupportedMediaType, res.Status)

	for _, body := range []io.Reader{nil, strings.NewReader("{}"), strings.NewReader(" { } ")} {
		res = h.do(http.MethodPost, "/test-items/i1/ping", body, key, withJSON())
		require.Equal(t, http.StatusOK, res.Status)
		require.JSONEq(t, `{"data":{"id":"i1","pinged":true}}`, string(res.Body))
	}

	// A GET with a body is held to the same rules.
	res = h.do(http.MethodGet, "/workflow", strings.NewReader("{broken"), key, withJSON())
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Equal(t, "INVALID_JSON", res.code())
	res = h.do(http.MethodGet, "/workflow", nil, key)
	require.Equal(t, http.StatusOK, res.Status)
}

func TestQueryRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)

	cases := []struct {
		name, path string
		names      []string
	}{
		{"unknown parameter", "/catalog/search?colour=red", []string{"colour", "not a known query parameter"}},
		{"two unknown parameters", "/catalog/search?b=1&a=2", []string{"a:", "b:"}},
		{"limit not an integer", "/catalog/search?limit=abc", []string{"limit", "must be an integer"}},
		{"limit out of range", "/catalog/search?limit=0", []string{"limit"}},
		{"boolean", "/catalog/search?excludeFood=yes", []string{"excludeFood", "true or false"}},
		{"scalar given twice", "/test-things?limit=1&limit=2", []string{"limit", "once"}},
		{"array item", "/test-things?counts=1,x", []string{"counts", "item 2 must be an integer"}},
		{"number", "/test-things?ratio=fast", []string{"ratio", "must be a number"}},
		{"object", "/test-things?filter=notjson", []string{"filter", "JSON object"}},
		{"path parameter in query", "/catalog/p1?productId=p2", []string{"productId", "path parameter"}},
		{"malformed query", "/test-things?limit=%zz", []string{"query"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := h.get(c.path, key)
			require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
			require.Equal(t, "VALIDATION_ERROR", res.code())
			for _, n := range c.names {
				require.Contains(t, res.message(), n)
			}
		})
	}
}

func TestQueryCoercion(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get(`/test-things?ids=a,+b&ids=c&counts=1,2&flag=TRUE&ratio=0.5&limit=3&max=-7&filter=%7B%22x%22%3A1%7D`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.JSONEq(t, `{"data":{"ids":["a","b","c"],"counts":[1,2],"flag":true,"ratio":0.5,"limit":3,"max":-7,"filter":{"x":1}}}`, string(res.Body))

	res = h.get(`/test-things?ids=`, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
}

func TestDeleteTakesQueryAndEscapedPath(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.do(http.MethodDelete, "/test-things/a%2Fb?reason=old", nil, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.JSONEq(t, `{"data":{"id":"a/b","reason":"old"}}`, string(res.Body))
}

func TestSearchGifts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/catalog/search?budgetCents=5000&recipientCount=10", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	data := res.data().(map[string]any)
	require.EqualValues(t, 5000, data["budgetCents"])
	require.EqualValues(t, 10, data["recipientCount"])
	items := data["items"].([]any)
	require.NotEmpty(t, items)
	for _, it := range items {
		item := it.(map[string]any)
		total := item["estimatedTotalCents"].(float64)
		require.LessOrEqual(t, total, 5000.0)
		require.Equal(t, total*10, item["campaignEstimateCents"])
	}
}

func TestGetGiftUnknownIsNotFound(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/catalog/no-such-gift", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Equal(t, "NOT_FOUND", res.code())
	require.Contains(t, res.message(), "productId")
}

func TestGetGift(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	products, err := h.env.App.Catalog.PublicCatalog(t.Context())
	require.NoError(t, err)
	require.NotEmpty(t, products)

	res := h.get("/catalog/"+products[0].ID, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, products[0].ID, res.data().(map[string]any)["id"])
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/catalog", withHeader("Origin", "https://evil.example"))
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "ORIGIN_FORBIDDEN", res.code())

	res = h.get("/workflow", withKey(h.env.OwnerKey), withHeader("Origin", "null"))
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "ORIGIN_FORBIDDEN", res.code())

	// Refused before routing: an unknown route too.
	res = h.get("/nowhere", withHeader("Origin", "https://evil.example"))
	require.Equal(t, http.StatusForbidden, res.Status)

	res = h.get("/catalog", withHeader("Origin", h.site))
	require.Equal(t, http.StatusOK, res.Status)
	res = h.get("/catalog", withHeader("Origin", strings.ToUpper(h.site[:4])+h.site[4:]))
	require.Equal(t, http.StatusOK, res.Status)
}

func TestUnknownRouteAndMethod(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/nowhere")
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Equal(t, "NOT_FOUND", res.code())
	require.Contains(t, res.message(), "/nowhere")

	res = h.do(http.MethodDelete, "/catalog", nil)
	require.Equal(t, http.StatusMethodNotAllowed, res.Status)
	require.Equal(t, "METHOD_NOT_ALLOWED", res.code())
	require.Equal(t, "GET", res.Header.Get("Allow"))

	res = h.do(http.MethodPost, "/catalog/search", strings.NewReader(`{}`), withJSON())
	require.Equal(t, http.StatusMethodNotAllowed, res.Status)
	require.Equal(t, "GET", res.Header.Get("Allow"))

	res = h.do(http.MethodGet, "/test-things/t1", nil)
	require.Equal(t, http.StatusMethodNotAllowed, res.Status)
	require.Equal(t, "DELETE", res.Header.Get("Allow"))

}

func TestBehindStripPrefix(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stripPrefix)

	res := h.do(http.MethodDelete, "/test-things/a%2Fb?reason=old", nil, withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.JSONEq(t, `{"data":{"id":"a/b","reason":"old"}}`, string(res.Body))

	res = h.get("/nowhere")
	require.Equal(t, http.StatusNotFound, res.Status)
	require.Contains(t, res.message(), "/nowhere")

	res = h.do("PURGE", "/catalog", nil)
	require.Equal(t, http.StatusMethodNotAllowed, res.Status)
	require.Equal(t, "GET", res.Header.Get("Allow"))

	res = h.do("PURGE", "/nowhere", nil)
	require.Equal(t, http.StatusNotFound, res.Status)
}
