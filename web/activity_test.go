package web_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// The Activity page lists, for an owner, who prepared a gift (the key) and
// who made a key, filtered to one of them; its CSV download says the same
// under the same filter with formula cells neutralised; a member gets the
// forbidden page and no menu link.
func TestActivityPageFiltersAndDownloads(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/settings/keys", url.Values{"name": {"HubSpot agent"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)

	key, err := h.env.App.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	_, signedIn := h.env.SignIn(t, h.env.OwnerEmail)
	pb, err := h.env.App.Campaigns.CreateCampaign(ctx, signedIn, campaign.CampaignInput{
		Name: "=SUM(A1:A9) thank-you", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(t, err)
	_, err = h.env.App.Approvals.AddToPlaybook(ctx, key, pb.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Sam Lee", Email: apptest.UniqueEmail("sam"), Company: "Acme",
	}})
	require.NoError(t, err)
	var keyName string
	require.NoError(t, h.env.App.DB.QueryRow(ctx, `SELECT name FROM api_keys WHERE id = $1`, key.CredentialID).Scan(&keyName))

	res = owner.get("/activity")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `<a href="/activity" aria-current="page">Activity</a>`, "the menu links it")
	prepared := "Key &#39;" + keyName + "&#39; prepared a gift for Sam Lee on =SUM(A1:A9) thank-you"
	require.Contains(t, res.Body, prepared)
	require.Contains(t, res.Body, "created the key &#39;HubSpot agent&#39;")
	require.Contains(t, res.Body, `<option value="key:`+key.CredentialID+`">Key &#39;`+keyName+`&#39;</option>`)

	// Filtered to the key: its preparation only.
	res = owner.get("/activity?who=" + url.QueryEscape("key:"+key.CredentialID))
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, prepared)
	require.NotContains(t, res.Body, "created the key")
	require.Contains(t, res.Body, `<option value="key:`+key.CredentialID+`" selected>`)
	require.Equal(t, 1, strings.Count(res.Body, `<tr data-kind=`))

	// The CSV under the same filter; then everything.
	res = owner.get("/activity.csv?who=" + url.QueryEscape("key:"+key.CredentialID))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
	require.Contains(t, res.Header.Get("Content-Disposition"), "attachment")
	rows, err := csv.NewReader(strings.NewReader(res.Body)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, core.ActivityCSVHeader, rows[0])
	require.Len(t, rows, 2)
	col := func(name string) int {
		for i, c := range rows[0] {
			if c == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	require.Equal(t, "key", rows[1][col("actor_kind")])
	require.Equal(t, "Key '"+keyName+"'", rows[1][col("actor")])
	require.Equal(t, h.env.OwnerEmail, rows[1][col("actor_email")])
	require.Equal(t, "Sam Lee", rows[1][col("recipient")])
	require.Equal(t, "'=SUM(A1:A9) thank-you", rows[1][col("campaign")], "a formula cell is neutralised")
	res = owner.get("/activity.csv")
	rows, err = csv.NewReader(strings.NewReader(res.Body)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3, "header, the preparation, the key made on the keys page")

	// A member is refused, and has no menu link.
	email, _ := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(email)
	res = member.get("/activity")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.NotContains(t, res.Body, "Sam Lee")
	require.NotContains(t, member.get("/").Body, `href="/activity"`)
	require.Equal(t, http.StatusForbidden, member.get("/activity.csv").StatusCode)

	// A cursor of another filter is refused in plain words.
	res = owner.get("/activity?cursor=" + url.QueryEscape("bm90LWEtY3Vyc29y"))
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Regexp(t, regexp.MustCompile(`cursor`), res.Body)
}
