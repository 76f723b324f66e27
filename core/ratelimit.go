package core

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RateBucket is what a request is counted against in its workspace's fixed
// clock-minute windows (the spec's Limits). The empty bucket is not counted.
type RateBucket string

// The counted buckets.
const (
	// RateUncounted is a request no limit counts: GET /catalog, GET
	// /session, and anything without a workspace.
	RateUncounted RateBucket = ""
	// RateRequests is the 240 requests per workspace per minute shared by
	// REST, MCP (every key and connection) and the web app.
	RateRequests RateBucket = "requests"
	// RateArtworkReads counts reads of the artwork routes (1,200 a minute).
	RateArtworkReads RateBucket = "artwork_reads"
	// RateArtworkWrites counts writes to the artwork routes (600 a minute).
	RateArtworkWrites RateBucket = "artwork_writes"
	// RateAssistantToolCalls counts tool calls at the assistant endpoint
	// (120 a minute), besides the requests that carry them.
	RateAssistantToolCalls RateBucket = "assistant_tool_calls"
)

// The fixed limits of the spec's Limits table; the requests limit is the
// operator's (Config.RateLimitPerMinute, RequestsPerWorkspacePerMinute by
// default).
const (
	ArtworkReadsPerMinute       = 1200
	ArtworkWritesPerMinute      = 600
	AssistantToolCallsPerMinute = 120
)

// RateBucketFor is the bucket of a request to the API by its method and
// path below /api/v1: GET (or HEAD) /catalog and /session are not counted,
// a path under /artwork counts against the artwork reads (GET, HEAD) or
// writes (anything else), and every other request against the requests
// limit.
func RateBucketFor(method, path string) RateBucket {
	path = strings.TrimSuffix(path, "/")
	read := method == http.MethodGet || method == http.MethodHead
	switch {
	case read && (path == "/catalog" || path == "/session"):
		return RateUncounted
	case path == "/artwork" || strings.HasPrefix(path, "/artwork/"):
		if read {
			return RateArtworkReads
		}
		return RateArtworkWrites
	}
	return RateRequests
}

// fixedRates are the buckets whose limits the spec fixes, with what a
// refusal says was used up; the requests bucket is the operator's.
var fixedRates = map[RateBucket]struct {
	limit int
	what  string
}{
	RateArtworkReads:       {ArtworkReadsPerMinute, "artwork reads"},
	RateArtworkWrites:      {ArtworkWritesPerMinute, "artwork writes"},
	RateAssistantToolCalls: {AssistantToolCallsPerMinute, "tool calls at the assistant endpoint"},
}

// RateLimitFor is the per-minute limit of bucket b: the operator's
// requests limit, or the spec's fixed artwork and assistant limits.
func (c Config) RateLimitFor(b RateBucket) int {
	if f, ok := fixedRates[b]; ok {
		return f.limit
	}
	if c.RateLimitPerMinute > 0 {
		return c.RateLimitPerMinute
	}
	return RequestsPerWorkspacePerMinute
}

// RateCharge is one request's count against its workspace's limit. A face
// puts it in the request's context (WithRateCharge) before authenticating;
// the authentication statement counts it in the same round trip and fills
// in the outcome, which the face reads for the RateLimit headers.
type RateCharge struct {
	// Bucket and Units are what to count; Units below 1 counts 1.
	Bucket RateBucket
	Units  int

	// Counted is set once the database counted the charge; then Limit,
	// Admitted, Used (the minute's count after it) and ResetMs (the time
	// left in the minute, by the database's clock) hold its outcome.
	Counted  bool
	Limit    int
	Admitted bool
	Used     int
	ResetMs  int64
}

// rateChargeKey carries a *RateCharge in a context.
type rateChargeKey struct{}

// WithRateCharge returns ctx carrying c: the authentication it is passed to
// counts c.
func WithRateCharge(ctx context.Context, c *RateCharge) context.Context {
	return context.WithValue(ctx, rateChargeKey{}, c)
}

// RateChargeFrom is the charge ctx carries, or nil.
func RateChargeFrom(ctx context.Context) *RateCharge {
	c, _ := ctx.Value(rateChargeKey{}).(*RateCharge)
	return c
}

// RateChargeArgs are the rate_charge arguments of an authentication
// statement for the charge ctx carries: an empty bucket (nothing counted)
// without one. at is nil unless the Kernel has a RateClock, so the
// database's clock decides the minute and every instance agrees.
func (k *Kernel) RateChargeArgs(ctx context.Context) (bucket string, units, limit int32, at *time.Time) {
	c := RateChargeFrom(ctx)
	if c == nil || c.Bucket == RateUncounted {
		return "", 0, 0, nil
	}
	c.Limit = k.Config.RateLimitFor(c.Bucket)
	return string(c.Bucket), int32(max(c.Units, 1)), int32(c.Limit), k.rateAt()
}

// rateAt is the time rate windows are counted at: nil (the database's
// clock) unless the Kernel has a RateClock.
func (k *Kernel) rateAt() *time.Time {
	if k.RateClock == nil {
		return nil
	}
	now := k.RateClock.Now()
	return &now
}

// RateCounted records the outcome of counting the charge ctx carries and
// returns RATE_LIMIT when it was refused.
func RateCounted(ctx context.Context, admitted bool, used int32, resetMs int64) error {
	c := RateChargeFrom(ctx)
	if c == nil || c.Bucket == RateUncounted {
		return nil
	}
	c.Counted, c.Admitted, c.Used, c.ResetMs = true, admitted, int(used), resetMs
	return c.Err()
}

// Err is RATE_LIMIT with retryAfterMs (the time left in the minute) when
// the charge was counted and refused, else nil.
func (c *RateCharge) Err() error {
	if c == nil || !c.Counted || c.Admitted {
		return nil
	}
	what := "requests"
	if f, ok := fixedRates[c.Bucket]; ok {
		what = f.what
	}
	return &Error{Code: CodeRateLimit, RetryAfterMs: max(c.ResetMs, 1), Message: fmt.Sprintf(
		"this workspace has used its %d %s for this minute", c.Limit, what)}
}

// SetHeaders advertises a counted charge's window in the RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset (seconds, rounded up) headers;
// an uncounted one sets none.
func (c *RateCharge) SetHeaders(h http.Header) {
	if c == nil || !c.Counted {
		return
	}
	h.Set("RateLimit-Limit", strconv.Itoa(c.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(max(c.Limit-c.Used, 0)))
	h.Set("RateLimit-Reset", strconv.FormatInt(max((c.ResetMs+999)/1000, 1), 10))
}
