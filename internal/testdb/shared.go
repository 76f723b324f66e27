package testdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/pgcluster"
	"github.com/giftwell/giftwell/sql/migrations"
)

// Shared is one PostgreSQL server with a migrated template, made once for a
// whole test run and handed to every test binary through its Env (EnvURL and
// EnvTemplate). `make test` makes it through the testpg command, so that the
// run starts one server instead of one per test binary.
//
//	s, err := testdb.StartShared(ctx)
//	if err != nil {
//		return err
//	}
//	defer s.Close(context.Background())
//	cmd.Env = append(os.Environ(), s.Env()...)
type Shared struct {
	baseDSN  string
	template string
	version  int64 // the migration the template was migrated to
	admin    *pgxpool.Pool
	cluster  *pgcluster.Cluster // nil when EnvURL named the server
	dir      string
}

// StartShared starts a throwaway private cluster (or, when EnvURL is set,
// uses that server) and makes a migrated, seeded template on it.
func StartShared(ctx context.Context) (*Shared, error) {
	s := &Shared{baseDSN: os.Getenv(EnvURL), template: "gw_shared_template_" + core.RandomHex(6)}
	if s.baseDSN == "" {
		dir, err := pgcluster.TempDir("gwtestpg")
		if err != nil {
			return nil, err
		}
		c, err := pgcluster.Start(ctx, pgcluster.Options{
			DataDir: filepath.Join(dir, "data"), SocketDir: dir, LogFile: filepath.Join(dir, "server.log"),
			Ephemeral: true, MaxConnections: sharedMaxConnections,
		})
		if err != nil {
			_ = os.RemoveAll(dir)
			return nil, err
		}
		s.cluster, s.dir, s.baseDSN = c, dir, c.DSN("postgres")
		// Should this process die before Close, the cluster still goes.
		if err := c.StopAfterExit(dir); err != nil {
			_ = s.Close(ctx)
			return nil, err
		}
	}
	cfg, err := pgxpool.ParseConfig(s.baseDSN)
	if err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("parse %s: %w", EnvURL, err)
	}
	cfg.MaxConns = 2
	if s.admin, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		_ = s.Close(ctx)
		return nil, err
	}
	if err := makeTemplate(ctx, s.admin, s.baseDSN, s.template); err != nil {
		_ = s.Close(ctx)
		return nil, err
	}
	if s.version, err = migrations.Latest(); err != nil {
		_ = s.Close(ctx)
		return nil, err
	}
	return s, nil
}

// sharedMaxConnections is the shared cluster's max_connections: test
// binaries run side by side on it, each with parallel tests and pools.
const sharedMaxConnections = 300

// Env is the environment that points a test binary at the shared server
// and template: EnvURL, EnvTemplate and EnvTemplateVersion.
func (s *Shared) Env() []string {
	return []string{EnvURL + "=" + s.baseDSN, EnvTemplate + "=" + s.template, EnvTemplateVersion + "=" + strconv.FormatInt(s.version, 10)}
}

// Close drops the template and stops the private cluster, if there is one.
func (s *Shared) Close(ctx context.Context) error {
	var err error
	if s.admin != nil {
		if s.cluster == nil {
			err = dropTemplate(ctx, s.admin, s.template)
		}
		s.admin.Close()
	}
	if s.cluster != nil {
		err = s.cluster.Stop(ctx)
		_ = os.RemoveAll(s.dir)
	}
	return err
}
