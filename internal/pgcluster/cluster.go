// Package pgcluster starts and stops a private PostgreSQL cluster from the
// server programs installed on the machine (initdb, pg_ctl, postgres). The
// cluster listens only on a unix socket in a short directory; when the caller
// is root, the server runs as the postgres user.
//
//	c, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: ".giftwell/pg"})
//	if err != nil {
//		return err
//	}
//	defer c.Stop(context.Background())
//	pool, err := pgxpool.New(ctx, c.DSN("postgres"))
package pgcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Options configures Start.
type Options struct {
	// DataDir is the cluster's data directory. It is initialised when missing
	// or empty and reused when it already holds a cluster.
	DataDir string
	// SocketDir is where the server's unix socket goes. Empty means a short
	// directory under os.TempDir() named after DataDir, since socket paths are
	// limited to about 107 bytes.
	SocketDir string
	// LogFile receives the server's log. Empty means DataDir + ".log".
	LogFile string
	// Port names the socket file (.s.PGSQL.<Port>); no TCP port is opened.
	// Zero means 5432.
	Port int
	// Ephemeral turns off fsync, synchronous_commit and full_page_writes:
	// fast, and unsafe for anything but throwaway test clusters.
	Ephemeral bool
	// MaxConnections sets max_connections; zero keeps PostgreSQL's default.
	MaxConnections int
}

// autovacuumNaptime is how often autovacuum looks at each database of a
// private cluster for tables to vacuum or analyze.
const autovacuumNaptime = "5s"

// Cluster is a PostgreSQL server on a private data directory.
type Cluster struct {
	bin       Binaries
	account   *runAs
	dataDir   string
	socketDir string
	logFile   string
	port      int
	ephemeral bool
	maxConns  int
	attached  bool
	// ownSocketDir: the socket directory was derived, so Stop removes it.
	ownSocketDir bool
}

// maxSocketPath is the longest unix socket path the kernel accepts, less a margin.
const maxSocketPath = 100

// Start initialises the data directory if needed and starts the server,
// waiting until it accepts connections. When a server is already running on
// the data directory, Start attaches to it instead (see Attached). A
// postmaster.pid left behind by a crashed server is removed.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	c, err := newCluster(opts)
	if err != nil {
		return nil, err
	}
	if ok, err := c.attach(ctx); err != nil || ok {
		return c, err
	}
	if err := c.initdb(ctx); err != nil {
		return nil, err
	}
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

func newCluster(opts Options) (*Cluster, error) {
	if opts.DataDir == "" {
		return nil, errors.New("pgcluster: no data directory")
	}
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	account, err := serverAccount()
	if err != nil {
		return nil, err
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, account: account, dataDir: dataDir, port: opts.Port, ephemeral: opts.Ephemeral, maxConns: opts.MaxConnections}
	if c.port == 0 {
		c.port = 5432
	}
	c.socketDir = opts.SocketDir
	if c.socketDir == "" {
		c.ownSocketDir = true
		sum := sha256.Sum256([]byte(dataDir))
		c.socketDir = filepath.Join(os.TempDir(), "giftwell-pg-"+hex.EncodeToString(sum[:6]))
	}
	if c.socketDir, err = filepath.Abs(c.socketDir); err != nil {
		return nil, err
	}
	if n := len(c.socketFile()); n > maxSocketPath {
		return nil, fmt.Errorf("pgcluster: socket path %s is %d bytes, over the %d the kernel allows; choose a shorter SocketDir", c.socketFile(), n, maxSocketPath)
	}
	if strings.ContainsAny(c.socketDir, "'\"\\$` ") {
		return nil, fmt.Errorf("pgcluster: socket directory %q must not contain quotes, spaces or shell characters", c.socketDir)
	}
	c.logFile = opts.LogFile
	if c.logFile == "" {
		c.logFile = dataDir + ".log"
	}
	// pg_ctl runs in another working directory: every path must be absolute.
	if c.logFile, err = filepath.Abs(c.logFile); err != nil {
		return nil, err
	}
	if err := account.checkReachable(dataDir); err != nil {
		return nil, err
	}
	return c, nil
}

// DSN is a libpq keyword/value connection string for database on the
// cluster's socket, as the postgres superuser.
func (c *Cluster) DSN(database string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", c.socketDir, c.port, database)
}

// SocketDir is the directory holding the server's unix socket.
func (c *Cluster) SocketDir() string { return c.socketDir }

// DataDir is the cluster's absolute data directory.
func (c *Cluster) DataDir() string { return c.dataDir }

// Attached reports whether Start found the server already running (started
// by another process). Stop leaves an attached server running.
func (c *Cluster) Attached() bool { return c.attached }

// Stop shuts the server down with `pg_ctl stop -m fast` and waits for it. It
// does nothing for an attached server.
func (c *Cluster) Stop(ctx context.Context) error {
	if c.attached {
		return nil
	}
	if _, ok := readPidFile(c.dataDir); !ok {
		return nil
	}
	if _, err := c.run(ctx, "pg_ctl", "-D", c.dataDir, "-m", "fast", "-w", "-t", "120", "-s", "stop"); err != nil {
		if pf, ok := readPidFile(c.dataDir); !ok || !pf.alive() {
			return nil
		}
		return fmt.Errorf("pgcluster: stop: %w", err)
	}
	if c.ownSocketDir {
		_ = os.Remove(c.socketDir) // only when empty
	}
	return nil
}

func (c *Cluster) socketFile() string {
	return filepath.Join(c.socketDir, fmt.Sprintf(".s.PGSQL.%d", c.port))
}

// attach looks for a server already running on the data directory and
// removes a stale pid file.
func (c *Cluster) attach(ctx context.Context) (bool, error) {
	for {
		pf, ok := readPidFile(c.dataDir)
		if !ok {
			return false, nil
		}
		if !pf.alive() {
			if err := os.Remove(filepath.Join(c.dataDir, "postmaster.pid")); err != nil && !errors.Is(err, os.ErrNotExist) {
				return false, fmt.Errorf("pgcluster: remove stale postmaster.pid: %w", err)
			}
			return false, nil
		}
		if pf.status == "ready" && pf.socketDir != "" {
			c.socketDir, c.port, c.attached = pf.socketDir, pf.port, true
			return true, nil
		}
		// Starting up or shutting down: wait for it to settle.
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// initdb creates the cluster unless the data directory already holds one.
func (c *Cluster) initdb(ctx context.Context) error {
	if v, err := os.ReadFile(filepath.Join(c.dataDir, "PG_VERSION")); err == nil {
		return c.checkVersion(ctx, strings.TrimSpace(string(v)))
	}
	// Parents are searchable so that the server account can reach the data.
	if err := os.MkdirAll(filepath.Dir(c.dataDir), 0o755); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if err := os.Mkdir(c.dataDir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if entries, err := os.ReadDir(c.dataDir); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	} else if len(entries) > 0 {
		return fmt.Errorf("pgcluster: %s is not empty and holds no PostgreSQL cluster", c.dataDir)
	}
	if err := c.account.chown(c.dataDir); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	args := []string{"-D", c.dataDir, "-U", "postgres", "-E", "UTF8", "--locale=C",
		"--auth-local=trust", "--auth-host=reject"}
	if c.ephemeral {
		args = append(args, "--no-sync")
	}
	if out, err := c.run(ctx, "initdb", args...); err != nil {
		return fmt.Errorf("pgcluster: initdb: %w\n%s", err, out)
	}
	return nil
}

func (c *Cluster) checkVersion(ctx context.Context, dataVersion string) error {
	out, err := c.run(ctx, "postgres", "--version")
	if err != nil {
		return fmt.Errorf("pgcluster: postgres --version: %w", err)
	}
	// "postgres (PostgreSQL) 15.18 (Debian ...)": the major version is before the dot.
	fields := strings.Fields(string(out))
	if len(fields) >= 3 {
		major, _, _ := strings.Cut(fields[2], ".")
		if major != dataVersion {
			return fmt.Errorf("pgcluster: %s was created by PostgreSQL %s but %s is PostgreSQL %s; "+
				"install PostgreSQL %s or move the directory away", c.dataDir, dataVersion, c.bin.Dir, major, dataVersion)
		}
	}
	return nil
}

// start runs pg_ctl start and waits until the server accepts connections.
func (c *Cluster) start(ctx context.Context) error {
	if err := os.MkdirAll(filepath.Dir(c.socketDir), 0o755); err != nil {
		return fmt.Errorf("pgcluster: socket directory: %w", err)
	}
	if err := os.Mkdir(c.socketDir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("pgcluster: socket directory: %w", err)
	}
	if err := c.account.chown(c.socketDir); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	f, err := os.OpenFile(c.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("pgcluster: log file: %w", err)
	}
	_ = f.Close()
	if err := c.account.chown(c.logFile); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	serverOpts := fmt.Sprintf("-k '%s' -p %d -c listen_addresses=''", c.socketDir, c.port)
	// Analyze tables soon after they grow (autovacuum_naptime, 60 s by
	// default): a private cluster's tables start empty and grow fast, and a
	// prepared statement keeps the generic plan it made while they were
	// small until an ANALYZE invalidates it (docs/decisions/0121, "Later:
	// plans made on empty tables").
	serverOpts += " -c autovacuum_naptime=" + autovacuumNaptime
	if c.ephemeral {
		serverOpts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	if c.maxConns > 0 {
		serverOpts += fmt.Sprintf(" -c max_connections=%d", c.maxConns)
	}
	if out, err := c.run(ctx, "pg_ctl", "-D", c.dataDir, "-l", c.logFile, "-w", "-t", "120", "-s", "-o", serverOpts, "start"); err != nil {
		return fmt.Errorf("pgcluster: pg_ctl start: %w\n%s\nserver log (%s):\n%s", err, out, c.logFile, tail(c.logFile, 20))
	}
	return nil
}

// run runs one of the server programs as the server account and returns its
// combined output.
func (c *Cluster) run(ctx context.Context, program string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.bin.Path(program), args...)
	cmd.Dir = filepath.Dir(c.dataDir)
	cmd.Env = serverEnv()
	cmd.SysProcAttr = c.account.sysProcAttr()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// serverEnv is the caller's environment without libpq's PG* variables, which
// would point the programs elsewhere.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "LC_") {
			env = append(env, kv)
		}
	}
	return append(env, "LC_ALL=C")
}

// tail returns the last n lines of a file, for error messages.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TakeOver makes Stop shut down an attached server too: for a process that
// knows the server's starter is gone (a crashed `giftwell serve`).
func (c *Cluster) TakeOver() { c.attached = false }
