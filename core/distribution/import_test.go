package distribution_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/distribution"
	"github.com/giftwell/giftwell/internal/apptest"
)

// sourceCSV is a CRM export of n people, with the CRM's own columns.
func sourceCSV(n int) string {
	var b strings.Builder
	b.WriteString("First Name,Last Name,Email,Company,CRM Owner,Deal Stage,personal_note,linkedin_url\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "Pat%d,Lee,pat%d@example.com,\"Co %d, Inc.\",owner%d,Closed Won,\"Thanks, {{firstName}}!\",https://linkedin.com/in/pat-%d\n", i, i, i, i%7, i)
	}
	return b.String()
}

// parts splits s into n base64 parts.
func parts(s string, n int) []string {
	size := (len(s) + n - 1) / n
	var out []string
	for i := 0; i < len(s); i += size {
		out = append(out, base64.StdEncoding.EncodeToString([]byte(s[i:min(i+size, len(s))])))
	}
	return out
}

// show logs v as JSON, trimmed, for the closing note.
func show(t *testing.T, label string, v any) {
	t.Helper()
	raw, _ := json.Marshal(v)
	t.Logf("%s: %s", label, core.Clip(string(raw), 900))
}

// A 450-row CSV in 3 parts, the last one first (retryAfterMs) and the
// middle one resent: same bytes accepted, other bytes refused; then the
// import adds every row with importId and importRowId.
func TestChunkedImport(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	svc := d.env.App.Distribution
	csv := sourceCSV(450)
	ps := parts(csv, 3)
	chunk := func(i int, data string) distribution.Chunk {
		return distribution.Chunk{UploadID: "crm-2026-11", PartIndex: i, PartCount: 3, TotalBytes: int64(len(csv)), Data: data}
	}

	prog, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, chunk(2, ps[2]))
	require.NoError(t, err)
	require.False(t, prog.Complete)
	require.NotNil(t, prog.RetryAfterMs, "the last part came first")
	show(t, "part 2 (first)", prog)
	prog, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, chunk(0, ps[0]))
	require.NoError(t, err)
	prog, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, chunk(1, ps[1]))
	require.NoError(t, err)
	require.True(t, prog.Complete)
	require.Equal(t, 3, prog.ReceivedParts)
	require.Equal(t, int64(len(csv)), prog.ReceivedBytes)
	prog, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, chunk(1, ps[1]))
	require.NoError(t, err, "a part resent with the same bytes is accepted")
	require.True(t, prog.Complete)
	show(t, "part 1 resent", prog)
	other := base64.StdEncoding.EncodeToString([]byte(strings.ToUpper(csv[len(csv)/3 : 2*len(csv)/3])))
	_, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, chunk(1, other))
	requireCode(t, err, core.CodeValidation, "data")

	sum, err := svc.SaveImport(ctx, d.key, d.c.ID, distribution.ImportRequest{ImportID: "crm-2026-11", UploadID: "crm-2026-11",
		RetainedColumnIndices: []int{2, 4, 5}})
	require.NoError(t, err)
	require.Equal(t, distribution.ImportCounts{Rows: 450, Added: 450}, sum.Counts, "%+v", sum.Problems)
	require.Equal(t, []string{"first_name", "last_name", "email", "company", "ignore", "ignore", "message", "linkedin_url"}, sum.Fields)
	sum.Problems = sum.Problems[:0]
	show(t, "import summary", sum)

	c, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, d.c.ID)
	require.NoError(t, err)
	require.Len(t, c.Recipients, 450)
	r := c.Recipients[449]
	require.Equal(t, []string{"Pat450 Lee", "pat450@example.com", "Co 450, Inc.", "crm-2026-11", "450", "https://www.linkedin.com/in/pat-450"},
		[]string{r.Name, r.Email, r.Company, r.ImportID, r.ImportRowID, r.ProfileURL})

	// The upload was consumed; saving the same import again answers the same summary.
	_, err = svc.SaveImport(ctx, d.key, d.c.ID, distribution.ImportRequest{ImportID: "crm-2026-11", Headers: []string{"name"}, Rows: [][]string{{"X"}}})
	requireCode(t, err, core.CodeValidation, "importId")

	// Exports: original keeps the retained source columns, compact the identity.
	_, g := d.approve(c.Recipients[0].RecipientID)
	for _, preset := range []distribution.Preset{distribution.PresetOriginal, distribution.PresetCompact} {
		exp, err := svc.ExportGiftLinks(ctx, d.key, d.c.ID, distribution.ExportRequest{Scope: distribution.ScopeAll, Preset: preset, IncludeUnavailable: true})
		require.NoError(t, err)
		f, err := svc.DownloadExport(ctx, d.key, exp.ID)
		require.NoError(t, err)
		rows := readCSV(t, f.CSV)
		require.Len(t, rows, 451)
		if preset == distribution.PresetOriginal {
			require.Equal(t, []string{"Email", "CRM Owner", "Deal Stage", "gift_link", "gift_status", "gift_expires_at"}, rows[0])
			require.Equal(t, []string{"pat1@example.com", "owner1", "Closed Won"}, rows[1][:3])
		} else {
			require.Equal(t, []string{"name", "email", "company", "source_system", "external_id", "gift_link", "gift_status", "gift_expires_at"}, rows[0])
			require.Equal(t, "Pat1 Lee", rows[1][0])
		}
		require.NotEmpty(t, rows[1][len(rows[0])-3], "the approved person's link")
		require.Empty(t, rows[2][len(rows[0])-3])
		lines := strings.SplitN(f.CSV, "\n", 4)
		t.Logf("export %s (%s, gift %s):\n%s", preset, f.Filename, g, strings.Join(lines[:3], "\n"))
	}

	// Removing a source column empties it: a later download shows none of it.
	sum, err = svc.RemoveSourceColumns(ctx, d.key, d.c.ID, distribution.SourceColumnsRemoval{ImportID: "crm-2026-11", Indices: []int{4}})
	require.NoError(t, err)
	require.Equal(t, []int{2, 5}, sum.RetainedColumnIndices)
	require.Equal(t, []int{4}, sum.RemovedColumnIndices)
	exp, err := svc.ExportGiftLinks(ctx, d.key, d.c.ID, distribution.ExportRequest{Scope: distribution.ScopeAll})
	require.NoError(t, err)
	require.Equal(t, []string{"Email", "Deal Stage", "gift_link", "gift_status", "gift_expires_at"}, exp.Columns)
	_, err = svc.RemoveSourceColumns(ctx, d.key, d.c.ID, distribution.SourceColumnsRemoval{ImportID: "crm-2026-11", Indices: []int{8}})
	requireCode(t, err, core.CodeValidation, "indices[0]")
	_, err = svc.RemoveSourceColumns(ctx, d.key, d.c.ID, distribution.SourceColumnsRemoval{ImportID: "unfinished", Indices: []int{0}})
	requireCode(t, err, core.CodeNotFound, "importId")
}

// A 600-row CSV is refused naming rows, and nothing is written.
func TestImportOver500RowsRefused(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	svc := d.env.App.Distribution
	csv := sourceCSV(600)
	for i, data := range parts(csv, 3) {
		_, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "big", PartIndex: i, PartCount: 3, TotalBytes: int64(len(csv)), Data: data})
		require.NoError(t, err)
	}
	_, err := svc.SaveImport(ctx, d.key, d.c.ID, distribution.ImportRequest{ImportID: "big", UploadID: "big"})
	requireCode(t, err, core.CodeValidation, "rows")
	t.Logf("600 rows: %v", err)
	c, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, d.c.ID)
	require.NoError(t, err)
	require.Empty(t, c.Recipients)

	// 300 and then 300 more: the campaign's 500 imported rows are reached.
	_, err = svc.SaveImport(ctx, d.key, d.c.ID, table("first", 300))
	require.NoError(t, err)
	_, err = svc.SaveImport(ctx, d.key, d.c.ID, table("second", 300))
	requireCode(t, err, core.CodeValidation, "rows")
	c, err = d.env.App.Campaigns.GetCampaign(ctx, d.key, d.c.ID)
	require.NoError(t, err)
	require.Len(t, c.Recipients, 300, "nothing of the refused import was written")
}

// table is an import of n people as headers and rows, their emails unique to id.
func table(id string, n int) distribution.ImportRequest {
	in := distribution.ImportRequest{ImportID: id, Headers: []string{"Name", "Email"}}
	for i := range n {
		in.Rows = append(in.Rows, []string{fmt.Sprintf("Person %d", i), fmt.Sprintf("%s-%d@example.com", id, i)})
	}
	return in
}

// Rows the add rules refuse for a required field are left out with every
// problem they have; a row whose only refused cells are optional (an email,
// a LinkedIn URL, adult_recipient_confirmed) is added without them and
// listed as a notice naming its row, the fields and the problem.
func TestImportRowProblems(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	in := distribution.ImportRequest{ImportID: "mixed", Headers: []string{"name", "email", "adult_recipient_confirmed", "zip", "linkedin_url", "Notes"},
		Rows: [][]string{
			{"Ana Alvarez", "ana@example.com", "true", "", "", "vip"},
			{"Bad Mail", "not-an-email", "", "", "", ""},
			{"", "", "", "", "", ""},
			{"Ana Again", "ana@example.com", "", "", "", ""},
			{"Cy Chan", "cy@example.com", "maybe", "", "https://www.linkedin.com/company/acme", ""},
			{"Dee Dunn", "dee@example.com", "false", "", "", "+1 (555) 010-0000"},
			{"", "", "", "", "https://www.linkedin.com/company/nobody", ""},
			{"Eve Evans", "eve@example.com", "", "6270", "https://www.linkedin.com/sales/lead/eve", ""},
		}}
	sum, err := d.env.App.Distribution.SaveImport(ctx, d.key, d.c.ID, in)
	require.NoError(t, err)
	show(t, "row problems", sum.Problems)
	show(t, "row notices", sum.Notices)
	require.Equal(t, distribution.ImportCounts{Rows: 8, Added: 4, Problems: 3, Blank: 1}, sum.Counts)

	require.Len(t, sum.Problems, 3)
	require.Equal(t, []int{4, 7, 8}, []int{sum.Problems[0].Row, sum.Problems[1].Row, sum.Problems[2].Row})
	require.Equal(t, core.CodeDuplicateRecipient, sum.Problems[0].Code)
	require.Equal(t, "is the same person as row 1 (same email); send each person once", sum.Problems[0].Message)
	require.Equal(t, core.CodeValidation, sum.Problems[1].Code, "a bad LinkedIn URL that is the row's only identity leaves it out")
	require.Equal(t, []string{"profileUrl"}, sum.Problems[1].Fields)
	require.Contains(t, sum.Problems[1].Message, "needs an identity")
	require.ElementsMatch(t, []string{"profileUrl", "addressMode"}, sum.Problems[2].Fields, "a required field's problem leaves the row out, with every problem it has")
	require.Contains(t, sum.Problems[2].Message, "Sales Navigator")

	require.Len(t, sum.Notices, 2)
	mail := sum.Notices[0]
	require.Equal(t, distribution.RowProblem{Row: 2, ImportRowID: "2", Fields: []string{"email"},
		Message: "email: must be a plain email address like name@example.com (the row was added without it)"}, mail)
	cy := sum.Notices[1]
	require.Equal(t, 5, cy.Row)
	require.Empty(t, cy.Code, "a notice has no code: the row was added")
	require.ElementsMatch(t, []string{"adultRecipientConfirmed", "profileUrl"}, cy.Fields)
	require.Contains(t, cy.Message, "adultRecipientConfirmed: must be true or false")
	require.Contains(t, cy.Message, "profileUrl: is a company page")

	c, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, d.c.ID)
	require.NoError(t, err)
	require.Len(t, c.Recipients, 4)
	byName := map[string]campaign.Recipient{}
	for _, r := range c.Recipients {
		byName[r.Name] = r
	}
	require.True(t, byName["Ana Alvarez"].AdultRecipientConfirmed)
	require.Empty(t, byName["Bad Mail"].Email, "added without the refused email")
	require.Equal(t, "2", byName["Bad Mail"].ImportRowID)
	require.Empty(t, byName["Cy Chan"].ProfileURL, "added without the refused LinkedIn URL")
	require.False(t, byName["Cy Chan"].AdultRecipientConfirmed, "never inferred")
	require.Equal(t, "cy@example.com", byName["Cy Chan"].Email, "the rest of the row is kept")

	again, err := d.env.App.Distribution.SaveImport(ctx, d.key, d.c.ID, in)
	require.NoError(t, err)
	require.Equal(t, sum.Notices, again.Notices, "a resent import answers the same notices")
}

// Bad input gets the envelope naming the field, and nothing is written.
func TestImportBadInput(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	svc := d.env.App.Distribution
	ok := base64.StdEncoding.EncodeToString([]byte("name\nAna\n"))
	chunks := []struct {
		in    distribution.Chunk
		field string
	}{
		{distribution.Chunk{UploadID: "u", PartIndex: 0, PartCount: 1, TotalBytes: 9, Data: ok[:len(ok)-2]}, "data"},                                                 // truncated
		{distribution.Chunk{UploadID: "u", PartIndex: 0, PartCount: 2, TotalBytes: 150_001, Data: base64.StdEncoding.EncodeToString(make([]byte, 150_001))}, "data"}, // oversized
		{distribution.Chunk{UploadID: "u", PartIndex: 0, PartCount: 1, TotalBytes: 9, Data: "@@@@"}, "data"},                                                         // not base64
		{distribution.Chunk{UploadID: "u", PartIndex: 3, PartCount: 3, TotalBytes: 9, Data: ok}, "partIndex"},                                                        // out of range
		{distribution.Chunk{UploadID: "u", PartIndex: 0, PartCount: 385, TotalBytes: 900, Data: ok}, "partCount"},                                                    // too many parts
		{distribution.Chunk{UploadID: "u", PartIndex: 0, PartCount: 1, TotalBytes: 4, Data: ok}, "totalBytes"},                                                       // the part alone is more
		{distribution.Chunk{UploadID: "u", PartIndex: 0, PartCount: 1, TotalBytes: 33_554_433, Data: ok}, "totalBytes"},                                              // over 32 MiB
		{distribution.Chunk{UploadID: "../etc", PartIndex: 0, PartCount: 1, TotalBytes: 9, Data: ok}, "uploadId"},                                                    // bad ID
	}
	for _, tc := range chunks {
		_, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, tc.in)
		requireCode(t, err, core.CodeValidation, tc.field)
	}

	// A total that disagrees with the parts: refused when the last part
	// shows it, and the upload is dropped.
	_, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "short", PartIndex: 0, PartCount: 2, TotalBytes: 30, Data: ok})
	require.NoError(t, err)
	_, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "short", PartIndex: 1, PartCount: 2, TotalBytes: 30, Data: ok})
	requireCode(t, err, core.CodeValidation, "totalBytes")
	_, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "short", PartIndex: 0, PartCount: 3, TotalBytes: 30, Data: ok})
	require.NoError(t, err, "the dropped upload's ID starts afresh")

	upload := func(id, csv string) {
		t.Helper()
		_, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: id, PartIndex: 0, PartCount: 1, TotalBytes: int64(len(csv)),
			Data: base64.StdEncoding.EncodeToString([]byte(csv))})
		require.NoError(t, err)
	}
	upload("quotes", "name,email\n\"Ana,ana@example.com\nBen,ben@example.com\n")
	_, err = svc.SaveImport(ctx, d.key, d.c.ID, distribution.ImportRequest{ImportID: "quotes", UploadID: "quotes"})
	requireCode(t, err, core.CodeValidation, "uploadId")
	require.Contains(t, err.Error(), "quote")

	wide := make([]string, 101)
	for i := range wide {
		wide[i] = fmt.Sprintf("c%d", i)
	}
	imports := []struct {
		in    distribution.ImportRequest
		field string
	}{
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name", "note"}, Rows: [][]string{{"Ana", "=HYPERLINK(\"http://x\")"}}}, "rows[0][1]"},
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name", "note"}, Rows: [][]string{{"Ana", "+cmd|' /C calc'!A0"}}}, "rows[0][1]"},
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name", "note"}, Rows: [][]string{{"Ana", strings.Repeat("x", 10_001)}}}, "rows[0][1]"},
		{distribution.ImportRequest{ImportID: "f", Headers: wide, Rows: [][]string{make([]string, 101)}}, "headers"},
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name"}, Rows: [][]string{{"Ana", "x"}}}, "rows[0]"},
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name", "Name"}, Rows: [][]string{{"Ana", "x"}}}, "headers[1]"},
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name"}, Rows: [][]string{{"Ana"}}, RetainedColumnIndices: []int{1}}, "retainedColumnIndices[0]"},
		{distribution.ImportRequest{ImportID: "f", Headers: []string{"name"}, Rows: [][]string{{"Ana"}}, Fields: []string{"shoe_size"}}, "fields[0]"},
		{distribution.ImportRequest{ImportID: "f", UploadID: "nope"}, "uploadId"},
		{distribution.ImportRequest{ImportID: "f"}, "headers"},
		{distribution.ImportRequest{ImportID: "a b", Headers: []string{"name"}, Rows: [][]string{{"Ana"}}}, "importId"},
	}
	for _, tc := range imports {
		_, err := svc.SaveImport(ctx, d.key, d.c.ID, tc.in)
		requireCode(t, err, core.CodeValidation, tc.field)
	}
	c, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, d.c.ID)
	require.NoError(t, err)
	require.Empty(t, c.Recipients, "nothing half-written")

	// A completed campaign takes no import.
	_, err = d.env.App.Campaigns.UpdateCampaign(ctx, d.key, d.c.ID, campaign.CampaignPatch{Status: apptest.Ptr(campaign.StatusCompleted), ExpectedPolicyVersion: c.PolicyVersion})
	require.NoError(t, err)
	_, err = svc.SaveImport(ctx, d.key, d.c.ID, table("late", 2))
	requireCode(t, err, core.CodeCampaignCompleted, "")

	// A demo workspace imports nothing.
	demo := d.key
	demo.IsDemo = true
	_, err = svc.SaveImport(ctx, demo, d.c.ID, table("demo", 1))
	requireCode(t, err, core.CodeDemoLimited, "")
	_, err = svc.UploadSourceChunk(ctx, demo, d.c.ID, distribution.Chunk{UploadID: "d", PartIndex: 0, PartCount: 1, TotalBytes: 9, Data: ok})
	requireCode(t, err, core.CodeDemoLimited, "")
}

// A workspace stages at most 4 uploads at once.
func TestUploadCapacity(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	svc := d.env.App.Distribution
	data := base64.StdEncoding.EncodeToString([]byte("name\n"))
	for i := range 4 {
		_, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: fmt.Sprint("u", i), PartIndex: 0, PartCount: 2, TotalBytes: 10, Data: data})
		require.NoError(t, err)
	}
	_, err := svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "u4", PartIndex: 0, PartCount: 2, TotalBytes: 10, Data: data})
	requireCode(t, err, core.CodeUploadCapacity, "")
	require.Equal(t, 429, err.(*core.Error).Status())
	require.Equal(t, distribution.UploadTTL.Milliseconds(), err.(*core.Error).RetryAfterMs, "the oldest upload expires in 6 hours")
	d.env.Clock.Advance(time.Hour)
	_, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "u4", PartIndex: 0, PartCount: 2, TotalBytes: 10, Data: data})
	require.Equal(t, (distribution.UploadTTL - time.Hour).Milliseconds(), err.(*core.Error).RetryAfterMs)

	// After 6 hours the unfinished uploads expire and make room.
	d.env.Clock.Advance(distribution.UploadTTL - time.Hour)
	_, err = svc.UploadSourceChunk(ctx, d.key, d.c.ID, distribution.Chunk{UploadID: "u4", PartIndex: 0, PartCount: 2, TotalBytes: 10, Data: data})
	require.NoError(t, err)
}
