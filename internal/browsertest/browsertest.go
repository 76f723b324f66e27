// Package browsertest starts headless Chromium for the tests that drive
// pages through a real browser (chromedp with Debian's chromium), with one
// set of flags and one rule for a machine without Chromium. Tests only.
//
//	ctx := browsertest.New(t) // skipped (or, in CI, failed) without Chromium
//	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site+"/login")))
//	browsertest.Screenshot(t, ctx, "login")
package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// ChromiumPath is Debian's chromium package, which `make deps` installs.
const ChromiumPath = "/usr/bin/chromium"

// Timeout bounds one browser, start-up included.
const Timeout = 2 * time.Minute

// RequireChromium skips t when ChromiumPath is missing on a workstation,
// and fails it when CI is set, so that CI always runs the browser tests.
func RequireChromium(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("browser tests need %s in CI: %v (make deps installs it)", ChromiumPath, err)
		}
		t.Skipf("browser tests need %s; run `make deps` to install Debian's chromium", ChromiumPath)
	}
}

// New starts a headless Chromium for t with a profile of its own (so its
// own cookies: two browsers are two people) and returns its chromedp
// context, bounded by Timeout. The browser stops and its profile is removed
// when t ends. Without Chromium, see RequireChromium.
func New(t testing.TB) context.Context {
	t.Helper()
	RequireChromium(t)
	dir, err := os.MkdirTemp("", "giftwell-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() { removeProfile(t, dir) }) // runs after the browser has stopped

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(ChromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// A container's /dev/shm is often 64 MB, too small for Chromium.
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, Timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelBrowser()
		cancelAlloc()
	})
	require.NoError(t, chromedp.Do(ctx), "start chromium")
	return ctx
}

// removeProfile deletes a browser profile. Chromium's helpers may still
// write in it for a moment after the browser stops, so it tries again.
func removeProfile(t testing.TB, dir string) {
	var err error
	for range 50 {
		if err = os.RemoveAll(dir); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("leaving browser profile %s: %v", dir, err)
}

// ScreenshotDir is where Screenshot saves its pictures.
func ScreenshotDir() string { return filepath.Join(os.TempDir(), "giftwell-screenshots") }

// Screenshot saves the browser's whole page as name.png in ScreenshotDir
// and logs the path, for a person to look at.
func Screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	dir := ScreenshotDir()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, name+".png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}
