package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell/internal/pgcluster"
	"github.com/giftwell/giftwell/sql/migrations"
)

// connectTimeout bounds one connection attempt to the database when
// DATABASE_URL sets none.
const connectTimeout = 5 * time.Second

// database is a migrated PostgreSQL database, from DATABASE_URL or the
// private cluster under the data directory.
type database struct {
	DSN  string
	Pool *pgxpool.Pool
	// Cluster is the private cluster; nil with DATABASE_URL.
	Cluster *pgcluster.Cluster
	// MovedTo is where the private cluster's files live when the postgres
	// user cannot reach the data directory (root in a private directory);
	// empty when they are under it.
	MovedTo string
}

// dataDir is GIFTWELL_DATA_DIR, default ./.giftwell.
func dataDir() string { return env("GIFTWELL_DATA_DIR", ".giftwell") }

// openDatabase connects to DATABASE_URL, or starts the private cluster under
// dir (attaching to it when a `giftwell serve` already runs it; its files go
// where the postgres user can reach them when dir is private to root, see
// MovedTo), and applies the migrations. Close undoes it.
func openDatabase(ctx context.Context, dir string) (*database, error) {
	d := &database{DSN: os.Getenv("DATABASE_URL")}
	if d.DSN == "" {
		pgDir, moved, err := pgcluster.ReachableDataDir(filepath.Join(dir, "pg"))
		if err != nil {
			return nil, fmt.Errorf("private PostgreSQL under %s: %w", dir, err)
		}
		logFile := filepath.Join(dir, "postgres.log")
		if moved {
			d.MovedTo, logFile = filepath.Dir(pgDir), filepath.Join(filepath.Dir(pgDir), "postgres.log")
		}
		c, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: pgDir, LogFile: logFile})
		if err != nil {
			return nil, fmt.Errorf("private PostgreSQL under %s: %w", dir, err)
		}
		d.Cluster, d.DSN = c, c.DSN("postgres")
	}
	if err := migrations.Up(ctx, d.DSN); err != nil {
		d.Close()
		return nil, err
	}
	pcfg, err := pgxpool.ParseConfig(d.DSN)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	if pcfg.ConnConfig.ConnectTimeout == 0 {
		// An unreachable database answers a request 503 within this, never
		// a hang (DATABASE_URL's connect_timeout overrides it).
		pcfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("connect: %w", err)
	}
	d.Pool = pool
	return d, nil
}

// Close closes the pool and stops the private cluster if this process
// started it.
func (d *database) Close() {
	if d.Pool != nil {
		d.Pool.Close()
	}
	if d.Cluster != nil {
		if err := d.Cluster.Stop(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "giftwell:", err)
		}
	}
}
