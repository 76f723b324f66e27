package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// SessionCookieName is the cookie that carries a signed-in person's session
// token, in the web app and on REST.
const SessionCookieName = "giftwell_session"

// SessionLifetime is how long a sign-in session lasts. It is fixed from
// sign-in (not sliding): the cookie's expiry equals SignedIn.ExpiresAt, and
// a person signs in again after it.
const SessionLifetime = 14 * 24 * time.Hour

// PrefixSession starts the ID of a sign-in session (the principal's
// CredentialID); the token in the cookie is a different, secret value.
const PrefixSession = "ses_"

// sessionTokenBytes is the number of random bytes in a session or
// invitation token, written as twice as many lowercase hex characters.
const sessionTokenBytes = 32

// wrongCredentials is the one message for an unknown email and a wrong
// password, so that sign-in does not tell which accounts exist.
const wrongCredentials = "the email or password is wrong"

// SignInParams is what a person types to sign in, and where from.
type SignInParams struct {
	Email    string
	Password string
	// ClientIP is the request's client address, for throttling; "" skips
	// the per-address limit.
	ClientIP string
}

// SignedIn is a new sign-in session.
type SignedIn struct {
	// Token is the secret session token for the cookie; only its SHA-256 is stored.
	Token string
	// ExpiresAt is when the session ends (SessionLifetime after sign-in).
	ExpiresAt time.Time
	// UserID is the person; WorkspaceID the workspace the session starts in.
	UserID      string
	WorkspaceID string
}

// SignIn checks a person's email and password and starts a session in their
// first workspace (the oldest membership).
//
// It returns AUTH_REQUIRED "the email or password is wrong" for an unknown
// email and for a wrong password alike (both cost one bcrypt comparison), and
// AUTH_REQUIRED when the person belongs to no workspace; VALIDATION_ERROR
// naming email (empty or not an address) and password (empty or over 72
// bytes), every one at fault at once; RATE_LIMIT with RetryAfterMs after
// too many failed attempts for the email (SignInFailuresPerEmail) or the
// client address (SignInFailuresPerAddress) within SignInThrottleWindow,
// even with the right password; or INTERNAL_ERROR.
func (a *Service) SignIn(ctx context.Context, p SignInParams) (SignedIn, error) {
	email := core.NormalizeEmail(p.Email)
	if err := checkSignInInput(email, p.Password); err != nil {
		return SignedIn{}, err
	}
	attempt, err := a.reserveSignInAttempt(ctx, email, p.ClientIP)
	if err != nil {
		return SignedIn{}, err
	}
	user, err := db.New(a.DB).UserSignInLookup(ctx, email)
	if core.IsNoRows(err) {
		comparePassword(dummyPasswordHash(), p.Password)
		return SignedIn{}, a.AuthRequired(wrongCredentials)
	}
	if err != nil {
		a.forgetSignInAttempt(ctx, attempt)
		return SignedIn{}, core.Internal(err)
	}
	if !comparePassword([]byte(user.PasswordHash), p.Password) {
		return SignedIn{}, a.AuthRequired(wrongCredentials)
	}
	if err := a.signInSucceeded(ctx, email); err != nil {
		return SignedIn{}, err
	}
	if user.WorkspaceID == "" {
		return SignedIn{}, a.AuthRequired("this account is not a member of any workspace; ask a workspace owner or admin for an invitation")
	}
	var out SignedIn
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		out, err = a.startSession(ctx, tx, user.ID, user.WorkspaceID)
		return err
	})
	if err != nil {
		return SignedIn{}, core.AsCoreError(err)
	}
	return out, nil
}

// checkSignInInput refuses input that cannot be credentials at all (no
// account has such an email or password), naming every field at fault at
// once (core.Problems). It never tells whether an account exists.
func checkSignInInput(email, password string) error {
	var pr core.Problems
	if problem := core.EmailProblem(email); problem != "" {
		pr.Add("email", "%s", problem)
	}
	switch {
	case password == "":
		pr.Add("password", "is required")
	case len(password) > MaxPasswordBytes:
		pr.Add("password", "must be at most %d bytes", MaxPasswordBytes)
	}
	return pr.Err()
}

// startSession inserts a session for the person in the workspace and
// returns its token.
func (a *Service) startSession(ctx context.Context, tx pgx.Tx, userID, workspaceID string) (SignedIn, error) {
	token := core.RandomHex(sessionTokenBytes)
	now := a.Clock.Now()
	out := SignedIn{Token: token, ExpiresAt: now.Add(SessionLifetime), UserID: userID, WorkspaceID: workspaceID}
	if err := db.New(tx).SessionInsert(ctx, db.SessionInsertParams{
		ID: core.NewID(PrefixSession), Hash: hashToken(token), UserID: userID, WorkspaceID: workspaceID,
		CreatedAt: now, ExpiresAt: out.ExpiresAt,
	}); err != nil {
		return SignedIn{}, core.Internal(err)
	}
	return out, nil
}

// AuthenticateSession resolves a session token (the cookie's value) to the
// principal of the signed-in person in the session's current workspace, with
// their current role, in one database round trip. Via is ViaSession and
// CredentialID the session's ID.
//
// It returns AUTH_REQUIRED for a malformed token (without touching the
// database), and for an unknown, expired or revoked session or one whose
// person is no longer a member of its workspace; RATE_LIMIT when the
// request's rate charge (core.WithRateCharge), counted in the same
// statement, takes the workspace over its limit; or INTERNAL_ERROR.
func (a *Service) AuthenticateSession(ctx context.Context, token string) (core.Principal, error) {
	if !isTokenFormat(token) {
		return core.Principal{}, a.AuthRequired("the sign-in session is not valid; sign in again")
	}
	bucket, units, limit, at := a.RateChargeArgs(ctx)
	row, err := db.New(a.DB).SessionAuthenticate(ctx, db.SessionAuthenticateParams{
		Hash: hashToken(token), Now: a.Clock.Now(),
		RateBucket: bucket, RateUnits: units, RateLimit: limit, RateAt: at,
	})
	if core.IsNoRows(err) {
		return core.Principal{}, a.AuthRequired("the sign-in session has ended; sign in again")
	}
	if err != nil {
		return core.Principal{}, core.Internal(err)
	}
	if err := core.RateCounted(ctx, row.RateAdmitted, row.RateUsed, row.RateResetMs); err != nil {
		return core.Principal{}, err
	}
	return core.Principal{
		WorkspaceID:  row.WorkspaceID,
		UserID:       row.UserID,
		Role:         core.Role(row.Role),
		Via:          core.ViaSession,
		Mode:         core.Mode(row.Mode),
		IsDemo:       row.IsDemo,
		CredentialID: row.ID,
		Names:        &core.CredentialNames{Name: row.Name, Email: row.Email},
	}, nil
}

// SignOut ends the session with token. Signing out an unknown, ended or
// malformed session succeeds and changes nothing. It returns INTERNAL_ERROR
// when the database fails.
func (a *Service) SignOut(ctx context.Context, token string) error {
	if !isTokenFormat(token) {
		return nil
	}
	if _, err := db.New(a.DB).SessionRevokeByHash(ctx, db.SessionRevokeByHashParams{Now: a.Clock.Now(), Hash: hashToken(token)}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// SwitchWorkspace moves the session with token to another workspace of its
// person; later requests act there with the person's role in it. It returns
// AUTH_REQUIRED when the session is not live, NOT_FOUND when the person is
// not a member of workspaceID, or INTERNAL_ERROR.
func (a *Service) SwitchWorkspace(ctx context.Context, token, workspaceID string) error {
	if !isTokenFormat(token) {
		return a.AuthRequired("the sign-in session is not valid; sign in again")
	}
	return core.AsCoreError(pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		s, err := q.SessionLockLive(ctx, db.SessionLockLiveParams{Hash: hashToken(token), Now: a.Clock.Now()})
		if core.IsNoRows(err) {
			return a.AuthRequired("the sign-in session has ended; sign in again")
		}
		if err != nil {
			return core.Internal(err)
		}
		member, err := q.MembershipExists(ctx, db.MembershipExistsParams{WorkspaceID: workspaceID, UserID: s.UserID})
		if err != nil {
			return core.Internal(err)
		}
		if !member {
			return core.Errorf(core.CodeNotFound, "workspace %s is not one of yours", workspaceID)
		}
		if err := q.SessionSetWorkspace(ctx, db.SessionSetWorkspaceParams{WorkspaceID: workspaceID, ID: s.ID}); err != nil {
			return core.Internal(err)
		}
		return nil
	}))
}

// hashToken is the stored form of a session or invitation token: its
// SHA-256. Tokens carry 256 random bits, so a fast unsalted hash is enough.
func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// isTokenFormat reports whether s is 64 lowercase hex characters.
func isTokenFormat(s string) bool {
	if len(s) != 2*sessionTokenBytes || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// comparePassword reports whether password matches the bcrypt hash.
func comparePassword(hash []byte, password string) bool {
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
}

// hashPassword is the stored form of a password.
func hashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), int(passwordCost.Load()))
	if err != nil {
		return "", core.Internal(err)
	}
	return string(h), nil
}

var dummyHashes sync.Map // bcrypt cost -> []byte

// dummyPasswordHash is a bcrypt hash at the current cost that no password
// matches; comparing against it makes an unknown email cost as much time as
// a wrong password.
func dummyPasswordHash() []byte {
	cost := int(passwordCost.Load())
	if h, ok := dummyHashes.Load(cost); ok {
		return h.([]byte)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(core.RandomHex(16)), cost)
	if err != nil {
		panic("core: bcrypt: " + err.Error()) // only for a cost out of range, a programming error
	}
	dummyHashes.Store(cost, h)
	return h
}
