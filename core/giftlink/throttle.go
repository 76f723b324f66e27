package giftlink

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Guesses at /g/ (docs/decisions/0068-recipient-page.md): every unknown or
// malformed token a client address sends is a miss, counted in PostgreSQL
// in fixed windows so every instance shares them.
const (
	// GuessWindow is the fixed window misses are counted in.
	GuessWindow = 10 * time.Minute
	// GuessesPerWindow is how many misses one client address may have in a
	// window; after them every request of that address at /g/, a real
	// token's too, gets RATE_LIMIT until the window ends.
	GuessesPerWindow = 20
)

// guessWindowAt is the start of the window now falls in.
func guessWindowAt(now time.Time) time.Time { return now.UTC().Truncate(GuessWindow) }

// rateLimited is RATE_LIMIT until the window that started at windowAt ends.
func rateLimited(now, windowAt time.Time) error {
	ms := max(windowAt.Add(GuessWindow).Sub(now).Milliseconds(), 1000)
	return &core.Error{Code: core.CodeRateLimit, RetryAfterMs: ms,
		Message: "too many gift links that do not exist were opened from your network; wait and try again"}
}

// admitGuess refuses a request of clientIP at /g/ with RATE_LIMIT while
// the address is over GuessesPerWindow misses in the current window. The
// count runs on the pool, outside any transaction.
func (s *Service) admitGuess(ctx context.Context, clientIP string) error {
	now := s.Clock.Now()
	at := guessWindowAt(now)
	n, err := db.New(s.DB).GiftLinkGuessMisses(ctx, db.GiftLinkGuessMissesParams{ClientIp: clientIP, WindowAt: at})
	if err != nil {
		return core.Internal(err)
	}
	if n >= GuessesPerWindow {
		return rateLimited(now, at)
	}
	return nil
}

// countGuess counts a miss of clientIP (an unknown or malformed token) on
// the pool, so that it stays counted whatever the request's transaction
// does. It returns RATE_LIMIT when the miss is over GuessesPerWindow
// (concurrent misses count against each other), or nil.
func (s *Service) countGuess(ctx context.Context, clientIP string) error {
	now := s.Clock.Now()
	at := guessWindowAt(now)
	n, err := db.New(s.DB).GiftLinkGuessCount(context.WithoutCancel(ctx), db.GiftLinkGuessCountParams{ClientIp: clientIP, WindowAt: at})
	if err != nil {
		return core.Internal(err)
	}
	if n > GuessesPerWindow {
		return rateLimited(now, at)
	}
	return nil
}

// PruneGuesses forgets the misses of windows that ended: the throttle reads
// only the current one. Run it now and then (serve does, hourly, with the
// sign-in records). It returns the number of windows removed, or
// INTERNAL_ERROR.
func (s *Service) PruneGuesses(ctx context.Context) (int64, error) {
	n, err := db.New(s.DB).GiftLinkGuessDeleteBefore(ctx, guessWindowAt(s.Clock.Now()))
	if err != nil {
		return 0, core.Internal(err)
	}
	return n, nil
}
