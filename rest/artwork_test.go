package rest_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// The validator reads artwork answers as files.
func init() {
	for _, mt := range []string{"image/png", "image/jpeg", "image/webp", "application/pdf"} {
		openapi3filter.RegisterBodyDecoder(mt, openapi3filter.FileBodyDecoder)
	}
}

// restPNG is a real w x h PNG.
func restPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))))
	return b.Bytes()
}

// TestArtworkOverREST uploads raw bytes, refuses an SVG, an HTML body
// behind a PNG header and an oversize body, and serves the file back
// privately: as a download, or inline as a preview under a strict CSP.
func TestArtworkOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)
	upload := func(body []byte, contentType, filename string, more ...reqOpt) response {
		opts := append([]reqOpt{key, withHeader("Content-Type", contentType), withHeader("X-Artwork-Filename", filename)}, more...)
		return h.do(http.MethodPost, "/artwork", bytes.NewReader(body), opts...)
	}

	res := upload([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "image/svg+xml", "logo.svg")
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.True(t, strings.HasPrefix(res.message(), "Content-Type: "), res.message())
	t.Logf("SVG refused: %d %s", res.Status, res.Body)

	res = upload(append([]byte("\x89PNG\r\n\x1a\n"), "<html><body>hi</body></html>"...), "image/png", "x.png")
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.True(t, strings.HasPrefix(res.message(), "body: "), res.message())

	res = upload(restPNG(t, 1, 1), "image/png", "me.png", withHeader("X-Artwork-Purpose", "portrait"))
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.Contains(t, res.message(), "at least 256x256")

	res = upload(restPNG(t, 4, 4), "image/png", "")
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.True(t, strings.HasPrefix(res.message(), "X-Artwork-Filename: "), res.message())

	res = upload(make([]byte, 5<<20+1), "application/pdf", "big.pdf")
	require.Equal(t, http.StatusRequestEntityTooLarge, res.Status)

	body := restPNG(t, 300, 300)
	res = upload(body, "image/png", "Portrait of Ana.png", withHeader("X-Artwork-Purpose", "portrait"))
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	asset := res.data().(map[string]any)
	require.Equal(t, "Portrait of Ana.png", asset["filename"])
	require.Equal(t, "image/png", asset["mime"])
	require.EqualValues(t, len(body), asset["bytes"])
	t.Logf("PNG accepted: %d %s", res.Status, res.Body)
	id := asset["id"].(string)

	file := h.csv("/artwork/"+id, key)
	require.Equal(t, http.StatusOK, file.StatusCode)
	require.Equal(t, string(body), file.body)
	require.Equal(t, "image/png", file.Header.Get("Content-Type"))
	require.Equal(t, `attachment; filename="Portrait of Ana.png"`, file.Header.Get("Content-Disposition"))
	require.Equal(t, "nosniff", file.Header.Get("X-Content-Type-Options"))
	preview := h.csv("/artwork/"+id+"?preview=1", key)
	require.Equal(t, http.StatusOK, preview.StatusCode)
	require.True(t, strings.HasPrefix(preview.Header.Get("Content-Disposition"), "inline"))
	require.Contains(t, preview.Header.Get("Content-Security-Policy"), "default-src 'none'")

	pdf := upload([]byte("%PDF-1.7\n%%EOF\n"), "application/pdf", "proof.pdf")
	require.Equal(t, http.StatusCreated, pdf.Status, "%s", pdf.Body)
	pdfFile := h.csv("/artwork/"+pdf.data().(map[string]any)["id"].(string)+"?preview=1", key)
	require.True(t, strings.HasPrefix(pdfFile.Header.Get("Content-Disposition"), "attachment"), "a PDF is always a download")

	// A photo import names a direct image, never a profile page.
	res = h.do(http.MethodPost, "/artwork/import-photo", strings.NewReader(`{"url":"https://www.linkedin.com/in/ana","rightsConfirmed":true}`), key, withJSON())
	require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
	require.True(t, strings.HasPrefix(res.message(), "url: "), res.message())

	// Private to the workspace, and never without credentials.
	require.Equal(t, http.StatusUnauthorized, h.csv("/artwork/"+id).StatusCode)
	require.Equal(t, http.StatusNotFound, h.csv("/artwork/asset_nope", key).StatusCode)
}

// TestPortraitApprovalOverREST: a portrait gift's photo, uploaded as raw
// bytes, is approved through POST /sends/{id}/photo with the current
// version; a stale version is 409 and a connection has no access.
func TestPortraitApprovalOverREST(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t)
	app := h.env.App
	_, owner := h.env.SignIn(t, h.env.OwnerEmail)
	key, err := app.Connect.Authenticate(ctx, h.env.OwnerKey)
	require.NoError(t, err)
	h.env.TopUp(t, owner, 100_000)
	res := h.do(http.MethodPost, "/artwork", bytes.NewReader(restPNG(t, 512, 512)), withKey(h.env.OwnerKey),
		withHeader("Content-Type", "image/png"), withHeader("X-Artwork-Filename", "ana.png"), withHeader("X-Artwork-Purpose", "portrait"))
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	photo := res.data().(map[string]any)["id"].(string)
	c, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{Name: "Portraits", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive,
		ProductID: "custom-portrait-illustration", SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!"})
	require.NoError(t, err)
	added, err := app.Approvals.AddToPlaybook(ctx, key, c.ID, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Ana", Photo: &campaign.RecipientPhoto{Source: campaign.PhotoUpload, AssetID: photo}}})
	require.NoError(t, err)
	sent, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: added.RecipientID})
	require.NoError(t, err)

	before := h.get("/sends/"+sent.ID, withKey(h.env.OwnerKey))
	portrait := before.data().(map[string]any)["portrait"].(map[string]any)
	require.Equal(t, "awaiting_approval", portrait["state"])
	t.Logf("GET /sends/%s portrait: %v", sent.ID, portrait)

	body := `{"version":1,"action":"approve","rightsConfirmed":true}`
	require.Equal(t, http.StatusUnauthorized, h.do(http.MethodPost, "/sends/"+sent.ID+"/photo", strings.NewReader(body), withKey(connectionToken), withJSON()).Status)
	res = h.do(http.MethodPost, "/sends/"+sent.ID+"/photo", strings.NewReader(body), withKey(h.env.OwnerKey), withJSON())
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	got := res.data().(map[string]any)
	require.Equal(t, "approved", got["state"])
	require.EqualValues(t, 2, got["version"])
	require.Equal(t, photo, got["assetId"])
	t.Logf("POST /sends/%s/photo %s -> %d %s", sent.ID, body, res.Status, res.Body)

	res = h.do(http.MethodPost, "/sends/"+sent.ID+"/photo", strings.NewReader(body), withKey(h.env.OwnerKey), withJSON())
	require.Equal(t, http.StatusConflict, res.Status, "%s", res.Body)
	require.True(t, strings.HasPrefix(res.message(), "version: "), res.message())
	t.Logf("stale: %d %s", res.Status, res.Body)
}
