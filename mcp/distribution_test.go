package mcp_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestAgentImportsAndExportsOverMCP: an agent uploads a CSV in two parts,
// imports it, exports the links and downloads the CSV as {csv, filename}.
func TestAgentImportsAndExportsOverMCP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := agent{t: t, cs: b.connect(t, "/mcp", b.env.OwnerKey, "2026-07-28")}
	c := a.ok("create_campaign", map[string]any{"name": "List", "mode": "batch", "productId": "gourmet-snack-crate",
		"senderName": "Sam", "senderCompany": "Acme", "message": "Thanks, {{firstName}}!", "budgetCents": 100_000, "perPersonCents": 9_000, "maxSends": 1})
	id := c["id"].(string)

	csv := "name,email,Segment\nAna Alvarez,ana@example.com,Enterprise\nBen Brown,ben@example.com,SMB\n"
	for i, part := range []string{csv[:20], csv[20:]} {
		p := a.ok("upload_gift_source_chunk", map[string]any{"id": id, "uploadId": "crm-1", "partIndex": i, "partCount": 2,
			"totalBytes": len(csv), "data": base64.StdEncoding.EncodeToString([]byte(part))})
		require.Equal(t, i == 1, p["complete"])
	}
	sum := a.ok("save_recipient_import", map[string]any{"id": id, "importId": "crm-1", "uploadId": "crm-1"})
	require.Equal(t, map[string]any{"rows": 2.0, "added": 2.0, "alreadyOnRoster": 0.0, "problems": 0.0, "blank": 0.0}, sum["counts"])
	require.Equal(t, []any{}, sum["notices"], "lists are [] when empty")

	recs := a.ok("get_gift_link_records", map[string]any{"id": id})
	require.Equal(t, []any{map[string]any{"importId": "crm-1", "columns": []any{"name", "email", "Segment"}}}, recs["sourceImports"])

	exp := a.ok("export_gift_links", map[string]any{"id": id, "scope": "all", "includeUnavailable": true})
	require.Equal(t, []any{"name", "email", "Segment", "gift_link", "gift_status", "gift_expires_at"}, exp["columns"])
	file := a.ok("download_gift_link_export", map[string]any{"id": exp["id"]})
	require.Equal(t, exp["filename"], file["filename"])
	require.True(t, strings.HasPrefix(file["csv"].(string), "name,email,Segment,gift_link"), file["csv"])

	a.fails("upload_gift_source_chunk", map[string]any{"id": id, "uploadId": "crm-2", "partIndex": 0, "partCount": 1, "totalBytes": 3, "data": "QUJ"},
		core.CodeValidation)

	// A row with one bad optional cell (a LinkedIn company page) is added,
	// and the cell is named in notices.
	more := a.ok("save_recipient_import", map[string]any{"id": id, "importId": "crm-more",
		"headers": []string{"name", "linkedin_url"}, "rows": [][]string{{"Cy Chan", "https://www.linkedin.com/company/acme"}}})
	require.Equal(t, map[string]any{"rows": 1.0, "added": 1.0, "alreadyOnRoster": 0.0, "problems": 0.0, "blank": 0.0}, more["counts"])
	require.Equal(t, []any{}, more["problems"])
	require.Equal(t, []any{map[string]any{"row": 1.0, "importRowId": "1", "fields": []any{"profileUrl"},
		"message": "profileUrl: is a company page, not a person's profile; send https://www.linkedin.com/in/<slug> (the row was added without it)"}}, more["notices"])
}
