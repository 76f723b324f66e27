package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/giftwell/giftwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// giftwellBinary builds the command once per test binary.
func giftwellBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "giftwell-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "giftwell")
		buildOut, buildErr = exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return binPath
}
