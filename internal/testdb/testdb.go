// Package testdb gives each test its own PostgreSQL database, cloned from a
// template that is migrated (and seeded with the catalog) once per test
// binary. The server is a throwaway private cluster started from the
// machine's PostgreSQL binaries, or the server at TEST_DATABASE_URL.
//
//	func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
//
//	func TestSomething(t *testing.T) {
//		t.Parallel()
//		pool := testdb.New(t)
//		...
//	}
package testdb

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/pgcluster"
	"github.com/giftwell/giftwell/sql/migrations"
)

// EnvURL names the variable that points the tests at an existing server
// instead of a private cluster. Its role must be able to create databases.
const EnvURL = "TEST_DATABASE_URL"

// EnvTemplate names the variable that, beside EnvURL, names a migrated
// template database already on that server (made by Prepare, as `make test`
// does through testpg), so that test binaries neither migrate nor drop one.
const EnvTemplate = "TEST_DATABASE_TEMPLATE"

// EnvTemplateVersion names the variable that, beside EnvTemplate, says
// which migration the shared template was migrated to.
const EnvTemplateVersion = "TEST_DATABASE_TEMPLATE_VERSION"

// server is the per-binary state: a maintenance connection and the template.
type server struct {
	baseDSN  string
	admin    *pgxpool.Pool
	template string
	// shared: the template belongs to whoever set EnvTemplate; close leaves it.
	shared  bool
	cluster *pgcluster.Cluster // nil with TEST_DATABASE_URL
	dir     string             // the private cluster's directory
}

var (
	once    sync.Once
	srv     *server
	initErr error
)

// Main runs the tests and then stops the private cluster (or drops the
// template from the TEST_DATABASE_URL server). Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
//
// Without Main, New still works; the private cluster is then stopped and
// removed by a watchdog after the test binary exits.
func Main(m *testing.M) int {
	code := m.Run()
	if srv != nil {
		if err := srv.close(); err != nil {
			fmt.Fprintln(os.Stderr, "testdb:", err)
		}
	}
	return code
}

// New creates a database for this test from the migrated template and
// returns a pool on it. The pool is closed and the database dropped when the
// test ends. Safe for parallel tests.
func New(t testing.TB) *pgxpool.Pool {
	t.Helper()
	dsn := NewDSN(t)
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatalf("testdb: connect: %v", err)
	}
	// Cleanups run last-in first-out: the pool closes before the drop.
	t.Cleanup(pool.Close)
	return pool
}

// NewDSN is New for callers that connect by themselves (a subprocess, say):
// it creates the test's database and returns its connection string. The
// database is dropped when the test ends.
func NewDSN(t testing.TB) string {
	t.Helper()
	return create(t, true)
}

// NewEmptyDSN creates a database with no migrations applied (for testing the
// migrations themselves) and returns its connection string. It is dropped
// when the test ends.
func NewEmptyDSN(t testing.TB) string {
	t.Helper()
	return create(t, false)
}

// create makes a database, from the template or empty, dropped at clean-up.
func create(t testing.TB, fromTemplate bool) string {
	t.Helper()
	once.Do(func() { srv, initErr = start() })
	if initErr != nil {
		t.Fatalf("testdb: %v", initErr)
	}
	ctx := context.Background()
	name := "gw_test_" + core.RandomHex(8)
	stmt := "CREATE DATABASE " + name
	if fromTemplate {
		stmt += " TEMPLATE " + srv.template
	}
	if _, err := srv.admin.Exec(ctx, stmt); err != nil {
		t.Fatalf("testdb: create database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := srv.admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("testdb: drop database %s: %v", name, err)
		}
	})
	dsn, err := withDatabase(srv.baseDSN, name)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return dsn
}

// start brings up the server and the template.
func start() (*server, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s := &server{baseDSN: os.Getenv(EnvURL), template: "gw_template_" + core.RandomHex(6)}
	if t := os.Getenv(EnvTemplate); t != "" && s.baseDSN != "" {
		s.template, s.shared = t, true
	}
	if s.baseDSN == "" {
		if err := s.startCluster(ctx); err != nil {
			return nil, err
		}
	}
	cfg, err := pgxpool.ParseConfig(s.baseDSN)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", EnvURL, err)
	}
	cfg.MaxConns = 4
	if s.admin, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, err
	}
	if s.shared {
		// A template made by an older testpg lacks this binary's newest
		// migrations: make one of our own rather than test a stale schema.
		if fresh, err := templateIsCurrent(); err != nil || fresh {
			return s, err
		}
		s.template, s.shared = "gw_template_"+core.RandomHex(6), false
	}
	if err := s.makeTemplate(ctx); err != nil {
		_ = s.close()
		return nil, err
	}
	return s, nil
}

func (s *server) startCluster(ctx context.Context) error {
	dir, err := pgcluster.TempDir("gwtestpg")
	if err != nil {
		return err
	}
	c, err := pgcluster.Start(ctx, pgcluster.Options{
		DataDir: filepath.Join(dir, "data"), SocketDir: dir, LogFile: filepath.Join(dir, "server.log"), Ephemeral: true,
	})
	if err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	s.cluster, s.dir, s.baseDSN = c, dir, c.DSN("postgres")
	// Should the binary die before Main's clean-up, the cluster still goes.
	return c.StopAfterExit(dir)
}

// templateIsCurrent reports whether the shared template was migrated to
// this binary's newest migration, as its maker recorded in
// EnvTemplateVersion (a testpg too old to record it made a stale one).
func templateIsCurrent() (bool, error) {
	latest, err := migrations.Latest()
	if err != nil {
		return false, err
	}
	return os.Getenv(EnvTemplateVersion) == strconv.FormatInt(latest, 10), nil
}

// makeTemplate creates, migrates and seeds the template database.
func (s *server) makeTemplate(ctx context.Context) error {
	return makeTemplate(ctx, s.admin, s.baseDSN, s.template)
}

// makeTemplate creates, migrates and seeds the template database named
// template on the server of baseDSN, then closes it to connections so that
// CREATE DATABASE ... TEMPLATE never finds it busy.
func makeTemplate(ctx context.Context, admin *pgxpool.Pool, baseDSN, template string) error {
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+template); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	dsn, err := withDatabase(baseDSN, template)
	if err != nil {
		return err
	}
	if err := migrations.Up(ctx, dsn); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return err
	}
	err = seed(ctx, pool)
	pool.Close()
	if err != nil {
		return fmt.Errorf("seed catalog: %w", err)
	}
	_, err = admin.Exec(ctx, "ALTER DATABASE "+template+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
	return err
}

// dropTemplate drops a template made by makeTemplate.
func dropTemplate(ctx context.Context, admin *pgxpool.Pool, template string) error {
	_, _ = admin.Exec(ctx, "ALTER DATABASE "+template+" WITH IS_TEMPLATE false")
	_, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+template+" WITH (FORCE)")
	return err
}

// seed loads the embedded catalog into the template.
func seed(ctx context.Context, pool *pgxpool.Pool) error {
	return catalog.SeedCatalog(ctx, pool)
}

// close drops the template (on a shared server) or stops the private cluster.
func (s *server) close() error {
	ctx := context.Background()
	if s.cluster != nil {
		if s.admin != nil {
			s.admin.Close()
		}
		err := s.cluster.Stop(ctx)
		_ = os.RemoveAll(s.dir)
		return err
	}
	if s.admin == nil {
		return nil
	}
	defer s.admin.Close()
	if s.shared {
		return nil
	}
	return dropTemplate(ctx, s.admin, s.template)
}

// withDatabase returns dsn (a URL or keyword/value string) pointing at database.
func withDatabase(dsn, database string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("parse database url: %w", err)
		}
		u.Path = "/" + database
		u.RawPath = ""
		return u.String(), nil
	}
	if _, err := pgx.ParseConfig(dsn); err != nil {
		return "", fmt.Errorf("parse database url: %w", err)
	}
	return dsn + " dbname=" + database, nil
}
