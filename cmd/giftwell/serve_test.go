package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/internal/pgcluster"
	"github.com/giftwell/giftwell/internal/testdb"
)

// serving is a `giftwell serve` process under test.
type serving struct {
	site   string
	stdout *apptest.LogBuffer
	stop   func() error
	// early are the log lines before "listening"; later are the ones after.
	early []string
	later *apptest.LogBuffer
}

// startServe starts cmd (a `giftwell serve`), waits until it logs where it
// listens, and returns how to reach and stop it.
func startServe(t testing.TB, cmd *exec.Cmd) serving {
	t.Helper()
	stdout := &apptest.LogBuffer{}
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	logs := bufio.NewScanner(stderr)
	var site string
	var early []string
	for site == "" && logs.Scan() {
		early = append(early, logs.Text())
		var line struct {
			Msg     string `json:"msg"`
			SiteURL string `json:"site_url"`
		}
		require.NoError(t, json.Unmarshal(logs.Bytes(), &line), logs.Text())
		if line.Msg == "listening" {
			site = line.SiteURL
		}
	}
	require.NotEmpty(t, site, "serve logged where it listens")
	drained := make(chan struct{})
	later := &apptest.LogBuffer{}
	go func() { _, _ = io.Copy(later, stderr); close(drained) }()

	stop := func() error {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return err
		}
		done := make(chan error, 1)
		go func() {
			<-drained // Wait closes the pipe: read it to the end first.
			done <- cmd.Wait()
		}()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("serve did not stop within 30s of SIGTERM")
			return nil
		}
	}
	return serving{site: site, stdout: stdout, stop: stop, early: early, later: later}
}

// serve starts on DATABASE_URL, answers /healthz and /readyz, and stops
// cleanly on SIGTERM.
func TestServeStartsAndStops(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testdb.NewDSN(t), "GIFTWELL_DATA_DIR="+t.TempDir())
	s := startServe(t, cmd)

	for _, path := range []string{"/healthz", "/readyz"} {
		res, err := http.Get(s.site + path)
		require.NoError(t, err)
		_ = res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
	}
	require.NoError(t, s.stop(), "exit status 0 after SIGTERM")
}

// With DATABASE_URL two serve processes share one database, even from one
// data directory (the lock guards only the private cluster), and both
// answer.
func TestTwoServesShareOneDatabase(t *testing.T) {
	t.Parallel()
	dsn, dir := testdb.NewDSN(t), t.TempDir()
	var sites []serving
	for range 2 {
		cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn, "GIFTWELL_DATA_DIR="+dir)
		sites = append(sites, startServe(t, cmd))
	}
	for _, s := range sites {
		res, err := http.Get(s.site + "/readyz")
		require.NoError(t, err)
		_ = res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	for _, s := range sites {
		require.NoError(t, s.stop())
	}
}

// The README's `make run` on a new machine: no DATABASE_URL, no data
// directory setting, started from the project directory. serve makes its
// private cluster under ./.giftwell, prints a sign-in and a key that works,
// and stops the cluster on SIGTERM.
func TestServeFirstRunOnPrivateCluster(t *testing.T) {
	t.Parallel()
	project, err := pgcluster.TempDir("giftwell-project-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(project) })

	cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = project
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "DATABASE_URL=") || strings.HasPrefix(kv, "GIFTWELL_")
	})
	s := startServe(t, cmd)

	// The first-run text is written beside the "listening" log line; wait
	// for its last line rather than racing the child's writes.
	require.Eventually(t, func() bool { return strings.Contains(s.stdout.String(), "Saved to ") },
		10*time.Second, 20*time.Millisecond, "serve printed its first-run text")
	out := s.stdout.String()
	require.Contains(t, out, "Sign in:   "+s.site+"/login")
	require.Regexp(t, `Password:  \S{12,}`, out)
	key := regexp.MustCompile(`gwk_[0-9a-f]{64}`).FindString(out)
	require.NotEmpty(t, key, "the first start prints an API key:\n%s", out)

	req, err := http.NewRequest(http.MethodGet, s.site+"/api/v1/workflow", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the printed key works")

	saved, err := os.ReadFile(filepath.Join(project, ".giftwell", "first-run.txt"))
	require.NoError(t, err)
	require.Contains(t, string(saved), key)

	require.NoError(t, s.stop())
	_, err = os.Stat(filepath.Join(project, ".giftwell", "pg", "postmaster.pid"))
	require.ErrorIs(t, err, os.ErrNotExist, "the private cluster stopped with serve")
}

// `make run` as root from a clone in a 0700 directory (root's home in a
// container): the postgres user cannot reach ./.giftwell, so the private
// cluster keeps its files where it can (one log line says where), and
// everything else stays under ./.giftwell.
func TestServeAsRootFromPrivateDirectory(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("only root runs PostgreSQL as another user")
	}
	project := filepath.Join(t.TempDir(), "clone")
	require.NoError(t, os.Mkdir(project, 0o700))
	cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = project
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "DATABASE_URL=") || strings.HasPrefix(kv, "GIFTWELL_")
	})
	s := startServe(t, cmd)
	var moved string
	for _, l := range s.early {
		var line struct {
			PostgresFiles string `json:"postgres_files"`
		}
		if json.Unmarshal([]byte(l), &line) == nil && line.PostgresFiles != "" {
			moved = line.PostgresFiles
		}
	}
	require.NotEmpty(t, moved, "serve said where the cluster's files are: %v", s.early)
	t.Cleanup(func() { _ = os.RemoveAll(moved) })
	require.Eventually(t, func() bool { return strings.Contains(s.stdout.String(), "Saved to ") },
		10*time.Second, 20*time.Millisecond, "serve printed its first-run text")
	require.Contains(t, s.stdout.String(), "Sign in:   "+s.site+"/login")
	_, err := os.Stat(filepath.Join(project, ".giftwell", "first-run.txt"))
	require.NoError(t, err, "the first-run file stays under ./.giftwell")
	_, err = os.Stat(filepath.Join(moved, "pg", "PG_VERSION"))
	require.NoError(t, err, "the cluster lives where the postgres user can reach it")
	require.NoError(t, s.stop())
}
