package web_test

import (
	"bytes"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/campaign"
)

// postFile sends a form with one file (field, named name, of type
// contentType: "" for the browser's default) and fields, as a browser does.
func (c *client) postFile(path, field, name, contentType string, content []byte, fields map[string]string) response {
	c.h.t.Helper()
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	hdr := textproto.MIMEHeader{}
	hdr.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, name))
	hdr.Set("Content-Type", contentType)
	fw, err := mw.CreatePart(hdr)
	require.NoError(c.h.t, err)
	_, _ = fw.Write(content)
	for k, v := range fields {
		require.NoError(c.h.t, mw.WriteField(k, v))
	}
	require.NoError(c.h.t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, c.h.site+path, &body)
	require.NoError(c.h.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Origin", c.h.site)
	return c.do(req)
}

// The campaign page imports a CSV through the column mapping and downloads
// the links as a CSV in either preset.
func TestCampaignPageImportsAndDownloadsLinks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.createCampaign(campaign.CampaignInput{Name: "List", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", BudgetCents: 100_000, PerPersonCents: 9_000, MaxSends: 1})
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	page := owner.get("/campaigns/" + c.ID)
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	require.Contains(t, page.Body, "Download links (CSV)")
	require.Contains(t, page.Body, `id="import-form"`)

	csv := "Full Name,Work Email,Segment,Owner\nAna Alvarez,ana@example.com,Enterprise,kim\nBen Brown,ben@example.com,SMB,lee\n"
	res := owner.postFile("/campaigns/"+c.ID+"/import", "csv", "list.csv", "", []byte(csv), nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	mapping := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(mapping, "/campaigns/"+c.ID+"/import/web-"), mapping)

	res = owner.get(mapping)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, "2 rows")
	require.Contains(t, body, `<option value="name" selected>`, "Full Name fills name by its own name")
	require.Contains(t, body, `name="rights_confirmed"`, "the form asks before photo links are fetched")

	// Map "Work Email" to email by hand; keep only Segment for exports.
	res = owner.post(mapping, url.Values{"field": {"name", "email", "ignore", "ignore"}, "retain": {"2"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	res = owner.get(res.Header.Get("Location"))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, "2 rows: 2 added, 0 already on the roster, 0 left out")
	require.Len(t, h.readCampaign(c.ID).Recipients, 2)
	require.Equal(t, "ana@example.com", h.readCampaign(c.ID).Recipients[0].Email)

	res = owner.post("/campaigns/"+c.ID+"/links.csv", url.Values{"preset": {"original"}, "includeUnavailable": {"true"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Content-Disposition"), "attachment")
	require.Equal(t, "Segment,gift_link,gift_status,gift_expires_at\nEnterprise,,,\nSMB,,,\n", res.Body)

	res = owner.post("/campaigns/"+c.ID+"/links.csv", url.Values{"preset": {"compact"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, "name,email,company,source_system,external_id,gift_link,gift_status,gift_expires_at\n", res.Body, "nobody has a link yet")

	res = owner.post("/campaigns/"+c.ID+"/links.csv", url.Values{"preset": {"wide"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, "Must be original or compact")

	// A file that is not a valid CSV is refused on the campaign page, next to the file field.
	res = owner.postFile("/campaigns/"+c.ID+"/import", "csv", "bad.csv", "", []byte("name\n\"Ana\n"), nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, "staging does not read the CSV")
	res = owner.get(res.Header.Get("Location"))
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, "quote")
}

// An import's summary shows the rows left out and the rows added without a
// value that could not be used (a bad LinkedIn URL), each with its row, the
// value in words and why.
func TestImportSummaryShowsRowsAddedWithoutAValue(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.createCampaign(campaign.CampaignInput{Name: "List", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", BudgetCents: 100_000, PerPersonCents: 9_000, MaxSends: 1})
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	csv := "name,email,linkedin_url\nAna Alvarez,ana@example.com,https://www.linkedin.com/company/acme\nBen Brown,ben@example.com,\nAna Again,ana@example.com,\n"
	res := owner.postFile("/campaigns/"+c.ID+"/import", "csv", "list.csv", "", []byte(csv), nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	mapping := res.Header.Get("Location")
	res = owner.post(mapping, url.Values{"field": {"name", "email", "linkedin_url"}, "retain": {"0"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	res = owner.get(res.Header.Get("Location"))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, "3 rows: 2 added, 0 already on the roster, 1 left out")
	require.Contains(t, body, `<h3 id="import-notices-title">Added without a value</h3>`)
	require.Contains(t, body, `<tr><td data-label="Row">1</td><td data-label="Value">LinkedIn profile</td><td data-label="Why">Is a company page, not a person's profile; send https://www.linkedin.com/in/<slug>.</td></tr>`)
	require.Contains(t, body, `<tr><td data-label="Row">3</td><td data-label="Value">The whole row</td><td data-label="Problem">Is the same person as row 1 (same email); send each person once.</td></tr>`)
	require.NotContains(t, body, "profileUrl", "fields are named in words")
	got := h.readCampaign(c.ID).Recipients
	require.Len(t, got, 2)
	require.Equal(t, "Ana Alvarez", got[0].Name, "the row with a bad optional value is added")
	require.Empty(t, got[0].ProfileURL)
}

// The column mapping names every column at fault at once, next to its
// select, and keeps every choice made.
func TestImportMappingFormReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.createCampaign(campaign.CampaignInput{Name: "List", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", BudgetCents: 100_000, PerPersonCents: 9_000, MaxSends: 1})
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	csv := "Full Name,Work Email,Home Email,Segment\nAna Alvarez,ana@example.com,ana@home.example,Enterprise\n"
	res := owner.postFile("/campaigns/"+c.ID+"/import", "csv", "list.csv", "", []byte(csv), nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	mapping := res.Header.Get("Location")

	res = owner.post(mapping, url.Values{"field": {"name", "email", "email", "detail:nope"}, "retain": {"3"}, "rights_confirmed": {"yes"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res, map[string]string{
		"field-2": "Maps a second column to email (column 2 has it).",
		"field-3": "Names a detail the campaign's gift does not ask for.",
	}, nil)
	body := html.UnescapeString(res.Body)
	require.Contains(t, body, `<select id="field-2" name="field" aria-describedby="field-2-error" aria-invalid="true"><option value="ignore">`)
	require.Regexp(t, `<select id="field-1" name="field"><option[^\n]*<option value="email" selected>`, body, "the choices made are kept")
	require.Contains(t, body, `name="retain" value="3" checked`)
	require.NotContains(t, body, `name="retain" value="0" checked`)
	require.Contains(t, body, `id="import-rights" checked`)
	require.Empty(t, h.readCampaign(c.ID).Recipients, "nothing was imported")
}
