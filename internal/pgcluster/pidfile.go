package pgcluster

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// pidFile is what a running server writes to DATADIR/postmaster.pid.
type pidFile struct {
	pid       int
	port      int
	socketDir string
	status    string // "ready" once it accepts connections
}

// readPidFile reads DATADIR/postmaster.pid; ok is false when there is none.
func readPidFile(dataDir string) (pidFile, bool) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return pidFile{}, false
	}
	lines := strings.Split(string(b), "\n")
	line := func(i int) string {
		if i < len(lines) {
			return strings.TrimSpace(lines[i])
		}
		return ""
	}
	var pf pidFile
	pf.pid, _ = strconv.Atoi(line(0))
	pf.port, _ = strconv.Atoi(line(3))
	pf.socketDir = line(4)
	pf.status = line(7)
	return pf, pf.pid > 0
}

// alive reports whether the pid file's process is a running postgres.
func (pf pidFile) alive() bool {
	if pf.pid <= 0 {
		return false
	}
	if err := syscall.Kill(pf.pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	// A recycled pid belongs to some other program.
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pf.pid) + "/comm")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) // no /proc: trust kill(2)
	}
	return strings.TrimSpace(string(comm)) == "postgres"
}
