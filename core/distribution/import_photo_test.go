package distribution_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/distribution"
)

// portraitCampaign is an active playbook of a gift that requires a portrait.
func (d *desk) portraitCampaign() campaign.Campaign {
	d.t.Helper()
	c, err := d.env.App.Campaigns.CreateCampaign(context.Background(), d.owner, campaign.CampaignInput{
		Name: "Portraits", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "custom-portrait-illustration",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!",
	})
	require.NoError(d.t, err)
	return c
}

// A row naming an asset that is not a ready file of the workspace is left
// out with ARTWORK_UNAVAILABLE; the other rows are imported.
func TestImportRowWithUnavailableAsset(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	c := d.portraitCampaign()
	photo := d.env.ReadyArtwork(t, "portrait")
	sum, err := d.env.App.Distribution.SaveImport(ctx, d.key, c.ID, distribution.ImportRequest{ImportID: "assets",
		Headers: []string{"name", "email", "photo_url"},
		Rows: [][]string{
			{"Ana Alvarez", "ana@example.com", photo},
			{"Bo Berg", "bo@example.com", "asset_nope"},
			{"Cy Chan", "cy@example.com", ""},
		}})
	require.NoError(t, err)
	require.Equal(t, distribution.ImportCounts{Rows: 3, Added: 2, Problems: 1}, sum.Counts)
	require.Len(t, sum.Problems, 1)
	require.Equal(t, 2, sum.Problems[0].Row)
	require.Equal(t, core.CodeArtworkUnavailable, sum.Problems[0].Code)
	require.Equal(t, []string{"photo.assetId"}, sum.Problems[0].Fields)
	got, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, c.ID)
	require.NoError(t, err)
	require.Len(t, got.Recipients, 2)
	require.Equal(t, &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}, got.Recipients[0].Photo)
}

// photoServer is a TLS image server the App may fetch from: /ana.png is a
// portrait (its fetches counted), /page an HTML page.
func photoServer(t *testing.T, d *desk, hits *atomic.Int32) *httptest.Server {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, 400, 300))))
	mux := http.NewServeMux()
	mux.HandleFunc("/ana.png", func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(b.Bytes())
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html></html>"))
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	d.env.AllowPhotoServer(t, srv)
	return srv
}

// A direct image URL in photo_url is fetched once per distinct URL (with
// rightsConfirmed), through import_recipient_photo's path, and wins over
// the LinkedIn profile; a URL that cannot be imported is a notice and the
// LinkedIn profile stays the photo. Without rightsConfirmed nothing is
// fetched.
func TestImportFetchesDirectPhotos(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	c := d.portraitCampaign()
	var hits atomic.Int32
	srv := photoServer(t, d, &hits)
	in := distribution.ImportRequest{ImportID: "photos", RightsConfirmed: true,
		Headers: []string{"name", "email", "image_url", "linkedin_url"},
		Rows: [][]string{
			{"Ana Alvarez", "ana@example.com", srv.URL + "/ana.png", "https://www.linkedin.com/in/ana"},
			{"Bo Berg", "bo@example.com", srv.URL + "/ana.png", ""},
			{"Cy Chan", "cy@example.com", srv.URL + "/page", "https://www.linkedin.com/in/cy"},
			{"Dee Dunn", "dee@example.com", srv.URL + "/missing.png", ""},
		}}
	sum, err := d.env.App.Distribution.SaveImport(ctx, d.key, c.ID, in)
	require.NoError(t, err)
	show(t, "photo notices", sum.Notices)
	require.Equal(t, distribution.ImportCounts{Rows: 4, Added: 4}, sum.Counts)
	require.EqualValues(t, 1, hits.Load(), "a URL two rows share is fetched once")
	require.Len(t, sum.Notices, 2)
	require.Equal(t, 3, sum.Notices[0].Row)
	require.Equal(t, []string{"photo"}, sum.Notices[0].Fields)
	require.Contains(t, sum.Notices[0].Message, "HTML page")
	require.Contains(t, sum.Notices[0].Message, "the LinkedIn profile is the portrait instead")
	require.Equal(t, 4, sum.Notices[1].Row)
	require.Contains(t, sum.Notices[1].Message, "HTTP 404")
	require.Contains(t, sum.Notices[1].Message, "no portrait yet")

	got, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, c.ID)
	require.NoError(t, err)
	require.Len(t, got.Recipients, 4)
	photos := map[string]*campaign.RecipientPhoto{}
	for _, r := range got.Recipients {
		photos[r.Name] = r.Photo
	}
	ana := photos["Ana Alvarez"]
	require.NotNil(t, ana)
	require.Equal(t, campaign.PhotoUpload, ana.Source, "a direct image wins over the LinkedIn profile")
	items, err := d.env.App.Artwork.List(ctx, d.key)
	require.NoError(t, err)
	require.Len(t, items, 1, "only the fetched portrait was stored")
	require.Equal(t, []string{ana.AssetID, srv.URL + "/ana.png"}, []string{items[0].ID, items[0].SourceURL})
	require.Equal(t, ana, photos["Bo Berg"])
	require.Equal(t, &campaign.RecipientPhoto{Source: campaign.PhotoLinkedIn, ProfileURL: "https://www.linkedin.com/in/cy"}, photos["Cy Chan"])
	require.Nil(t, photos["Dee Dunn"])

	// Without rightsConfirmed nothing is fetched: the LinkedIn fallback.
	in = distribution.ImportRequest{ImportID: "no-rights",
		Headers: []string{"name", "email", "photo_url", "linkedin_url"},
		Rows:    [][]string{{"Eve East", "eve@example.com", srv.URL + "/ana.png", "https://www.linkedin.com/in/eve"}}}
	sum, err = d.env.App.Distribution.SaveImport(ctx, d.key, c.ID, in)
	require.NoError(t, err)
	require.EqualValues(t, 1, hits.Load())
	require.Len(t, sum.Notices, 1)
	require.Contains(t, sum.Notices[0].Message, "rightsConfirmed")
	got, err = d.env.App.Campaigns.GetCampaign(ctx, d.key, c.ID)
	require.NoError(t, err)
	require.Equal(t, campaign.PhotoLinkedIn, got.Recipients[4].Photo.Source)
}

// An import spends at most its photo budget fetching photos: photos that
// hang are given up when it runs out, the URLs not reached by then are not
// fetched, each row says so in a notice, and the rows are imported.
func TestImportPhotoBudget(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	c := d.portraitCampaign()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	var started atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started.Add(1)
		select { // a server that never answers in time
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	d.env.AllowPhotoServer(t, srv)
	d.env.App.Distribution.PhotoBudget = 300 * time.Millisecond

	const rows = 12 // three times the fetchers at once
	in := distribution.ImportRequest{ImportID: "slow-photos", RightsConfirmed: true, Headers: []string{"name", "email", "photo_url"}}
	for i := range rows {
		in.Rows = append(in.Rows, []string{fmt.Sprintf("Person %d", i), fmt.Sprintf("p%d@example.com", i), fmt.Sprintf("%s/p%d.png", srv.URL, i)})
	}
	began := time.Now()
	sum, err := d.env.App.Distribution.SaveImport(ctx, d.key, c.ID, in)
	took := time.Since(began)
	require.NoError(t, err)
	t.Logf("%d photo URLs, %d fetches started, import answered in %v", rows, started.Load(), took.Round(time.Millisecond))
	require.Less(t, took, 10*time.Second, "the budget, not the fetches, ended the wait")
	require.Equal(t, distribution.ImportCounts{Rows: rows, Added: rows}, sum.Counts)
	require.Len(t, sum.Notices, rows)
	ranOut := 0
	for _, n := range sum.Notices {
		require.Equal(t, []string{"photo"}, n.Fields)
		require.Contains(t, n.Message, "the person has no portrait yet")
		if strings.Contains(n.Message, "the import's time for fetching photos ran out") {
			ranOut++
		}
	}
	require.Positive(t, ranOut, "URLs not reached in time are not fetched")
	require.Less(t, int(started.Load()), rows, "not every URL was fetched")
}

// An import sent again (after a failure, or to another playbook) uses the
// photos fetched from the same URLs within a day instead of fetching and
// counting them again.
func TestImportSentAgainReusesItsPhotos(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	ctx := context.Background()
	var hits atomic.Int32
	srv := photoServer(t, d, &hits)
	in := func(id string) distribution.ImportRequest {
		return distribution.ImportRequest{ImportID: id, RightsConfirmed: true, Headers: []string{"name", "email", "photo_url"},
			Rows: [][]string{{"Ana Alvarez", "ana@example.com", srv.URL + "/ana.png"}}}
	}
	photoOf := func(c campaign.Campaign) string {
		t.Helper()
		got, err := d.env.App.Campaigns.GetCampaign(ctx, d.key, c.ID)
		require.NoError(t, err)
		require.Len(t, got.Recipients, 1)
		require.NotNil(t, got.Recipients[0].Photo)
		return got.Recipients[0].Photo.AssetID
	}
	first, second := d.portraitCampaign(), d.portraitCampaign()
	_, err := d.env.App.Distribution.SaveImport(ctx, d.key, first.ID, in("first"))
	require.NoError(t, err)
	_, err = d.env.App.Distribution.SaveImport(ctx, d.key, second.ID, in("again"))
	require.NoError(t, err)
	require.EqualValues(t, 1, hits.Load(), "the photo was fetched once")
	require.Equal(t, photoOf(first), photoOf(second))

	// A day later the URL is fetched again.
	d.env.Clock.Advance(25 * time.Hour)
	third := d.portraitCampaign()
	_, err = d.env.App.Distribution.SaveImport(ctx, d.key, third.ID, in("later"))
	require.NoError(t, err)
	require.EqualValues(t, 2, hits.Load())
	require.NotEqual(t, photoOf(first), photoOf(third))
}
