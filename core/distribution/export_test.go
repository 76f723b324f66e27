package distribution_test

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/distribution"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
)

// readCSV parses an export's CSV.
func readCSV(t *testing.T, s string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	require.NoError(t, err)
	return rows
}

// An export keeps its selection; the download rechecks each link (one
// revoked since is left out), defuses formula cells, and stops after 24
// hours.
func TestExportGiftLinks(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	_, g1 := d.gift(campaign.RecipientInput{Name: "Ana Alvarez", Company: "=HYPERLINK(\"x\")", Email: "ana@example.com", SourceSystem: "crm", ExternalID: "a1"})
	_, g2 := d.gift(campaign.RecipientInput{Name: "Ben Brown", Company: "Bolt", Email: "ben@example.com", SourceSystem: "crm", ExternalID: "b2"})
	_, _ = d.gift(campaign.RecipientInput{Name: "Cy Chan", Email: "cy@example.com", AddressMode: gift.AddressKnown,
		Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"})
	svc := d.env.App.Distribution

	exp, err := svc.ExportGiftLinks(ctx, d.key, d.c.ID, distribution.ExportRequest{Scope: distribution.ScopeAll, Preset: distribution.PresetCompact,
		OptionalColumns: []string{"gift_id"}, ColumnPrefix: "gw_"})
	require.NoError(t, err)
	require.Equal(t, []string{"gw_name", "gw_email", "gw_company", "gw_source_system", "gw_external_id", "gw_gift_link", "gw_gift_status", "gw_gift_expires_at", "gw_gift_id"}, exp.Columns)
	require.Equal(t, distribution.ExportCounts{Selected: 3, Rows: 2, Ready: 2, Unavailable: 1}, exp.Counts)
	require.Equal(t, map[giftlink.Reason]int{giftlink.ReasonAddressKnown: 1}, exp.Excluded)
	require.Equal(t, d.env.App.Config.BaseURL()+"/distribution/exports/"+exp.ID, exp.DownloadURL)
	require.NotNil(t, exp.EarliestExpiry)
	require.Equal(t, core.ModeTest, exp.Mode)

	f, err := svc.DownloadExport(ctx, d.key, exp.ID)
	require.NoError(t, err)
	require.Equal(t, exp.Filename, f.Filename)
	rows := readCSV(t, f.CSV)
	require.Len(t, rows, 3)
	require.Equal(t, exp.Columns, rows[0])
	require.Equal(t, "'=HYPERLINK(\"x\")", rows[1][2], "a formula cell is defused")
	require.True(t, strings.HasPrefix(rows[1][5], d.env.App.Config.SiteURL+"/g/"), rows[1][5])
	require.Equal(t, g1, rows[1][8])
	require.Equal(t, g2, rows[2][8])

	// A link revoked since the export is not in the file.
	d.revoke(g2)
	f, err = svc.DownloadExport(ctx, d.key, exp.ID)
	require.NoError(t, err)
	rows = readCSV(t, f.CSV)
	require.Len(t, rows, 2)
	require.Equal(t, g1, rows[1][8])

	// With includeUnavailable, unavailable people come with an empty link.
	all, err := svc.ExportGiftLinks(ctx, d.key, d.c.ID, distribution.ExportRequest{Scope: distribution.ScopeFiltered, Search: "b",
		IncludeUnavailable: true, OptionalColumns: []string{"availability_reason"}})
	require.NoError(t, err)
	require.Equal(t, []string{"name", "email", "company", "source_system", "external_id", "gift_link", "gift_status", "gift_expires_at", "availability_reason"}, all.Columns)
	f, err = svc.DownloadExport(ctx, d.key, all.ID)
	require.NoError(t, err)
	rows = readCSV(t, f.CSV)
	require.Len(t, rows, 2)
	require.Equal(t, []string{"Ben Brown", "", "link_revoked"}, []string{rows[1][0], rows[1][5], rows[1][8]})

	// After 24 hours the download is refused.
	d.env.Clock.Advance(distribution.ExportTTL + time.Second)
	_, err = svc.DownloadExport(ctx, d.key, exp.ID)
	requireCode(t, err, core.CodeNotFound, "id")
}

// Bad export requests are refused naming the field; another workspace's
// export is not found.
func TestExportGiftLinksRefusals(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	svc := d.env.App.Distribution
	cases := []struct {
		in    distribution.ExportRequest
		field string
	}{
		{distribution.ExportRequest{Scope: "some"}, "scope"},
		{distribution.ExportRequest{Scope: distribution.ScopeAll, Search: "x"}, "scope"},
		{distribution.ExportRequest{Scope: distribution.ScopeSelection}, "recipientIds"},
		{distribution.ExportRequest{Scope: distribution.ScopeSelection, GiftIDs: []string{"send_a"}, Availability: giftlink.Ready}, "scope"},
		{distribution.ExportRequest{Scope: distribution.ScopeFiltered}, "scope"},
		{distribution.ExportRequest{Scope: distribution.ScopeAll, Preset: "wide"}, "preset"},
		{distribution.ExportRequest{Scope: distribution.ScopeAll, OptionalColumns: []string{"address"}}, "optionalColumns[0]"},
		{distribution.ExportRequest{Scope: distribution.ScopeAll, ColumnPrefix: "=x"}, "columnPrefix"},
		{distribution.ExportRequest{Scope: distribution.ScopeSelection, RecipientIDs: []string{"send_x"}}, "recipientIds[0]"},
	}
	for _, tc := range cases {
		_, err := svc.ExportGiftLinks(ctx, d.key, d.c.ID, tc.in)
		requireCode(t, err, core.CodeValidation, tc.field)
	}
	_, err := svc.ExportGiftLinks(ctx, d.key, "cmp_nope", distribution.ExportRequest{Scope: distribution.ScopeAll})
	requireCode(t, err, core.CodeNotFound, "id")

	exp, err := svc.ExportGiftLinks(ctx, d.key, d.c.ID, distribution.ExportRequest{Scope: distribution.ScopeAll})
	require.NoError(t, err)
	other := d.key
	other.WorkspaceID = "ws_other"
	_, err = svc.DownloadExport(ctx, other, exp.ID)
	requireCode(t, err, core.CodeNotFound, "id")
	f, err := svc.DownloadExport(ctx, d.key, exp.ID)
	require.NoError(t, err)
	require.Equal(t, "name,email,company,source_system,external_id,gift_link,gift_status,gift_expires_at\n", f.CSV)
}
