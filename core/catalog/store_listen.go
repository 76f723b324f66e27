package catalog

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/sql/db"
)

// listenRetry is how long Listen waits before listening again after its
// connection failed.
const listenRetry = time.Second

// Listen keeps the store in step with the database across instances: in
// the background, on a connection of its own (outside the pool), it LISTENs on
// catalog_changed (notified whenever the catalog's version changes, by any
// process) and refreshes the store on every notification, so every
// instance serves a new catalog at once instead of after CatalogMaxAge.
// After a lost connection it listens again and refreshes, since a change
// may have been missed. Close stops it. Call it once; a closed store
// ignores it.
func (s *Store) Listen() {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.closed || s.db == nil {
		return
	}
	s.background.Go(func() {
		for s.life.Err() == nil {
			_ = s.listenOnce(s.life)
			select {
			case <-s.life.Done():
			case <-time.After(listenRetry):
			}
		}
	})
}

// listenOnce listens until ctx ends or the connection fails.
func (s *Store) listenOnce(ctx context.Context) error {
	// A connection of its own, outside the pool: it takes none of the
	// pool's connections from requests.
	conn, err := pgx.ConnectConfig(ctx, s.db.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if err := db.New(conn).CatalogListen(ctx); err != nil {
		return err
	}
	s.listening.Store(true)
	defer s.listening.Store(false)
	// Anything notified before LISTEN took effect is caught here.
	s.refreshNow(ctx)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		s.refreshNow(ctx)
	}
}

// refreshNow refreshes the store within catalogRefreshTimeout; a failed
// refresh keeps the current copy (the next notification or read retries).
func (s *Store) refreshNow(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, catalogRefreshTimeout)
	defer cancel()
	_ = s.Refresh(ctx)
}

// Listening reports whether Listen is subscribed now (for tests).
func (s *Store) Listening() bool { return s.listening.Load() }
