package browsertest_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/browsertest"
)

func TestBrowserOpensAPageAndTakesAScreenshot(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<!doctype html><title>t</title><h1>Hello from the harness</h1>"))
	}))
	t.Cleanup(srv.Close)

	ctx := browsertest.New(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL)))
	h1, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1"), chromedp.NodeVisible))
	require.NoError(t, err)
	require.Equal(t, "Hello from the harness", h1)

	name := "browsertest-" + filepath.Base(t.TempDir())
	browsertest.Screenshot(t, ctx, name)
	png, err := os.ReadFile(filepath.Join(browsertest.ScreenshotDir(), name+".png"))
	require.NoError(t, err)
	require.Equal(t, []byte("\x89PNG"), png[:4])
	require.NoError(t, os.Remove(filepath.Join(browsertest.ScreenshotDir(), name+".png")))
}
