// Package stripemock starts stripe-mock (github.com/stripe/stripe-mock,
// installed by `make deps`) for tests: Stripe's API as its OpenAPI
// document describes it, stateless, bound to 127.0.0.1 on ports the system
// chooses.
package stripemock

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Version is the stripe-mock the Makefile installs.
const Version = "v0.203.0"

// listening is stripe-mock's line naming its HTTP address.
var listening = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

// Start runs stripe-mock until the test ends and returns its base URL
// (http://127.0.0.1:<port>). Without the binary the test is skipped, or
// failed when CI is set (make deps installs it).
func Start(t testing.TB) string {
	t.Helper()
	bin := binary()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("stripe-mock is needed in CI: go install github.com/stripe/stripe-mock@%s (make deps installs it)", Version)
		}
		t.Skipf("stripe-mock not installed: go install github.com/stripe/stripe-mock@%s (make deps)", Version)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start stripe-mock: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a
	case <-time.After(30 * time.Second):
		t.Fatal("stripe-mock did not start listening within 30 seconds")
		return ""
	}
}

// binary finds stripe-mock on PATH or in Go's bin directory.
func binary() string {
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	if gopath := os.Getenv("GOPATH"); gopath != "" {
		for _, p := range filepath.SplitList(gopath) {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "stripe-mock")
		if st, err := os.Stat(p); err == nil && !st.IsDir() && strings.TrimSpace(p) != "" {
			return p
		}
	}
	return ""
}
