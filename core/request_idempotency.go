package core

import (
	"bytes"
	"context"
	"crypto/sha256"
	"time"

	"github.com/giftwell/giftwell/sql/db"
)

// Every REST write (POST, PATCH, DELETE) takes an optional Idempotency-Key
// header, as Stripe's API does: the first answer is kept with the
// workspace, key, method, path and body for IdempotencyWindow and replayed
// to a retry; the key with another method, path or body is 409
// IDEMPOTENCY_CONFLICT; a retry while the first request runs waits for it.
// MCP tools keep the idempotencyKey fields the spec gives them.
const (
	// IdempotencyHeader is the request header that names the key.
	IdempotencyHeader = "Idempotency-Key"
	// IdempotencyWindow is how long an answer is kept for its retries.
	IdempotencyWindow = 24 * time.Hour
	// idempotencyWait bounds how long a retry waits for the first request.
	idempotencyWait = 20 * time.Second
	// idempotencyPoll is how often a waiting retry looks again.
	idempotencyPoll = 25 * time.Millisecond
	// idempotencyAbandoned is how long a claim may run before a retry takes
	// it over: longer than any request runs (serve's write timeout), so a
	// claim that old belongs to a process that stopped.
	idempotencyAbandoned = 5 * time.Minute
)

// IdempotentRequest is a REST write under an Idempotency-Key.
type IdempotentRequest struct {
	WorkspaceID string
	// Key is the header's value, checked by CheckIdempotencyHeader.
	Key    string
	Method string
	// Path is the request's path and query.
	Path string
	// Body is the request's decoded body in canonical JSON (nil for none):
	// a retry whose JSON differs only in spacing or key order is the same.
	Body []byte
}

// StoredAnswer is the first answer to a key, replayed to its retries.
type StoredAnswer struct {
	Status      int
	ContentType string
	Body        []byte
}

// CheckIdempotencyHeader checks an Idempotency-Key header as create's
// idempotencyKey is checked (8-150 characters, no control character),
// naming the header. It returns the trimmed key.
func CheckIdempotencyHeader(raw string) (string, error) {
	key, err := IdempotencyKey(raw)
	if err != nil {
		return "", Invalid(IdempotencyHeader, "must be %d-%d characters", MinIdempotencyKeyLength, MaxIdempotencyKeyLength)
	}
	return key, nil
}

// ClaimRequest claims r's key. Claimed, the caller runs the request and
// then keeps its answer (FinishRequest) or gives the key back
// (ReleaseRequest). Not claimed, it returns the first request's answer for
// a retry of the same request, waiting while the first still runs; 409
// IDEMPOTENCY_CONFLICT for another method, path or body; SERVICE_UNAVAILABLE
// (retry_later) when the first runs past the wait.
func (k *Kernel) ClaimRequest(ctx context.Context, r IdempotentRequest) (claimed bool, answer StoredAnswer, err error) {
	sum := sha256.Sum256(r.Body)
	q := db.New(k.DB)
	deadline := time.Now().Add(idempotencyWait)
	for {
		now := k.Clock.Now()
		_, err := q.RequestIdempotencyClaim(ctx, db.RequestIdempotencyClaimParams{
			WorkspaceID: r.WorkspaceID, Key: r.Key, Method: r.Method, Path: r.Path, BodyHash: sum[:],
			CreatedAt: now, ExpiredBefore: now.Add(-IdempotencyWindow), AbandonedBefore: now.Add(-idempotencyAbandoned),
		})
		if err == nil {
			return true, StoredAnswer{}, nil
		}
		if !IsNoRows(err) {
			return false, StoredAnswer{}, Internal(err)
		}
		row, err := q.RequestIdempotencyGet(ctx, db.RequestIdempotencyGetParams{WorkspaceID: r.WorkspaceID, Key: r.Key})
		if IsNoRows(err) {
			continue // released between the two statements: claim again
		}
		if err != nil {
			return false, StoredAnswer{}, Internal(err)
		}
		if row.Method != r.Method || row.Path != r.Path || !bytes.Equal(row.BodyHash, sum[:]) {
			return false, StoredAnswer{}, FieldError(CodeIdempotencyConflict, IdempotencyHeader,
				"was used for %s %s with another body within %d hours; use a new key for a new request, the same key only to retry the same one",
				row.Method, Clip(row.Path, 100), int(IdempotencyWindow.Hours()))
		}
		if row.State == "done" {
			return false, StoredAnswer{Status: int(row.Status), ContentType: row.ContentType, Body: row.Response}, nil
		}
		if time.Now().After(deadline) {
			return false, StoredAnswer{}, &Error{Code: CodeUnavailableRead, RetryAfterMs: UnavailableRetryAfterMs,
				Message: "the first request with this Idempotency-Key is still running; retry it shortly with the same key"}
		}
		select {
		case <-ctx.Done():
			return false, StoredAnswer{}, unavailable(ctx.Err())
		case <-time.After(idempotencyPoll):
		}
	}
}

// FinishRequest keeps a's answer for the retries of r.
func (k *Kernel) FinishRequest(ctx context.Context, r IdempotentRequest, a StoredAnswer) error {
	if err := db.New(k.DB).RequestIdempotencyFinish(context.WithoutCancel(ctx), db.RequestIdempotencyFinishParams{
		WorkspaceID: r.WorkspaceID, Key: r.Key, Status: int32(a.Status), ContentType: a.ContentType, Response: a.Body,
	}); err != nil {
		return Internal(err)
	}
	return nil
}

// ReleaseRequest gives r's key back without an answer (the request failed
// in a way a retry may mend), so that the next retry runs.
func (k *Kernel) ReleaseRequest(ctx context.Context, r IdempotentRequest) error {
	if err := db.New(k.DB).RequestIdempotencyRelease(context.WithoutCancel(ctx), db.RequestIdempotencyReleaseParams{
		WorkspaceID: r.WorkspaceID, Key: r.Key,
	}); err != nil {
		return Internal(err)
	}
	return nil
}

// PruneIdempotentRequests forgets answers older than IdempotencyWindow.
func (k *Kernel) PruneIdempotentRequests(ctx context.Context) (int64, error) {
	n, err := db.New(k.DB).RequestIdempotencyPrune(ctx, k.Clock.Now().Add(-IdempotencyWindow))
	if err != nil {
		return 0, Internal(err)
	}
	return n, nil
}
