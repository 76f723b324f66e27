package rest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An Idempotency-Key makes a REST write safe to retry: the first answer is
// kept and replayed (Idempotent-Replayed: true) to a retry of the same
// request, the key with another body or route is 409
// IDEMPOTENCY_CONFLICT, a malformed key is refused naming the header, and
// after 24 hours the key is free again.
func TestIdempotencyKeyReplaysTheFirstAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)
	campaigns := func() int {
		var n int
		require.NoError(t, h.env.App.DB.QueryRow(context.Background(), `SELECT count(*) FROM campaigns WHERE workspace_id = $1`, h.env.WorkspaceID).Scan(&n))
		return n
	}
	const body = `{"name":"Thanks","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A"}`
	post := func(path, b, idem string) response {
		return h.do(http.MethodPost, path, strings.NewReader(b), key, withJSON(), withHeader("Idempotency-Key", idem))
	}
	before := campaigns()

	first := post("/campaigns", body, "retry-key-0001")
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	require.Empty(t, first.Header.Get("Idempotent-Replayed"))
	again := post("/campaigns", ` {"senderCompany":"A", "name":"Thanks","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S"}`, "retry-key-0001")
	require.Equal(t, http.StatusCreated, again.Status)
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.JSONEq(t, string(first.Body), string(again.Body), "the same answer, whatever the spacing or key order")
	require.Equal(t, before+1, campaigns(), "one campaign for two tries")

	other := post("/campaigns", strings.Replace(body, "Thanks", "Other", 1), "retry-key-0001")
	require.Equal(t, http.StatusConflict, other.Status)
	require.Equal(t, "IDEMPOTENCY_CONFLICT", other.code())
	require.Contains(t, other.message(), "Idempotency-Key: was used for POST /api/v1/campaigns")
	elsewhere := post("/test-items/i1/ping", "", "retry-key-0001")
	require.Equal(t, "IDEMPOTENCY_CONFLICT", elsewhere.code())

	short := post("/campaigns", body, "short")
	require.Equal(t, "VALIDATION_ERROR", short.code())
	require.Contains(t, short.message(), "Idempotency-Key: must be 8-150 characters")

	// A refusal is an answer too: kept and replayed.
	bad := post("/campaigns", `{"name":""}`, "retry-key-0002")
	require.Equal(t, http.StatusBadRequest, bad.Status)
	badAgain := post("/campaigns", `{"name":""}`, "retry-key-0002")
	require.Equal(t, "true", badAgain.Header.Get("Idempotent-Replayed"))
	require.Equal(t, string(bad.Body), string(badAgain.Body))

	// Another workspace's key space is its own.
	require.Equal(t, before+1, campaigns())

	// After 24 hours the key is free: the request runs again.
	h.env.Clock.Advance(24*time.Hour + time.Second)
	later := post("/campaigns", body, "retry-key-0001")
	require.Equal(t, http.StatusCreated, later.Status)
	require.Empty(t, later.Header.Get("Idempotent-Replayed"))
	require.Equal(t, before+2, campaigns())
}

// Concurrent retries wait for the first: eight tries of one create with one
// key make one campaign, and every try gets its answer.
func TestIdempotencyKeyConcurrentRetriesWait(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	key := withKey(h.env.OwnerKey)
	const body = `{"name":"Once","mode":"always_on","productId":"gourmet-snack-crate","senderName":"S","senderCompany":"A"}`
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers []string
	)
	for range 8 {
		wg.Go(func() {
			res := h.do(http.MethodPost, "/campaigns", strings.NewReader(body), key, withJSON(), withHeader("Idempotency-Key", "concurrent-key-1"))
			require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
			mu.Lock()
			answers = append(answers, string(res.Body))
			mu.Unlock()
		})
	}
	wg.Wait()
	var n int
	require.NoError(t, h.env.App.DB.QueryRow(context.Background(), `SELECT count(*) FROM campaigns WHERE workspace_id = $1 AND name = 'Once'`, h.env.WorkspaceID).Scan(&n))
	require.Equal(t, 1, n)
	for _, a := range answers[1:] {
		require.JSONEq(t, answers[0], a)
	}
}
