package identity

import (
	"context"
	"strconv"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Sign-in throttling (docs/decisions/0009-sign-in-sessions-and-throttling.md),
// after OWASP's authentication guidance: failed attempts are counted in
// PostgreSQL, so every instance of the service shares them, and counted per
// email at one client address (the pair), per address, and per email from
// anywhere. Guesses from one place lock only that place out: the right
// password from another address is never refused for failures elsewhere,
// unless so many come from everywhere that every attempt at the email is
// slowed, never locked.
const (
	// SignInThrottleWindow is the sliding window failures are counted in.
	SignInThrottleWindow = 15 * time.Minute
	// SignInFailuresPerPair is how many failed sign-ins an email may have
	// at one client address in the window; the next attempt from there
	// gets RATE_LIMIT until the oldest leaves the window. From the third
	// failure on, each attempt from there waits a growing delay
	// (pairDelay) first.
	SignInFailuresPerPair = 5
	// SignInFailuresPerAddress is how many failed sign-ins one client
	// address may have in the window, across all emails.
	SignInFailuresPerAddress = 20
	// SignInFailuresPerEmail is the ceiling of an email's failed sign-ins
	// from everywhere in the window past which every attempt at it is
	// slowed (emailDelay): the limit on guessing one account from many
	// addresses.
	SignInFailuresPerEmail = 50
	// SignInMaxDelay bounds every delay but the pair's lock: slowed, never
	// locked for good.
	SignInMaxDelay = time.Minute
)

// signInAttempt is a reserved attempt: a login_attempts row that counts as
// a failure unless the attempt succeeds.
type signInAttempt struct {
	id    int64
	email string
}

// pairDelay is how long an attempt at an email from one address waits
// after the previous one there, once failures have been made there: none
// for the first two, then 2 and 4 seconds; from SignInFailuresPerPair on
// the pair waits for the window instead.
func pairDelay(failures int64) time.Duration {
	if failures < 3 {
		return 0
	}
	return min(time.Duration(1<<(failures-2))*time.Second, SignInMaxDelay)
}

// emailDelay is how long any attempt at an email waits after the email's
// previous attempt once its failures from everywhere pass
// SignInFailuresPerEmail: a second, doubling every ten failures more, at
// most SignInMaxDelay.
func emailDelay(failures int64) time.Duration {
	if failures <= SignInFailuresPerEmail {
		return 0
	}
	return min(time.Second<<min((failures-SignInFailuresPerEmail-1)/10, 6), SignInMaxDelay)
}

// reserveSignInAttempt records an attempt before the password is checked,
// then counts the attempts of the pair, the address and the email in the
// window up to this one. Reserving first makes concurrent guesses count
// against each other. When a limit or a delay holds, the reservation is
// dropped (a refused attempt neither counts nor extends a wait) and the
// caller gets RATE_LIMIT with the time to wait.
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
	// The counts include this attempt; the failures made before it are one less.
	var wait time.Duration
	if c.PairCount > SignInFailuresPerPair {
		wait = max(wait, c.PairOldest.Add(SignInThrottleWindow).Sub(now))
	} else if d := pairDelay(c.PairCount - 1); d > 0 {
		wait = max(wait, c.PairLatest.Add(d).Sub(now))
	}
	if clientIP != "" && c.IpCount > SignInFailuresPerAddress {
		wait = max(wait, c.IpOldest.Add(SignInThrottleWindow).Sub(now))
	}
	if d := emailDelay(c.EmailCount - 1); d > 0 {
		wait = max(wait, c.EmailLatest.Add(d).Sub(now))
	}
	if wait > 0 {
		a.forgetSignInAttempt(ctx, at)
		ms := max(wait.Milliseconds(), 1000)
		return signInAttempt{}, &core.Error{Code: core.CodeRateLimit, RetryAfterMs: ms,
			Message: "too many failed sign-in attempts; wait " + waitText(ms) + " and try again"}
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

// waitText renders a wait for a person: whole seconds under a minute,
// whole minutes from there.
func waitText(ms int64) string {
	switch s := (ms + 999) / 1000; {
	case s <= 1:
		return "a second"
	case s < 60:
		return strconv.FormatInt(s, 10) + " seconds"
	}
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
