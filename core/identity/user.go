package identity

import (
	"context"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/bcrypt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds on people's credentials and on names.
const (
	MinPasswordLength = 8   // characters
	MaxPasswordBytes  = 72  // bcrypt's limit
	MaxNameLength     = 200 // characters, for workspace, user and key names
)

// passwordCost is the bcrypt cost; tests lower it (see UseFastPasswordHashing).
var passwordCost atomic.Int32

func init() { passwordCost.Store(int32(bcrypt.DefaultCost)) }

// UseFastPasswordHashing lowers the bcrypt cost to its minimum so that tests
// creating many people stay fast. Never call it in a server.
func UseFastPasswordHashing() { passwordCost.Store(int32(bcrypt.MinCost)) }

// checkPassword enforces the password's length; field names it in the error.
func checkPassword(field, password string) error {
	if utf8.RuneCountInString(password) < MinPasswordLength {
		return core.Invalid(field, "must be at least %d characters", MinPasswordLength)
	}
	if len(password) > MaxPasswordBytes {
		return core.Invalid(field, "must be at most %d bytes", MaxPasswordBytes)
	}
	return nil
}

// checkName validates a trimmed name of 1-200 characters.
func checkName(field, name string) error {
	if name == "" {
		return core.Invalid(field, "is required")
	}
	if utf8.RuneCountInString(name) > MaxNameLength {
		return core.Invalid(field, "must be at most %d characters", MaxNameLength)
	}
	return nil
}

// personInput is a person to find or create, already validated.
type personInput struct {
	email, password, name string
	emailField            string // the request field the email came from
}

// findOrCreateUser returns the user with the email, creating them when there
// is none. An existing user is reused only when the password is theirs, so
// that an operator cannot take over someone else's account by naming it.
func (a *Service) findOrCreateUser(ctx context.Context, tx pgx.Tx, in personInput) (string, error) {
	q := db.New(tx)
	u, err := q.UserGetByEmail(ctx, in.email)
	switch {
	case err == nil:
		if !comparePassword([]byte(u.PasswordHash), in.password) {
			return "", core.Invalid(in.emailField, "already belongs to an account; give that account's password to add it")
		}
		return u.ID, nil
	case !core.IsNoRows(err):
		return "", core.Internal(err)
	}
	hash, err := hashPassword(in.password)
	if err != nil {
		return "", err
	}
	return a.insertUser(ctx, q, in.email, in.name, hash, in.emailField)
}

// insertUser creates an account with an already hashed password. An empty
// name becomes the email's local part. A concurrent registration of the same
// email is a VALIDATION_ERROR naming emailField.
func (a *Service) insertUser(ctx context.Context, q *db.Queries, email, name, passwordHash, emailField string) (string, error) {
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	id := core.NewID(core.PrefixUser)
	err := q.UserInsert(ctx, db.UserInsertParams{ID: id, Email: email, Name: name, PasswordHash: passwordHash, CreatedAt: a.Clock.Now()})
	if _, dup := core.ViolatedUnique(err); dup {
		// Someone registered the same email a moment ago.
		return "", core.Invalid(emailField, "was registered by another request at the same time; try again")
	}
	if err != nil {
		return "", core.Internal(err)
	}
	return id, nil
}

// checkPerson validates and normalises a person's email, password and name.
func checkPerson(emailField, email, passwordField, password, nameField, name string) (personInput, error) {
	in := personInput{email: core.NormalizeEmail(email), password: password, name: strings.TrimSpace(name), emailField: emailField}
	if err := core.CheckEmail(emailField, in.email); err != nil {
		return in, err
	}
	if err := checkPassword(passwordField, password); err != nil {
		return in, err
	}
	if in.name != "" {
		if err := checkName(nameField, in.name); err != nil {
			return in, err
		}
	}
	return in, nil
}
