package core_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// TestCodeTableMatchesSpec checks the spec's Codes table, transcribed by hand.
func TestCodeTableMatchesSpec(t *testing.T) {
	t.Parallel()
	spec := []struct {
		code   string
		status int
		next   string
	}{
		{"AUTH_REQUIRED", 401, "open_url"},
		{"INSUFFICIENT_SCOPE", 403, "ask_user"},
		{"HUMAN_APPROVAL_REQUIRED", 403, "open_url"},
		{"TEAM_MANAGER_REQUIRED", 403, "stop"},
		{"DEMO_LIMITED", 403, "stop"},
		{"PLAYBOOK_OFF", 409, "open_url"},
		{"PLAYBOOK_BUSY", 409, "retry_later"},
		{"NOT_ALWAYS_ON", 409, "stop"},
		{"RECIPIENT_SKIPPED", 409, "open_url"},
		{"APPROVAL_REQUIRED", 409, "open_url"},
		{"INSUFFICIENT_BALANCE", 402, "open_url"},
		{"BUDGET_CAP", 409, "open_url"},
		{"MONTHLY_BUDGET_REQUIRED", 400, "ask_user"},
		{"BALANCE_FUNDED", 409, "stop"},
		{"BALANCE_MISMATCH", 409, "stop"},
		{"LIVE_ADDRESSLESS_UNAVAILABLE", 409, "ask_user"},
		{"PRODUCT_UNVERIFIED", 409, "stop"},
		{"POLICY_CHANGED", 409, "reread_and_retry"},
		{"IDEMPOTENCY_CONFLICT", 409, "ask_user"},
		{"RECIPIENT_IDENTITY_CONFLICT", 409, "stop"},
		{"CHECKOUT_LOCKED", 409, "retry_later"},
		{"MODE_LOCKED", 409, "stop"},
		{"CAMPAIGN_COMPLETED", 409, "stop"},
		{"VALIDATION_ERROR", 400, "ask_user"},
		{"RECIPIENT_MESSAGE_REQUIRED", 400, "ask_user"},
		{"NOT_FOUND", 404, "ask_user"},
		{"CAPABILITY_RETIRED", 410, "stop"},
		{"RATE_LIMIT", 429, "retry_later"},
		{"INTERNAL_ERROR", 500, "stop"},
		// Named on specific operations, with the statuses the spec gives.
		{"INVALID_JSON", 400, ""},
		{"TOO_MANY_ARTWORK_FILES", 400, ""},
		{"ARTWORK_UNAVAILABLE", 403, ""},
		{"RECIPIENT_SCOPE", 403, ""},
		{"UPLOAD_CAPACITY", 429, ""},
		{"GIFT_RETIRED", 409, ""},
		{"GIFT_UNAVAILABLE", 409, ""},
		{"PRICE_QUOTE_REQUIRED", 409, ""},
		{"DUPLICATE_RECIPIENT", 409, ""},
		{"LIMITS_BELOW_COMMITMENTS", 409, ""},
		{"REQUEST_TOO_LARGE", 413, ""},
		{"UNSUPPORTED_MEDIA_TYPE", 415, ""},
	}
	for _, s := range spec {
		info := core.Code(s.code).Info()
		require.Equal(t, s.status, info.Status, s.code)
		if s.next != "" {
			require.Equal(t, s.next, string(info.NextAction), s.code)
		}
	}
	for _, name := range []string{"REPEAT_REVIEW_REQUIRED", "GIFT_LINK_CONFLICT", "CURSOR_STALE", "RECIPIENT_DETAILS_REQUIRED", "PERSONALIZATION_REQUIRED", "INVALID_REQUEST"} {
		require.Contains(t, core.Codes(), core.Code(name), "%s is in the table", name)
	}
}

// TestCodeTableRows checks every row is complete and retryable agrees with
// nextAction: only codes a caller can retry without a person are retryable.
func TestCodeTableRows(t *testing.T) {
	t.Parallel()
	seen := map[core.Code]bool{}
	for _, c := range core.Codes() {
		require.False(t, seen[c], "%s listed once", c)
		seen[c] = true
		info := c.Info()
		require.GreaterOrEqual(t, info.Status, 400, c)
		require.NotEmpty(t, info.Recovery, c)
		require.Contains(t, []core.NextAction{core.OpenURL, core.RereadAndRetry, core.AskUser, core.RetryLater, core.Stop}, info.NextAction, c)
		if info.NextAction == core.RetryLater {
			require.True(t, info.Retryable, "%s: retry_later is retryable", c)
		}
		if info.NextAction == core.OpenURL || info.NextAction == core.AskUser || info.NextAction == core.Stop {
			require.False(t, info.Retryable, "%s needs a person", c)
		}
	}
	require.Equal(t, "INVALID_REQUEST", core.CodeInvalidRequestState.Wire())
	require.Equal(t, 409, core.CodeInvalidRequestState.Info().Status)
	require.Equal(t, "SERVICE_UNAVAILABLE", core.CodeUnavailableWrite.Wire())
	require.Equal(t, core.RetryLater, core.CodeUnavailableRead.Info().NextAction, "a 5xx on a read is retry_later")
	require.Equal(t, core.RereadAndRetry, core.CodeUnavailableWrite.Info().NextAction, "a 5xx after a write is reread_and_retry")
}

func TestAsError(t *testing.T) {
	t.Parallel()
	require.Nil(t, core.AsError(nil))
	cause := errors.New("disk on fire")
	e := core.AsError(fmt.Errorf("wrapped: %w", cause))
	require.Equal(t, core.CodeInternal, e.Code)
	require.NotContains(t, e.Message, "disk", "causes are never shown")
	require.ErrorIs(t, e, cause)

	v := core.Invalid("limit", "must be at most %d", 100)
	require.Equal(t, "limit: must be at most 100", v.Message)
	require.Equal(t, []string{"limit"}, v.Fields)
	require.Same(t, v, core.AsError(fmt.Errorf("ctx: %w", v)))
	require.Equal(t, core.CodeValidation, core.ErrorCode(v))
}

func TestNewID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := core.NewID(core.PrefixCampaign)
		require.Regexp(t, `^cmp_[0-9a-f]{24}$`, id)
		require.False(t, seen[id])
		seen[id] = true
	}
}
