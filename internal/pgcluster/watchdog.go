package pgcluster

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// watchdogScript waits for process $1 to exit, then stops the cluster in $3
// with pg_ctl ($2) and removes $4 when it is not empty.
const watchdogScript = `while [ -d /proc/$1 ]; do sleep 1; done
"$2" -D "$3" -m immediate -s stop >/dev/null 2>&1
if [ -n "$4" ]; then rm -rf "$4"; fi`

// StopAfterExit starts a detached process that waits for the calling process
// to exit, however it exits (a panic, a test timeout, a kill), then stops the
// cluster immediately and removes removeDir (nothing when removeDir is "").
// It is meant for throwaway test clusters; a clean Stop beforehand is fine.
func (c *Cluster) StopAfterExit(removeDir string) error {
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "giftwell-pg-watchdog",
		strconv.Itoa(os.Getpid()), c.bin.Path("pg_ctl"), c.dataDir, removeDir)
	cmd.Dir = "/"
	cmd.Env = serverEnv()
	attr := c.account.sysProcAttr()
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	// Its own process group, so that a Ctrl-C to the test does not stop it first.
	attr.Setpgid = true
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgcluster: watchdog: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
