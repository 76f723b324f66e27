package artwork_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/internal/apptest"
)

func owner(t *testing.T, env *apptest.Env) core.Principal {
	t.Helper()
	p, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	return p
}

// TestUploadAndRead stores a PNG and reads the same bytes back; another
// workspace cannot.
func TestUploadAndRead(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	body := pngOf(t, 300, 300)
	a, err := env.App.Artwork.Upload(ctx, p, artwork.UploadInput{Filename: "Team logo (v2).png", Mime: "image/png", Body: body})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(a.ID, "asset_"))
	require.Equal(t, artwork.Asset{ID: a.ID, Filename: "Team logo (v2).png", Mime: "image/png", Bytes: int64(len(body))}, a)

	f, err := env.App.Artwork.Get(ctx, p, a.ID)
	require.NoError(t, err)
	require.Equal(t, body, f.Body)

	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	op, err := env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	_, err = env.App.Artwork.Get(ctx, op, a.ID)
	apptest.RequireCode(t, err, core.CodeNotFound)

	items, err := env.App.Artwork.List(ctx, p)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, 300, items[0].Width)
}

// TestUploadRefusals: each bad input is a VALIDATION_ERROR naming its
// field, and nothing is stored.
func TestUploadRefusals(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	html := append([]byte("\x89PNG\r\n\x1a\n"), []byte("<!doctype html><html><script>alert(1)</script></html>")...)
	cases := []struct {
		name  string
		in    artwork.UploadInput
		field string
		want  string
	}{
		{"svg", artwork.UploadInput{Filename: "a.svg", Mime: "image/svg+xml", Body: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)}, "mime", "SVG and HTML"},
		{"svg sent as png", artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)}, "base64", "it is SVG"},
		{"html", artwork.UploadInput{Filename: "a.html", Mime: "text/html", Body: []byte("<html></html>")}, "mime", "SVG and HTML"},
		{"png header on an html body", artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: html}, "base64", "header does not decode"},
		{"jpeg declared png", artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: jpegOf(t, 10, 10)}, "base64", "not the declared"},
		{"1x1 portrait", artwork.UploadInput{Filename: "me.png", Mime: "image/png", Purpose: "portrait", Body: pngOf(t, 1, 1)}, "base64", "at least 256x256"},
		{"50,000 wide", artwork.UploadInput{Filename: "wide.png", Mime: "image/png", Purpose: "portrait", Body: pngHeaderOnly(50_000, 300)}, "base64", "50000x300"},
		{"too many megapixels", artwork.UploadInput{Filename: "big.png", Mime: "image/png", Body: pngHeaderOnly(8000, 8000)}, "base64", "40 megapixels"},
		{"pdf portrait", artwork.UploadInput{Filename: "me.pdf", Mime: "application/pdf", Purpose: "portrait", Body: []byte("%PDF-1.7\n")}, "base64", "is a PDF"},
		{"unknown purpose", artwork.UploadInput{Filename: "me.png", Mime: "image/png", Purpose: "selfie", Body: pngOf(t, 300, 300)}, "purpose", "artwork, logo or portrait"},
		{"extension", artwork.UploadInput{Filename: "a.jpg", Mime: "image/png", Body: pngOf(t, 4, 4)}, "filename", "must end with .png"},
		{"slash", artwork.UploadInput{Filename: "../a.png", Mime: "image/png", Body: pngOf(t, 4, 4)}, "filename", "may hold only"},
		{"long name", artwork.UploadInput{Filename: strings.Repeat("a", 177) + ".png", Mime: "image/png", Body: pngOf(t, 4, 4)}, "filename", "181 characters"},
		{"empty", artwork.UploadInput{Filename: "a.png", Mime: "image/png"}, "base64", "is empty"},
		{"over 5 MiB", artwork.UploadInput{Filename: "a.pdf", Mime: "application/pdf", Body: append([]byte("%PDF-"), make([]byte, artwork.MaxFileBytes)...)}, "base64", "5 MiB"},
	}
	for _, c := range cases {
		_, err := env.App.Artwork.Upload(ctx, p, c.in)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields, c.name)
		require.Contains(t, e.Message, c.want, c.name)
	}
	items, err := env.App.Artwork.List(ctx, p)
	require.NoError(t, err)
	require.Empty(t, items)
}

// TestDecodeBase64 refuses truncated and oversized text.
func TestDecodeBase64(t *testing.T) {
	t.Parallel()
	good := base64.StdEncoding.EncodeToString([]byte("hello artwork"))
	b, err := artwork.DecodeBase64(good, "base64")
	require.NoError(t, err)
	require.Equal(t, "hello artwork", string(b))

	_, err = artwork.DecodeBase64(good[:len(good)-3], "base64")
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Contains(t, e.Message, "base64: is not valid base64")

	_, err = artwork.DecodeBase64(strings.Repeat("A", 7_200_000), "base64")
	e = apptest.RequireCode(t, err, core.CodeValidation)
	require.Contains(t, e.Message, "more than 5 MiB")
}

// TestDailyAndStorageLimits: the daily attempt and upload limits answer
// RATE_LIMIT with the time to midnight UTC; a full workspace refuses more.
func TestDailyAndStorageLimits(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	png := pngOf(t, 8, 8)
	in := artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: png}
	_, err := env.App.Artwork.Upload(ctx, p, in)
	require.NoError(t, err)

	_, err = env.App.DB.Exec(ctx, `UPDATE artwork_days SET uploads = 550 WHERE workspace_id = $1`, env.WorkspaceID)
	require.NoError(t, err)
	_, err = env.App.Artwork.Upload(ctx, p, in)
	e := apptest.RequireCode(t, err, core.CodeRateLimit)
	// apptest's clock is 09:00 UTC: 15 hours to midnight.
	require.EqualValues(t, 15*3600*1000, e.RetryAfterMs)

	_, err = env.App.DB.Exec(ctx, `UPDATE artwork_days SET uploads = 0, attempts = 560 WHERE workspace_id = $1`, env.WorkspaceID)
	require.NoError(t, err)
	_, err = env.App.Artwork.Upload(ctx, p, in)
	apptest.RequireCode(t, err, core.CodeRateLimit)

	// A new UTC day starts the counts again.
	env.Clock.Advance(15 * 3600 * 1e9)
	_, err = env.App.Artwork.Upload(ctx, p, in)
	require.NoError(t, err)

	_, err = env.App.DB.Exec(ctx, `UPDATE artwork_assets SET bytes = 1500::bigint * 1048576 - 10 WHERE workspace_id = $1`, env.WorkspaceID)
	require.NoError(t, err)
	_, err = env.App.Artwork.Upload(ctx, p, in)
	e = apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Contains(t, e.Message, "3,000 MiB")
}

// failingBlobs is a blob store that is down.
type failingBlobs struct{ artwork.BlobStore }

func (failingBlobs) Put(context.Context, string, []byte, string) error {
	return context.DeadlineExceeded
}

// TestBlobStoreDown answers retry_later and leaves nothing behind.
func TestBlobStoreDown(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	env.App.Artwork.Blobs = failingBlobs{env.App.Artwork.Blobs}
	_, err := env.App.Artwork.Upload(ctx, p, artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: pngOf(t, 8, 8)})
	e := apptest.RequireCode(t, core.AfterWrite(err), core.CodeUnavailableRead)
	require.Equal(t, core.RetryLater, e.NextAction())
	var n int
	require.NoError(t, env.App.DB.QueryRow(ctx, `SELECT count(*) FROM artwork_assets`).Scan(&n))
	require.Zero(t, n)
	require.NoError(t, env.App.DB.QueryRow(ctx, `SELECT uploads FROM artwork_days`).Scan(&n))
	require.Zero(t, n, "the upload's count was given back")
}

// TestDemoWorkspaceCannotUpload: DEMO_LIMITED.
func TestDemoWorkspaceCannotUpload(t *testing.T) {
	t.Parallel()
	env := apptest.New(t, apptest.Demo())
	p := owner(t, env)
	p.Via = core.ViaSession
	_, err := env.App.Artwork.Upload(context.Background(), p, artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: pngOf(t, 8, 8)})
	apptest.RequireCode(t, err, core.CodeDemoLimited)
}

// TestDailyLimitHoldsUnderConcurrency: with one upload left today, eight
// at once leave exactly one stored; the rest are RATE_LIMIT.
func TestDailyLimitHoldsUnderConcurrency(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx, p := context.Background(), owner(t, env)
	in := artwork.UploadInput{Filename: "a.png", Mime: "image/png", Body: pngOf(t, 8, 8)}
	_, err := env.App.Artwork.Upload(ctx, p, in)
	require.NoError(t, err)
	_, err = env.App.DB.Exec(ctx, `UPDATE artwork_days SET uploads = 549 WHERE workspace_id = $1`, env.WorkspaceID)
	require.NoError(t, err)

	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := env.App.Artwork.Upload(ctx, p, in)
			errs <- err
		}()
	}
	stored := 0
	for range 8 {
		if err := <-errs; err == nil {
			stored++
		} else {
			apptest.RequireCode(t, err, core.CodeRateLimit)
		}
	}
	require.Equal(t, 1, stored)
	items, err := env.App.Artwork.List(ctx, p)
	require.NoError(t, err)
	require.Len(t, items, 2)
}
