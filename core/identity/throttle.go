package identity

import (
	"context"
	"strconv"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Sign-in throttling (see docs/decisions/): failed attempts are counted in
// PostgreSQL, so every instance of the service shares them.
const (
	// SignInThrottleWindow is the sliding window failures are counted in.
	SignInThrottleWindow = 15 * time.Minute
	// SignInFailuresPerEmail is how many failed sign-ins an email may have
	// in the window; the next attempt gets RATE_LIMIT.
	SignInFailuresPerEmail = 5
	// SignInFailuresPerAddress is how many failed sign-ins one client
	// address may have in the window, across all emails.
	SignInFailuresPerAddress = 20
)

// signInAttempt is a reserved attempt: a login_attempts row that counts as
// a failure unless the attempt succeeds.
type signInAttempt struct {
	id    int64
	email string
}

// reserveSignInAttempt records an attempt before the password is checked,
// then counts the attempts of the email and the address in the window up to
// this one. Reserving first makes concurrent guesses count against each
// other. Over a limit, the reservation is dropped and the caller gets
// RATE_LIMIT with the time until the oldest counted attempt leaves the window.
func (a *Service) reserveSignInAttempt(ctx context.Context, email, clientIP string) (signInAttempt, error) {
	now := a.Clock.Now()
	q := db.New(a.DB)
	id, err := q.LoginAttemptInsert(ctx, db.LoginAttemptInsertParams{Email: email, ClientIp: clientIP, AttemptedAt: now})
	if err != nil {
		return signInAttempt{}, core.Internal(err)
	}
	at := signInAttempt{id: id, email: email}
	c, err := q.LoginAttemptCount(ctx, db.LoginAttemptCountParams{Email: email, ID: id, Since: now.Add(-SignInThrottleWindow), ClientIp: clientIP})
	if err != nil {
		a.forgetSignInAttempt(ctx, at)
		return signInAttempt{}, core.Internal(err)
	}
	var wait time.Duration
	if c.EmailCount > SignInFailuresPerEmail {
		wait = max(wait, c.EmailOldest.Add(SignInThrottleWindow).Sub(now))
	}
	if clientIP != "" && c.IpCount > SignInFailuresPerAddress {
		wait = max(wait, c.IpOldest.Add(SignInThrottleWindow).Sub(now))
	}
	if c.EmailCount > SignInFailuresPerEmail || (clientIP != "" && c.IpCount > SignInFailuresPerAddress) {
		a.forgetSignInAttempt(ctx, at)
		ms := max(wait.Milliseconds(), 1000)
		return signInAttempt{}, &core.Error{Code: core.CodeRateLimit, RetryAfterMs: ms,
			Message: "too many failed sign-in attempts; wait " + roundMinutes(ms) + " and try again"}
	}
	return at, nil
}

// forgetSignInAttempt drops a reservation that must not count (the attempt
// was refused before the password was checked, or the database failed).
func (a *Service) forgetSignInAttempt(ctx context.Context, at signInAttempt) {
	if err := db.New(a.DB).LoginAttemptDelete(context.WithoutCancel(ctx), at.id); err != nil {
		a.Log.ErrorContext(ctx, "sign-in: forget attempt", "err", err)
	}
}

// signInSucceeded forgives the email's failures, this attempt included.
// The address's failures at other emails still count.
func (a *Service) signInSucceeded(ctx context.Context, email string) error {
	if err := db.New(a.DB).LoginAttemptDeleteByEmail(ctx, email); err != nil {
		return core.Internal(err)
	}
	return nil
}

// roundMinutes renders a wait in whole minutes (at least one).
func roundMinutes(ms int64) string {
	m := (ms + 59_999) / 60_000
	if m <= 1 {
		return "a minute"
	}
	return strconv.FormatInt(m, 10) + " minutes"
}

// PruneSignInRecords forgets what sign-in keeps only for a while: attempts
// older than the throttle window and sessions that ended more than
// SessionLifetime ago. Run it now and then (serve does, with email
// delivery). It returns the number of rows removed, or INTERNAL_ERROR.
func (a *Service) PruneSignInRecords(ctx context.Context) (int64, error) {
	now := a.Clock.Now()
	q := db.New(a.DB)
	n, err := q.LoginAttemptDeleteBefore(ctx, now.Add(-SignInThrottleWindow))
	if err != nil {
		return 0, core.Internal(err)
	}
	m, err := q.SessionDeleteEndedBefore(ctx, now.Add(-SessionLifetime))
	if err != nil {
		return n, core.Internal(err)
	}
	return n + m, nil
}
