package identity_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func signIn(env *apptest.Env, email, password, ip string) (identity.SignedIn, error) {
	return env.App.Identity.SignIn(context.Background(), identity.SignInParams{Email: email, Password: password, ClientIP: ip})
}

func TestSignInStartsASessionInTheOldestWorkspace(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	// The owner also joins a second, newer workspace as a member.
	env.Clock.Advance(time.Minute)
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	_, err := env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: other.WorkspaceID, Email: env.OwnerEmail, Password: apptest.Password, Role: core.RoleMember})
	require.NoError(t, err)

	s, err := signIn(env, "  "+strings.ToUpper(env.OwnerEmail)+" ", apptest.Password, "192.0.2.7")
	require.NoError(t, err)
	require.Equal(t, env.OwnerID, s.UserID)
	require.Equal(t, env.WorkspaceID, s.WorkspaceID)
	require.Equal(t, env.Clock.Now().Add(identity.SessionLifetime), s.ExpiresAt)
	require.Regexp(t, `^[0-9a-f]{64}$`, s.Token)

	p, err := env.App.Identity.AuthenticateSession(ctx, s.Token)
	require.NoError(t, err)
	require.Equal(t, core.Principal{
		WorkspaceID: env.WorkspaceID, UserID: env.OwnerID, Role: core.RoleOwner, Via: core.ViaSession,
		Mode: core.ModeTest, CredentialID: p.CredentialID, Names: p.Names,
	}, p)
	// The person's names, as a gift they prepare records them.
	require.NotNil(t, p.Names)
	require.Equal(t, env.OwnerEmail, p.Names.Email)
	require.NotEmpty(t, p.Names.Name)
	require.True(t, strings.HasPrefix(p.CredentialID, identity.PrefixSession), p.CredentialID)
	require.NotContains(t, p.CredentialID, s.Token)

	// Switching moves the session; the role is the one in the new workspace.
	require.NoError(t, env.App.Identity.SwitchWorkspace(ctx, s.Token, other.WorkspaceID))
	p, err = env.App.Identity.AuthenticateSession(ctx, s.Token)
	require.NoError(t, err)
	require.Equal(t, other.WorkspaceID, p.WorkspaceID)
	require.Equal(t, core.RoleMember, p.Role)

	// Not a member: refused, and the session stays where it was.
	third := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	apptest.RequireCode(t, env.App.Identity.SwitchWorkspace(ctx, s.Token, third.WorkspaceID), core.CodeNotFound)
	p, err = env.App.Identity.AuthenticateSession(ctx, s.Token)
	require.NoError(t, err)
	require.Equal(t, other.WorkspaceID, p.WorkspaceID)
	apptest.RequireCode(t, env.App.Identity.SwitchWorkspace(ctx, core.RandomHex(32), env.WorkspaceID), core.CodeAuthRequired)
}

func TestSignInWrongPasswordAndUnknownEmailAreAlike(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)

	_, wrong := signIn(env, env.OwnerEmail, "not the password", "192.0.2.1")
	_, unknown := signIn(env, apptest.UniqueEmail("nobody"), apptest.Password, "192.0.2.2")
	a := apptest.RequireCode(t, wrong, core.CodeAuthRequired)
	b := apptest.RequireCode(t, unknown, core.CodeAuthRequired)
	require.Equal(t, "the email or password is wrong", a.Message)
	require.Equal(t, a.Message, b.Message)
	require.Equal(t, a.URL, b.URL)
	require.Equal(t, env.SiteURL+"/login", a.URL)

	e := apptest.RequireCode(t, func() error { _, err := signIn(env, "", "x", ""); return err }(), core.CodeValidation)
	require.Equal(t, []string{"email"}, e.Fields)
	e = apptest.RequireCode(t, func() error { _, err := signIn(env, "owner", "x", ""); return err }(), core.CodeValidation)
	require.Equal(t, []string{"email"}, e.Fields)
	e = apptest.RequireCode(t, func() error { _, err := signIn(env, env.OwnerEmail, "", ""); return err }(), core.CodeValidation)
	require.Equal(t, []string{"password"}, e.Fields)
	e = apptest.RequireCode(t, func() error { _, err := signIn(env, env.OwnerEmail, strings.Repeat("p", 73), ""); return err }(), core.CodeValidation)
	require.Equal(t, []string{"password"}, e.Fields)
}

func TestSignInWithoutAWorkspace(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	person := env.AddPerson(t, core.RoleMember)
	require.NoError(t, env.App.Identity.RemoveMember(context.Background(), env.WorkspaceID, person.UserID))

	_, err := signIn(env, person.Email, apptest.Password, "")
	e := apptest.RequireCode(t, err, core.CodeAuthRequired)
	require.Contains(t, e.Message, "not a member of any workspace")
}

// Guesses at an email from one address lock only that address out of it:
// the right password from another address still signs in (an attacker who
// knows the owner's email cannot keep them out), and a success forgives
// the email's failures.
func TestSignInThrottlesPerEmailAtAnAddress(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	const attacker = "192.0.2.66"

	for range identity.SignInFailuresPerPair {
		_, err := signIn(env, env.OwnerEmail, "wrong password", attacker)
		apptest.RequireCode(t, err, core.CodeAuthRequired)
		env.Clock.Advance(time.Minute) // past the growing delays
	}
	// From there, even the right password waits until the first failure
	// leaves the window.
	_, err := signIn(env, env.OwnerEmail, apptest.Password, attacker)
	e := apptest.RequireCode(t, err, core.CodeRateLimit)
	require.Equal(t, 429, e.Status())
	require.Equal(t, (identity.SignInThrottleWindow - 5*time.Minute).Milliseconds(), e.RetryAfterMs)

	// Refused attempts do not extend the wait.
	env.Clock.Advance(time.Duration(e.RetryAfterMs)*time.Millisecond - time.Second)
	_, err = signIn(env, env.OwnerEmail, "wrong password", attacker)
	apptest.RequireCode(t, err, core.CodeRateLimit)

	// The owner, from a fresh address, is not refused for failures elsewhere.
	_, err = signIn(env, env.OwnerEmail, apptest.Password, "198.51.100.1")
	require.NoError(t, err)

	// Success forgave the email's failures: the attacker's address gets its
	// five guesses again, then waits again.
	for range identity.SignInFailuresPerPair {
		_, err := signIn(env, env.OwnerEmail, "wrong password", attacker)
		apptest.RequireCode(t, err, core.CodeAuthRequired)
		env.Clock.Advance(10 * time.Second)
	}
	_, err = signIn(env, env.OwnerEmail, "wrong password", attacker)
	apptest.RequireCode(t, err, core.CodeRateLimit)

	// Another person at the attacker's address is not affected.
	person := env.AddPerson(t, core.RoleMember)
	_, err = signIn(env, person.Email, apptest.Password, attacker)
	require.NoError(t, err)
}

// Failures at one address space the next attempts there out: none for the
// first two, then 2 and 4 seconds, before the pair's lock.
func TestSignInDelaysGrowAtAnAddress(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	const ip = "192.0.2.77"
	for range 2 {
		_, err := signIn(env, env.OwnerEmail, "wrong password", ip)
		apptest.RequireCode(t, err, core.CodeAuthRequired)
	}
	for _, delay := range []time.Duration{0, 2 * time.Second, 4 * time.Second} {
		if delay > 0 {
			_, err := signIn(env, env.OwnerEmail, "wrong password", ip)
			e := apptest.RequireCode(t, err, core.CodeRateLimit)
			require.Equal(t, delay.Milliseconds(), e.RetryAfterMs)
			require.Contains(t, e.Message, "wait "+strconv.Itoa(int(delay.Seconds()))+" seconds")
			env.Clock.Advance(delay)
		}
		_, err := signIn(env, env.OwnerEmail, "wrong password", ip)
		apptest.RequireCode(t, err, core.CodeAuthRequired)
	}
	// Five failures there: the pair waits for the window; elsewhere, no delay.
	_, err := signIn(env, env.OwnerEmail, "wrong password", ip)
	require.Greater(t, apptest.RequireCode(t, err, core.CodeRateLimit).RetryAfterMs, time.Minute.Milliseconds())
	_, err = signIn(env, env.OwnerEmail, apptest.Password, "192.0.2.78")
	require.NoError(t, err)
}

// Guessing one account from many addresses (each failing once) meets the
// email's ceiling: past SignInFailuresPerEmail failures every attempt at it,
// from anywhere, waits a growing delay after the previous one, at most
// SignInMaxDelay, and never a lock: the right password gets in once the
// delay has passed.
func TestSignInSlowsAnEmailGuessedFromEverywhere(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	addr := func(i int) string { return fmt.Sprintf("2001:db8::%x", i+1) }
	for i := range identity.SignInFailuresPerEmail + 1 {
		_, err := signIn(env, env.OwnerEmail, "wrong password", addr(i))
		apptest.RequireCode(t, err, core.CodeAuthRequired)
	}
	// 51 failures: the next attempt, from a fresh address, waits a second.
	_, err := signIn(env, env.OwnerEmail, apptest.Password, "198.51.100.7")
	e := apptest.RequireCode(t, err, core.CodeRateLimit)
	require.Equal(t, time.Second.Milliseconds(), e.RetryAfterMs)

	// A long guessing run from everywhere: the delay grows to its bound.
	longest := time.Duration(0)
	for i := identity.SignInFailuresPerEmail + 1; i < identity.SignInFailuresPerEmail+120; i++ {
		_, err := signIn(env, env.OwnerEmail, "wrong password", addr(i))
		if core.ErrorCode(err) == core.CodeRateLimit {
			d := time.Duration(core.AsError(err).RetryAfterMs) * time.Millisecond
			longest = max(longest, d)
			env.Clock.Advance(d)
			_, err = signIn(env, env.OwnerEmail, "wrong password", addr(i))
		}
		apptest.RequireCode(t, err, core.CodeAuthRequired)
	}
	require.Equal(t, identity.SignInMaxDelay, longest, "slowed, never locked")

	env.Clock.Advance(identity.SignInMaxDelay)
	_, err = signIn(env, env.OwnerEmail, apptest.Password, "198.51.100.7")
	require.NoError(t, err)
}

func TestSignInThrottlesPerAddress(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	const ip = "203.0.113.9"

	// Spraying one password over many emails from one address.
	for range identity.SignInFailuresPerAddress {
		_, err := signIn(env, apptest.UniqueEmail("guess"), "Summer2026!", ip)
		apptest.RequireCode(t, err, core.CodeAuthRequired)
	}
	_, err := signIn(env, env.OwnerEmail, apptest.Password, ip)
	e := apptest.RequireCode(t, err, core.CodeRateLimit)
	require.Equal(t, identity.SignInThrottleWindow.Milliseconds(), e.RetryAfterMs)

	// The same person from another address gets in.
	_, err = signIn(env, env.OwnerEmail, apptest.Password, "203.0.113.10")
	require.NoError(t, err)

	env.Clock.Advance(identity.SignInThrottleWindow)
	_, err = signIn(env, env.OwnerEmail, apptest.Password, ip)
	require.NoError(t, err)
}

func TestSignInCountsConcurrentGuesses(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	const n = 12
	errs := make(chan error, n)
	for range n {
		go func() { _, err := signIn(env, env.OwnerEmail, "wrong password", ""); errs <- err }()
	}
	limited := 0
	for range n {
		if core.ErrorCode(<-errs) == core.CodeRateLimit {
			limited++
		}
	}
	require.GreaterOrEqual(t, limited, n-identity.SignInFailuresPerPair, "at most %d guesses are checked", identity.SignInFailuresPerPair)
}

func TestSessionEndsWhenItExpiresOrSignsOut(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()

	token, _ := env.SignIn(t, env.OwnerEmail)
	env.Clock.Advance(identity.SessionLifetime - time.Second)
	_, err := env.App.Identity.AuthenticateSession(ctx, token)
	require.NoError(t, err)
	env.Clock.Advance(time.Second)
	_, err = env.App.Identity.AuthenticateSession(ctx, token)
	apptest.RequireCode(t, err, core.CodeAuthRequired)

	token, _ = env.SignIn(t, env.OwnerEmail)
	other, _ := env.SignIn(t, env.OwnerEmail)
	require.NoError(t, env.App.Identity.SignOut(ctx, token))
	_, err = env.App.Identity.AuthenticateSession(ctx, token)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	require.NoError(t, env.App.Identity.SignOut(ctx, token), "signing out twice is fine")
	require.NoError(t, env.App.Identity.SignOut(ctx, "garbage"))
	_, err = env.App.Identity.AuthenticateSession(ctx, other)
	require.NoError(t, err, "other sessions of the person go on")
}

func TestAuthenticateSessionRejectsMalformedTokensWithoutTheDatabase(t *testing.T) {
	t.Parallel()
	app := giftwell.New(nil, core.Config{SiteURL: "http://giftwell.test"}, nil, nil)
	for _, token := range []string{"", "abc", strings.Repeat("A", 64), strings.Repeat("g", 64), strings.Repeat("a", 63), strings.Repeat("a", 65), "gwk_" + strings.Repeat("a", 64)} {
		_, err := app.Identity.AuthenticateSession(context.Background(), token)
		e := apptest.RequireCode(t, err, core.CodeAuthRequired)
		require.Equal(t, "http://giftwell.test/login", e.URL)
	}
}

func TestRemovedMemberLosesSessionsAndKeys(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	person := env.AddPerson(t, core.RoleMember)
	token, p := env.SignIn(t, person.Email)
	_, err := env.App.Connect.Authenticate(ctx, person.Key)
	require.NoError(t, err)
	created, err := env.App.Identity.CreateAPIKeyFor(ctx, p, "laptop")
	require.NoError(t, err)

	_, owner := env.SignIn(t, env.OwnerEmail)
	require.NoError(t, env.App.Identity.RemoveTeamMember(ctx, owner, person.UserID))

	_, err = env.App.Identity.AuthenticateSession(ctx, token)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	for _, key := range []string{person.Key, created.Key} {
		_, err = env.App.Connect.Authenticate(ctx, key)
		apptest.RequireCode(t, err, core.CodeAuthRequired)
	}
	// Rejoining does not bring the old session or keys back.
	_, err = env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: env.WorkspaceID, Email: person.Email, Password: apptest.Password, Role: core.RoleMember})
	require.NoError(t, err)
	_, err = env.App.Identity.AuthenticateSession(ctx, token)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	_, err = env.App.Connect.Authenticate(ctx, person.Key)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}

func TestPruneSignInRecords(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, err := signIn(env, apptest.UniqueEmail("nobody"), "wrong password", "")
	apptest.RequireCode(t, err, core.CodeAuthRequired)
	token, _ := env.SignIn(t, env.OwnerEmail)

	n, err := env.App.Identity.PruneSignInRecords(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	env.Clock.Advance(2*identity.SessionLifetime + time.Second)
	n, err = env.App.Identity.PruneSignInRecords(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 2, n, "the old failure and the long-expired session")
	_, err = env.App.Identity.AuthenticateSession(ctx, token)
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}
