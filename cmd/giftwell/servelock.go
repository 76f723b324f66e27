package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// serveLock is DATADIR/serve.pid: it keeps two `giftwell serve` processes
// from managing the same private cluster. With DATABASE_URL there is no
// private cluster and no lock: instances share the database.
type serveLock struct{ path string }

// lockServe takes the data directory for this process. A pid file naming a
// process that is gone is taken over.
func lockServe(dir string) (*serveLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "serve.pid")
	for range 2 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintln(f, os.Getpid())
			_ = f.Close()
			return &serveLock{path: path}, err
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		b, _ := os.ReadFile(path)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid > 0 && syscall.Kill(pid, 0) == nil {
			return nil, fmt.Errorf("another giftwell serve (pid %d) is using %s; stop it or set GIFTWELL_DATA_DIR", pid, dir)
		}
		_ = os.Remove(path) // stale
	}
	return nil, fmt.Errorf("could not take %s", path)
}

func (l *serveLock) release() { _ = os.Remove(l.path) }
