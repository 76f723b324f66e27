package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/procfs"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/pgcluster"
)

// BenchmarkIdleRSS measures `make run`'s server at rest: the release build
// (make build's flags) started as the README starts it, on its private
// cluster, its resident set read ten seconds after it listens (rss, of
// which file is the binary's own pages and anon the Go heap and stacks),
// then again after 300 rounds of a balance read, a catalog search and the
// sign-in page (load-rss). Each run starts a new server; b.N is not used.
func BenchmarkIdleRSS(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "giftwell")
	out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".").CombinedOutput()
	require.NoError(b, err, "%s", out)
	project, err := pgcluster.TempDir("giftwell-bench-")
	require.NoError(b, err)
	b.Cleanup(func() { _ = os.RemoveAll(project) })

	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--rate-limit-per-minute", "100000")
	cmd.Dir = project
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "DATABASE_URL=") || strings.HasPrefix(kv, "GIFTWELL_")
	})
	s := startServe(b, cmd)
	defer func() { require.NoError(b, s.stop()) }()
	require.Eventually(b, func() bool { return strings.Contains(s.stdout.String(), "Saved to ") },
		10*time.Second, 20*time.Millisecond, "serve printed its first-run text")
	key := regexp.MustCompile(`gwk_[0-9a-f]{64}`).FindString(s.stdout.String())
	require.NotEmpty(b, key)
	proc, err := procfs.NewProc(cmd.Process.Pid)
	require.NoError(b, err)
	resident := func(prefix string) {
		r, err := proc.ProcSMapsRollup()
		require.NoError(b, err)
		const mib = 1 << 20
		b.ReportMetric(float64(r.Rss)/mib, prefix+"rss-MiB")
		b.ReportMetric(float64(r.Rss-r.Anonymous)/mib, prefix+"file-MiB")
		b.ReportMetric(float64(r.Anonymous)/mib, prefix+"anon-MiB")
	}

	time.Sleep(10 * time.Second)
	resident("")
	for range 300 {
		for _, path := range []string{"/api/v1/balance", "/api/v1/catalog/search?query=mug", "/login"} {
			req, err := http.NewRequest(http.MethodGet, s.site+path, nil)
			require.NoError(b, err)
			req.Header.Set("Authorization", "Bearer "+key)
			res, err := http.DefaultClient.Do(req)
			require.NoError(b, err)
			_ = res.Body.Close()
			require.Equal(b, http.StatusOK, res.StatusCode, path)
		}
	}
	time.Sleep(2 * time.Second)
	resident("load-")
}
