package core

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// A dependency that cannot be reached (the database, most of all) is not a
// bug and not the end: the request may succeed in a moment. Unavailable is
// the one place that recognises it; Internal and AsError turn such a cause
// into SERVICE_UNAVAILABLE (503, retry_later, retryAfterMs) instead of
// INTERNAL_ERROR, and a face that ran a write turns that into
// SERVICE_UNAVAILABLE with reread_and_retry (AfterWrite), because the write
// may have landed before the connection went.

// UnavailableRetryAfterMs is the wait an unavailable answer suggests: long
// enough for a dropped connection to be replaced, short enough that a
// database back within seconds is used within seconds.
const UnavailableRetryAfterMs = 2000

// UnavailableMessage is the text of an unavailable answer (its cause is
// logged, never shown).
const UnavailableMessage = "the service is briefly unavailable; try again shortly"

// unavailableWriteMessage is the text of an unavailable answer to a write.
const unavailableWriteMessage = "the service became unavailable while handling a write that may or may not have been saved; read current state, then retry only what is missing"

// Unavailable reports whether err says that the database (or another
// service Giftwell depends on) cannot be reached or answer now, rather than
// that the request or the code is wrong: a failed connect (*pgconn.ConnectError),
// a timeout (pgconn.Timeout, context.DeadlineExceeded: a pool acquire or a
// query that ran out of time), a network error (*net.OpError), a connection
// that ended mid-conversation (io.EOF, io.ErrUnexpectedEOF, pgconn's "conn
// closed"), and the server's own refusals: SQLSTATE class 08 (connection
// exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect
// now) and 53300 (too many connections). A cancelled context is not: the
// caller left. An *Error coded SERVICE_UNAVAILABLE is; one with any other
// code than INTERNAL_ERROR is not, whatever its cause: it is a decided answer.
func Unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var e *Error
	if errors.As(err, &e) {
		switch e.Code {
		case CodeUnavailableRead, CodeUnavailableWrite:
			return true
		case CodeInternal:
			// Look at the cause below.
		default:
			return false // a decided answer, whatever its cause
		}
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return unavailableState(pgErr.Code)
	}
	var (
		connectErr *pgconn.ConnectError
		opErr      *net.OpError
	)
	switch {
	case errors.As(err, &connectErr), errors.As(err, &opErr),
		pgconn.Timeout(err), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, pgconn.ErrConnClosed),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	return false
}

// unavailableState reports whether a SQLSTATE says the server cannot serve
// now: class 08, 57P01-57P03, 53300.
func unavailableState(code string) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// unavailable is SERVICE_UNAVAILABLE for a read, with cause logged.
func unavailable(cause error) *Error {
	return &Error{Code: CodeUnavailableRead, Message: UnavailableMessage, RetryAfterMs: UnavailableRetryAfterMs, Cause: cause}
}

// AfterWrite is err as the answer to a request that may have written: when
// err says the service is unavailable (Unavailable), SERVICE_UNAVAILABLE
// with reread_and_retry (code SERVICE_UNAVAILABLE_AFTER_WRITE, written as
// SERVICE_UNAVAILABLE), since the write may have landed before the
// connection went; any other err unchanged. A face calls it on the error of
// an operation that is not read-only (a tool without the readOnly hint, a
// web form's POST); refusals before the operation ran stay retry_later.
func AfterWrite(err error) error {
	if !Unavailable(err) || errors.Is(err, errNothingSaved) {
		return err
	}
	var e *Error
	if errors.As(err, &e) && e.Code == CodeUnavailableWrite {
		return err
	}
	return &Error{Code: CodeUnavailableWrite, Message: unavailableWriteMessage, RetryAfterMs: UnavailableRetryAfterMs, Cause: err}
}

// errNothingSaved marks an unavailable answer given before anything was
// written, so that AfterWrite leaves it retry_later.
var errNothingSaved = errors.New("nothing was saved")

// UnavailableNothingSaved is SERVICE_UNAVAILABLE (retry_later,
// retryAfterMs) for a write that undid its intent when another system (a
// blob store) failed: nothing was saved, so even a face that ran a write
// keeps it retry_later (AfterWrite leaves it alone). cause is logged.
func UnavailableNothingSaved(cause error) *Error {
	return unavailable(errors.Join(errNothingSaved, cause))
}
