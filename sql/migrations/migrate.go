// Package migrations holds Giftwell's numbered goose migrations, which are
// also sqlc's schema, and applies them together with River's own migrations.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// FS is the embedded migration files, numbered 00001_... in apply order.
//
//go:embed *.sql
var FS embed.FS

// lockKey is the session advisory lock that serialises Up across processes.
const lockKey int64 = 7263513940235670001

// Up applies every pending Giftwell migration and River's migrations to the
// database at dsn, in one call. It holds a PostgreSQL advisory lock while it
// works, so several processes may call it at once: the first migrates, the
// others wait and then find nothing to do.
//
//	if err := migrations.Up(ctx, os.Getenv("DATABASE_URL")); err != nil {
//		return err
//	}
func Up(ctx context.Context, dsn string) error {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("migrate: parse database url: %w", err)
	}
	// One connection holds the lock; goose and River use the others.
	cfg.MinConns = 0
	if cfg.MaxConns < 3 {
		cfg.MaxConns = 3
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("migrate: connect: %w", err)
	}
	defer pool.Close()

	lock, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: connect: %w", err)
	}
	defer lock.Release()
	if _, err := lock.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return fmt.Errorf("migrate: take lock: %w", err)
	}
	defer func() {
		// A fresh context: the caller's may be cancelled, and the lock must go.
		_, _ = lock.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockKey)
	}()

	if err := gooseUp(ctx, pool); err != nil {
		return err
	}
	return riverUp(ctx, pool)
}

func gooseUp(ctx context.Context, pool *pgxpool.Pool) error {
	db := stdlib.OpenDBFromPool(pool)
	defer func(db *sql.DB) { _ = db.Close() }(db)
	p, err := goose.NewProvider(goose.DialectPostgres, db, FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: giftwell: %w", err)
	}
	return nil
}

func riverUp(ctx context.Context, pool *pgxpool.Pool) error {
	m, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("migrate: river: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate: river: %w", err)
	}
	return nil
}

// Latest is the version of the newest embedded migration (00009_... is 9),
// the goose version a database migrated by Up ends at.
func Latest() (int64, error) {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if !ok || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("migrate: %s: %w", e.Name(), err)
		}
		latest = max(latest, v)
	}
	return latest, nil
}
