package core

import (
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pgUniqueViolation is PostgreSQL's SQLSTATE for unique_violation.
const pgUniqueViolation = "23505"

// ViolatedUnique returns the name of the unique constraint or index err
// violated, and whether it was a unique violation at all.
func ViolatedUnique(err error) (string, bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == pgUniqueViolation {
		return pgErr.ConstraintName, true
	}
	return "", false
}

// IsNoRows reports whether err is pgx's "no rows in result set".
func IsNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// AsCoreError is the error a service method returns: nil for nil, the
// *Error itself, or INTERNAL_ERROR wrapping anything else. It never returns
// a typed nil.
func AsCoreError(err error) error {
	if err == nil {
		return nil
	}
	return AsError(err)
}
