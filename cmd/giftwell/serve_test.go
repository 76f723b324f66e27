package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/testdb"
)

// serve starts on DATABASE_URL, answers /healthz and /readyz, and stops
// cleanly on SIGTERM.
func TestServeStartsAndStops(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(giftwellBinary(t), "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testdb.NewDSN(t), "GIFTWELL_DATA_DIR="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	logs := bufio.NewScanner(stderr)
	var site string
	for site == "" && logs.Scan() {
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
	go func() { _, _ = io.Copy(io.Discard, stderr); close(drained) }()

	for _, path := range []string{"/healthz", "/readyz"} {
		res, err := http.Get(site + path)
		require.NoError(t, err)
		_ = res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() {
		<-drained // Wait closes the pipe: read it to the end first.
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		require.NoError(t, err, "exit status 0 after SIGTERM")
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s of SIGTERM")
	}
}
