package catalog_test

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

// browseAll follows nextCursor from the first page to the last.
func browseAll(t *testing.T, products []catalog.Product, p catalog.BrowseParams) (ids []string, pages int) {
	t.Helper()
	for {
		res, err := catalog.BrowseCatalog(products, 7, p)
		require.NoError(t, err)
		pages++
		if p.Limit != nil {
			require.LessOrEqual(t, len(res.Items), *p.Limit)
		}
		for _, it := range res.Items {
			ids = append(ids, it.ID)
			require.Equal(t, p.Detail == catalog.BrowseFull, it.ProductDetails != nil, it.ID)
		}
		if res.NextCursor == nil {
			return ids, pages
		}
		p.Cursor = *res.NextCursor
	}
}

func TestBrowseCoversTheCatalogExactlyOnce(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	var current, every []string
	for _, p := range products {
		every = append(every, p.ID)
		if !p.Retired {
			current = append(current, p.ID)
		}
	}
	require.Less(t, len(current), len(every), "the embedded catalog has retired gifts")
	for _, limit := range []int{1, 7, 20, 100} {
		for _, detail := range []catalog.BrowseDetail{"", catalog.BrowseCompact, catalog.BrowseFull} {
			got, pages := browseAll(t, products, catalog.BrowseParams{Limit: apptest.Ptr(limit), Detail: detail})
			require.Equal(t, current, got, "limit %d detail %q", limit, detail)
			require.Equal(t, (len(current)+limit-1)/limit, pages)
			got, _ = browseAll(t, products, catalog.BrowseParams{Limit: apptest.Ptr(limit), Detail: detail, IncludeRetired: true})
			require.Equal(t, every, got, "includeRetired, limit %d", limit)
		}
	}
	res, err := catalog.BrowseCatalog(products, 7, catalog.BrowseParams{})
	require.NoError(t, err)
	require.Len(t, res.Items, 20, "default limit")
	require.NotNil(t, res.NextCursor)
}

func TestBrowseFullItemsCarryEveryProductField(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	res, err := catalog.BrowseCatalog(products, 1, catalog.BrowseParams{Detail: catalog.BrowseFull, Limit: apptest.Ptr(100), IncludeRetired: true})
	require.NoError(t, err)
	require.Len(t, res.Items, len(products))
	for i, p := range products {
		want := asJSONObject(t, p)
		got := asJSONObject(t, res.Items[i])
		for k, v := range want {
			if isEmptyJSON(v) {
				continue
			}
			require.Contains(t, got, k, "%s: full item lacks %s", p.ID, k)
			require.Equal(t, v, got[k], "%s.%s", p.ID, k)
		}
		compact := asJSONObject(t, catalog.CatalogItem{CompactProduct: p.Compact()})
		require.NotContains(t, compact, "description")
		require.NotContains(t, compact, "recipientDetails")
		require.Equal(t, p.ID, compact["id"])
	}
}

func asJSONObject(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func isEmptyJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case []any:
		return len(x) == 0
	case float64:
		return x == 0
	}
	return false
}

func TestBrowseBoundsAndCursors(t *testing.T) {
	t.Parallel()
	products := apptest.EmbeddedCatalog(t)
	first, err := catalog.BrowseCatalog(products, 3, catalog.BrowseParams{Limit: apptest.Ptr(5)})
	require.NoError(t, err)
	cursor := *first.NextCursor

	flip := func(s string) string {
		raw, err := base64.RawURLEncoding.DecodeString(s)
		require.NoError(t, err)
		raw[len(raw)/2] ^= 0x01
		return base64.RawURLEncoding.EncodeToString(raw)
	}
	forged := base64.RawURLEncoding.EncodeToString([]byte(`{"v":3,"o":1,"r":false}abcd`))

	cases := []struct {
		name    string
		p       catalog.BrowseParams
		version int64
		code    core.Code
		field   string
	}{
		{"limit 0", catalog.BrowseParams{Limit: apptest.Ptr(0)}, 3, core.CodeValidation, "limit"},
		{"limit 101", catalog.BrowseParams{Limit: apptest.Ptr(101)}, 3, core.CodeValidation, "limit"},
		{"unknown detail", catalog.BrowseParams{Detail: "summary"}, 3, core.CodeValidation, "detail"},
		{"not base64", catalog.BrowseParams{Cursor: "***"}, 3, core.CodeValidation, "cursor"},
		{"too short", catalog.BrowseParams{Cursor: "YQ"}, 3, core.CodeValidation, "cursor"},
		{"tampered", catalog.BrowseParams{Cursor: flip(cursor)}, 3, core.CodeValidation, "cursor"},
		{"truncated", catalog.BrowseParams{Cursor: cursor[:len(cursor)-2]}, 3, core.CodeValidation, "cursor"},
		{"forged without checksum", catalog.BrowseParams{Cursor: forged}, 3, core.CodeValidation, "cursor"},
		{"other includeRetired", catalog.BrowseParams{Cursor: cursor, IncludeRetired: true}, 3, core.CodeValidation, "cursor"},
		{"other catalog version", catalog.BrowseParams{Cursor: cursor}, 4, core.CodeCursorStale, "cursor"},
		{"past the end", catalog.BrowseParams{Cursor: cursor}, 3, core.CodeValidation, "cursor"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			list := products
			if c.name == "past the end" {
				list = products[:3] // the cursor points at offset 5
			}
			_, err := catalog.BrowseCatalog(list, c.version, c.p)
			e := apptest.RequireCode(t, err, c.code)
			require.Equal(t, []string{c.field}, e.Fields)
			require.Contains(t, e.Message, c.field+": ")
		})
	}
	for _, limit := range []int{1, 100} {
		_, err := catalog.BrowseCatalog(products, 3, catalog.BrowseParams{Limit: apptest.Ptr(limit)})
		require.NoError(t, err)
	}
	again, err := catalog.BrowseCatalog(products, 3, catalog.BrowseParams{Limit: apptest.Ptr(5), Cursor: cursor})
	require.NoError(t, err)
	require.Equal(t, products[5].ID, again.Items[0].ID, "a cursor can be replayed")

	res, err := catalog.BrowseCatalog([]catalog.Product{{ID: "old", Name: "Old", Retired: true}}, 1, catalog.BrowseParams{})
	require.NoError(t, err)
	require.Empty(t, res.Items, "a catalog with only retired gifts lists nothing")
	require.Nil(t, res.NextCursor)
}
