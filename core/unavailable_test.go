package core_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestUnavailableClassifies holds the one classification of outages: what
// says "the database or a dependency cannot answer now", and what does not.
func TestUnavailableClassifies(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	out := map[string]error{
		"net.OpError":                 refused,
		"wrapped net.OpError":         fmt.Errorf("failed to connect: %w", refused),
		"io.EOF":                      fmt.Errorf("receive: %w", io.EOF),
		"io.ErrUnexpectedEOF":         io.ErrUnexpectedEOF,
		"conn closed":                 fmt.Errorf("exec: %w", pgconn.ErrConnClosed),
		"deadline on acquire":         fmt.Errorf("acquire: %w", context.DeadlineExceeded),
		"admin shutdown 57P01":        &pgconn.PgError{Code: "57P01"},
		"crash shutdown 57P02":        &pgconn.PgError{Code: "57P02"},
		"cannot connect now 57P03":    &pgconn.PgError{Code: "57P03"},
		"too many connections 53300":  &pgconn.PgError{Code: "53300"},
		"connection failure 08006":    &pgconn.PgError{Code: "08006"},
		"connection exception 08000":  fmt.Errorf("q: %w", &pgconn.PgError{Code: "08000"}),
		"already unavailable":         core.Errorf(core.CodeUnavailableRead, "down"),
		"internal over an outage":     &core.Error{Code: core.CodeInternal, Cause: io.ErrUnexpectedEOF},
		"unavailable after a write":   core.AfterWrite(io.EOF),
		"wrapped unavailable *Error":  fmt.Errorf("x: %w", core.Internal(refused)),
		"pgconn connect error (real)": connectError(t),
	}
	for name, err := range out {
		require.True(t, core.Unavailable(err), name)
	}
	in := map[string]error{
		"nil":                   nil,
		"plain error":           errors.New("boom"),
		"cancelled":             context.Canceled,
		"cancelled over EOF":    errors.Join(context.Canceled, io.EOF),
		"unique violation":      &pgconn.PgError{Code: "23505"},
		"serialization failure": &pgconn.PgError{Code: "40001"},
		"syntax error":          &pgconn.PgError{Code: "42601"},
		"a decided answer":      &core.Error{Code: core.CodeNotFound, Message: "x", Cause: io.EOF},
		"validation":            core.Invalid("name", "required"),
		"internal, not outage":  core.Internal(errors.New("nil map")),
		"auth required":         &core.Error{Code: core.CodeAuthRequired, Cause: refused},
	}
	for name, err := range in {
		require.False(t, core.Unavailable(err), name)
	}
}

// connectError is what pgx returns when nothing listens at the address.
func connectError(t *testing.T) error {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().(*net.TCPAddr)
	require.NoError(t, l.Close())
	_, err = pgconn.Connect(t.Context(), fmt.Sprintf("host=127.0.0.1 port=%d user=x dbname=x sslmode=disable connect_timeout=2", addr.Port))
	require.Error(t, err)
	var ce *pgconn.ConnectError
	require.ErrorAs(t, err, &ce)
	return err
}

// TestUnavailableEnvelope: an outage's cause becomes 503 SERVICE_UNAVAILABLE
// with retry_later and retryAfterMs on a read, and reread_and_retry after a
// write; its text is never shown; other internal errors stay INTERNAL_ERROR.
func TestUnavailableEnvelope(t *testing.T) {
	t.Parallel()
	cause := fmt.Errorf("failed to receive message: %w", io.ErrUnexpectedEOF)

	status, env, internal := core.EnvelopeOf(core.Internal(cause), "https://gw.example")
	require.False(t, internal)
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Equal(t, core.Envelope{Error: core.UnavailableMessage, Code: "SERVICE_UNAVAILABLE", NextAction: core.RetryLater,
		Retryable: true, RetryAfterMs: core.UnavailableRetryAfterMs}, env)

	// A bare cause (not wrapped by Internal) is classified the same way.
	_, bare, _ := core.EnvelopeOf(cause, "https://gw.example")
	require.Equal(t, env, bare)

	status, env, internal = core.EnvelopeOf(core.AfterWrite(core.Internal(cause)), "https://gw.example")
	require.False(t, internal)
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Equal(t, "SERVICE_UNAVAILABLE", env.Code)
	require.Equal(t, core.RereadAndRetry, env.NextAction)
	require.False(t, env.Retryable)
	require.Equal(t, int64(core.UnavailableRetryAfterMs), env.RetryAfterMs)
	require.NotContains(t, env.Error, "EOF")
	// AfterWrite is idempotent and leaves everything else alone.
	require.Equal(t, core.CodeUnavailableWrite, core.ErrorCode(core.AfterWrite(core.AfterWrite(cause))))
	require.Equal(t, core.CodeUnavailableWrite, core.ErrorCode(core.Internal(core.AfterWrite(cause))), "Internal keeps an after-write outage")
	notFound := core.Errorf(core.CodeNotFound, "no such campaign")
	require.Same(t, notFound, core.AfterWrite(notFound))
	require.Nil(t, core.AfterWrite(nil))

	status, env, internal = core.EnvelopeOf(core.Internal(errors.New("nil map")), "https://gw.example")
	require.True(t, internal)
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, "INTERNAL_ERROR", env.Code)
	require.Equal(t, core.Stop, env.NextAction)
}
