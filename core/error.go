package core

import (
	"errors"
	"fmt"
	"net/http"
)

// Code is one of the error codes of the spec's Codes table (and the codes the
// spec names on specific operations). Every error that crosses a face is a
// *Error carrying one of these.
type Code string

// NextAction tells an agent what to do after an error, as in the spec's envelope.
type NextAction string

// The nextAction values of the error envelope.
const (
	OpenURL        NextAction = "open_url"
	RereadAndRetry NextAction = "reread_and_retry"
	AskUser        NextAction = "ask_user"
	RetryLater     NextAction = "retry_later"
	Stop           NextAction = "stop"
)

// Error is the one error type of Giftwell. Faces render it as the spec's
// envelope {error, code, nextAction, url?, retryable, retryAfterMs?}, which
// EnvelopeOf builds.
type Error struct {
	// Code is the machine-readable code; it decides status, nextAction and retryable.
	Code Code
	// Message is the human text shown as `error`. It names the offending field
	// where there is one.
	Message string
	// URL is a page a person can open (the review page, the queue, the top-up page).
	URL string
	// RetryAfterMs is how long to wait before retrying, where the code says so.
	RetryAfterMs int64
	// Fields lists the request fields the error is about, for validation
	// errors. The envelope carries none of them (the spec has no such
	// member); Envelope.Field, which is never written, holds the first.
	Fields []string
	// Cause is an underlying error, logged but never shown to callers.
	Cause error
}

// Error implements error.
func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return string(e.Code) + ": " + e.Message
}

// Unwrap returns the cause, so errors.Is sees through to it.
func (e *Error) Unwrap() error { return e.Cause }

// Status is the HTTP status of the error's code.
func (e *Error) Status() int { return e.Code.Info().Status }

// NextAction is the envelope's nextAction for the error's code.
func (e *Error) NextAction() NextAction { return e.Code.Info().NextAction }

// Retryable reports whether retrying can succeed without a person.
func (e *Error) Retryable() bool { return e.Code.Info().Retryable }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid is a VALIDATION_ERROR about one field; the message starts with the
// field's name so that agents can find it.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: CodeValidation, Message: field + ": " + fmt.Sprintf(format, args...), Fields: []string{field}}
}

// Internal wraps an unexpected error. Its cause is logged, never shown.
// A cause that says the database or another dependency is unavailable
// (Unavailable) makes SERVICE_UNAVAILABLE (retry_later, with retryAfterMs)
// instead: the request may succeed in a moment.
func Internal(cause error) *Error {
	if Unavailable(cause) {
		var e *Error
		if errors.As(cause, &e) && (e.Code == CodeUnavailableRead || e.Code == CodeUnavailableWrite) {
			return e
		}
		return unavailable(cause)
	}
	return &Error{Code: CodeInternal, Message: InternalMessage, Cause: cause}
}

// AsError returns err as an *Error: itself when it is one, INTERNAL_ERROR
// (or SERVICE_UNAVAILABLE, see Internal) wrapping it otherwise. A nil err
// gives nil.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Internal(err)
}

// ErrorCode returns the code of err, or INTERNAL_ERROR for anything that is
// not an *Error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}

// CodeInfo is one row of the code table.
type CodeInfo struct {
	Status     int
	NextAction NextAction
	Retryable  bool
	// Recovery is the text the workflow guide's `recovery` map shows for the code.
	Recovery string
}

// Info returns the table row for the code. An unknown code is treated as
// INTERNAL_ERROR.
func (c Code) Info() CodeInfo {
	if i, ok := codeTable[c]; ok {
		return i
	}
	return codeTable[CodeInternal]
}

// Codes returns every code in the table, in a fixed order.
func Codes() []Code { return append([]Code(nil), codeOrder...) }

// The codes. The first block is the spec's Codes table; the second the codes
// it names on specific operations; the third the codes Giftwell adds for the
// request rules whose code the spec leaves open (see docs/decisions/).
const (
	CodeAuthRequired               Code = "AUTH_REQUIRED"
	CodeInsufficientScope          Code = "INSUFFICIENT_SCOPE"
	CodeHumanApprovalRequired      Code = "HUMAN_APPROVAL_REQUIRED"
	CodeTeamManagerRequired        Code = "TEAM_MANAGER_REQUIRED"
	CodeDemoLimited                Code = "DEMO_LIMITED"
	CodePlaybookOff                Code = "PLAYBOOK_OFF"
	CodePlaybookBusy               Code = "PLAYBOOK_BUSY"
	CodeNotAlwaysOn                Code = "NOT_ALWAYS_ON"
	CodeRecipientSkipped           Code = "RECIPIENT_SKIPPED"
	CodeApprovalRequired           Code = "APPROVAL_REQUIRED"
	CodeInsufficientBalance        Code = "INSUFFICIENT_BALANCE"
	CodeBudgetCap                  Code = "BUDGET_CAP"
	CodeMonthlyBudgetRequired      Code = "MONTHLY_BUDGET_REQUIRED"
	CodeBalanceFunded              Code = "BALANCE_FUNDED"
	CodeBalanceMismatch            Code = "BALANCE_MISMATCH"
	CodeLiveAddresslessUnavailable Code = "LIVE_ADDRESSLESS_UNAVAILABLE"
	CodeProductUnverified          Code = "PRODUCT_UNVERIFIED"
	CodePolicyChanged              Code = "POLICY_CHANGED"
	CodeIdempotencyConflict        Code = "IDEMPOTENCY_CONFLICT"
	CodeRecipientIdentityConflict  Code = "RECIPIENT_IDENTITY_CONFLICT"
	CodeCheckoutLocked             Code = "CHECKOUT_LOCKED"
	CodeModeLocked                 Code = "MODE_LOCKED"
	CodeCampaignCompleted          Code = "CAMPAIGN_COMPLETED"
	CodeValidation                 Code = "VALIDATION_ERROR"
	CodeRecipientMessageRequired   Code = "RECIPIENT_MESSAGE_REQUIRED"
	CodeNotFound                   Code = "NOT_FOUND"
	CodeCapabilityRetired          Code = "CAPABILITY_RETIRED"
	CodeRateLimit                  Code = "RATE_LIMIT"
	CodeInternal                   Code = "INTERNAL_ERROR"

	CodeInvalidJSON              Code = "INVALID_JSON"
	CodeInvalidRequest           Code = "INVALID_REQUEST"
	CodeInvalidRequestState      Code = "INVALID_REQUEST_STATE" // rendered as INVALID_REQUEST with 409; see Wire
	CodeTooManyArtworkFiles      Code = "TOO_MANY_ARTWORK_FILES"
	CodeArtworkUnavailable       Code = "ARTWORK_UNAVAILABLE"
	CodeRecipientScope           Code = "RECIPIENT_SCOPE"
	CodeGiftRetired              Code = "GIFT_RETIRED"
	CodeGiftUnavailable          Code = "GIFT_UNAVAILABLE"
	CodePriceQuoteRequired       Code = "PRICE_QUOTE_REQUIRED"
	CodeDuplicateRecipient       Code = "DUPLICATE_RECIPIENT"
	CodeLimitsBelowCommitments   Code = "LIMITS_BELOW_COMMITMENTS"
	CodeRepeatReviewRequired     Code = "REPEAT_REVIEW_REQUIRED"
	CodeGiftLinkConflict         Code = "GIFT_LINK_CONFLICT"
	CodeCursorStale              Code = "CURSOR_STALE"
	CodeUploadCapacity           Code = "UPLOAD_CAPACITY"
	CodeRecipientDetailsRequired Code = "RECIPIENT_DETAILS_REQUIRED"
	CodePersonalizationRequired  Code = "PERSONALIZATION_REQUIRED"

	CodeRequestTooLarge      Code = "REQUEST_TOO_LARGE"
	CodeUnsupportedMediaType Code = "UNSUPPORTED_MEDIA_TYPE"
	CodeMethodNotAllowed     Code = "METHOD_NOT_ALLOWED"
	CodeOriginForbidden      Code = "ORIGIN_FORBIDDEN"
	CodeUnavailableRead      Code = "SERVICE_UNAVAILABLE"
	CodeUnavailableWrite     Code = "SERVICE_UNAVAILABLE_AFTER_WRITE" // rendered as SERVICE_UNAVAILABLE; see Wire
)

// Wire is the code as callers see it. Two internal codes share a wire code
// with another row because the spec gives one code two statuses or two
// next actions (INVALID_REQUEST is 400 or 409; a 503 is retry_later on a read
// and reread_and_retry after a write).
func (c Code) Wire() string {
	switch c {
	case CodeInvalidRequestState:
		return string(CodeInvalidRequest)
	case CodeUnavailableWrite:
		return string(CodeUnavailableRead)
	}
	return string(c)
}

var codeOrder []Code

var codeTable = map[Code]CodeInfo{}

func row(c Code, status int, next NextAction, retryable bool, recovery string) {
	codeOrder = append(codeOrder, c)
	codeTable[c] = CodeInfo{Status: status, NextAction: next, Retryable: retryable, Recovery: recovery}
}

func init() {
	row(CodeAuthRequired, http.StatusUnauthorized, OpenURL, false, "The key or connection is missing, revoked or expired. Ask a person to create a new key at the url, or reconnect.")
	row(CodeInsufficientScope, http.StatusForbidden, AskUser, false, "The connection lacks the scope. Ask the user to reconnect and grant it.")
	row(CodeHumanApprovalRequired, http.StatusForbidden, OpenURL, false, "Only a signed-in person can do this. Hand the url to a person and stop.")
	row(CodeTeamManagerRequired, http.StatusForbidden, Stop, false, "Only an owner or admin can do this. Ask one of them.")
	row(CodeDemoLimited, http.StatusForbidden, Stop, false, "A demo workspace cannot use keys, webhooks, uploads or imports.")
	row(CodePlaybookOff, http.StatusConflict, OpenURL, false, "The playbook is draft or paused. Hand the url to a signed-in teammate to turn it on, then resend the same add.")
	row(CodePlaybookBusy, http.StatusConflict, RetryLater, true, "Others were being added to the same playbook and nothing was saved. Wait retryAfterMs, then resend the same add.")
	row(CodeNotAlwaysOn, http.StatusConflict, Stop, false, "The campaign is a batch or single gift, not a playbook. Use add_recipients instead.")
	row(CodeRecipientSkipped, http.StatusConflict, OpenURL, false, "An owner or admin skipped this person. Do not re-add them.")
	row(CodeApprovalRequired, http.StatusConflict, OpenURL, false, "Playbook gifts are created only through approval. Hand the approval url to an owner or admin.")
	row(CodeInsufficientBalance, http.StatusPaymentRequired, OpenURL, false, "The balance cannot cover the gift. Hand the top-up url to an owner or admin.")
	row(CodeBudgetCap, http.StatusConflict, OpenURL, false, "The playbook's monthly budget is used up. Hand the url to an owner or admin.")
	row(CodeMonthlyBudgetRequired, http.StatusBadRequest, AskUser, false, "Auto-approve needs a monthly budget. Ask the user for one.")
	row(CodeBalanceFunded, http.StatusConflict, Stop, false, "The gift was paid from the balance and needs no checkout.")
	row(CodeBalanceMismatch, http.StatusConflict, Stop, false, "The order's amount changed in review and waits for staff. The balance is never charged more.")
	row(CodeLiveAddresslessUnavailable, http.StatusConflict, AskUser, false, "Live gifts need a sender-supplied US address. Ask the user for the address and add it with addressMode known.")
	row(CodeProductUnverified, http.StatusConflict, Stop, false, "Live mode can only order verified gifts. Choose a verified gift.")
	row(CodePolicyChanged, http.StatusConflict, RereadAndRetry, true, "expectedPolicyVersion is stale. Read the campaign, then retry with its policyVersion.")
	row(CodeIdempotencyConflict, http.StatusConflict, AskUser, false, "The idempotency key was used with different content. Do not rotate the key; ask the user which request is meant.")
	row(CodeRecipientIdentityConflict, http.StatusConflict, Stop, false, "The identifiers sent belong to different people. Send one person's identifiers only.")
	row(CodeCheckoutLocked, http.StatusConflict, RetryLater, true, "An open or paid checkout locks the campaign. Retry after it is cancelled, expires or its gifts are prepared.")
	row(CodeModeLocked, http.StatusConflict, Stop, false, "A campaign paid at checkout cannot become a playbook.")
	row(CodeCampaignCompleted, http.StatusConflict, Stop, false, "The campaign is completed and cannot change.")
	row(CodeValidation, http.StatusBadRequest, AskUser, false, "The error names the invalid fields. Correct them and resend.")
	row(CodeRecipientMessageRequired, http.StatusBadRequest, AskUser, false, "The note is missing, too long, or uses a placeholder the person lacks. Write a note of at most 500 characters.")
	row(CodeNotFound, http.StatusNotFound, AskUser, false, "The ID is not in this workspace. Read the list again; never invent IDs.")
	row(CodeCapabilityRetired, http.StatusGone, Stop, false, "Prospect invitation email and reminders are retired. Send gift links through your own tools.")
	row(CodeRateLimit, http.StatusTooManyRequests, RetryLater, true, "Too many requests. Wait retryAfterMs, then send the same request.")
	row(CodeInternal, http.StatusInternalServerError, Stop, false, "Unexpected. After a write, read current state before doing anything else.")

	row(CodeInvalidJSON, http.StatusBadRequest, AskUser, false, "The body is not valid JSON. Fix it and resend.")
	row(CodeInvalidRequest, http.StatusBadRequest, AskUser, false, "The request is not valid as a whole. Correct it as the error says.")
	row(CodeInvalidRequestState, http.StatusConflict, RereadAndRetry, false, "The request does not fit the current state. Read current state, then decide.")
	row(CodeTooManyArtworkFiles, http.StatusBadRequest, AskUser, false, "Too many artwork files for one person. Send at most 5.")
	row(CodeArtworkUnavailable, http.StatusForbidden, AskUser, false, "The artwork is not a ready file of this workspace. Upload it again.")
	row(CodeRecipientScope, http.StatusForbidden, Stop, false, "The person is outside what this caller may change.")
	row(CodeGiftRetired, http.StatusConflict, AskUser, false, "The gift is retired. Choose a current gift with search_gifts.")
	row(CodeGiftUnavailable, http.StatusConflict, AskUser, false, "The gift cannot be ordered now. Choose another gift.")
	row(CodePriceQuoteRequired, http.StatusConflict, AskUser, false, "The gift has no price yet. Choose a priced gift.")
	row(CodeDuplicateRecipient, http.StatusConflict, AskUser, false, "The same person appears twice in the request. Send each person once.")
	row(CodeLimitsBelowCommitments, http.StatusConflict, AskUser, false, "The new limits are below what is already committed. Ask the user for higher limits.")
	row(CodeRepeatReviewRequired, http.StatusConflict, OpenURL, false, "The person was gifted before. A signed-in owner or admin approves the repeat at the url.")
	row(CodeGiftLinkConflict, http.StatusConflict, RereadAndRetry, true, "generation or expectedMessageVersion is stale. Re-read the link, then retry.")
	row(CodeCursorStale, http.StatusConflict, RereadAndRetry, true, "The selection changed while paging. Start again without a cursor.")
	row(CodeUploadCapacity, http.StatusTooManyRequests, RetryLater, true, "Too many uploads are staged. Wait retryAfterMs, then resend the last part.")
	row(CodeRecipientDetailsRequired, http.StatusConflict, AskUser, false, "The gift needs details for this person. Ask the user and fill recipient.details.")
	row(CodePersonalizationRequired, http.StatusConflict, AskUser, false, "The gift needs lettering. Ask the user and set customization.displayText.")

	row(CodeRequestTooLarge, http.StatusRequestEntityTooLarge, AskUser, false, "The body is over 1 MiB. Send less per request.")
	row(CodeUnsupportedMediaType, http.StatusUnsupportedMediaType, AskUser, false, "Send the body as application/json.")
	row(CodeMethodNotAllowed, http.StatusMethodNotAllowed, Stop, false, "The method is not allowed on this path.")
	row(CodeOriginForbidden, http.StatusForbidden, Stop, false, "Browser requests must come from the service's own site.")
	row(CodeUnavailableRead, http.StatusServiceUnavailable, RetryLater, true, "The service is briefly unavailable. Wait, then send the same read.")
	row(CodeUnavailableWrite, http.StatusServiceUnavailable, RereadAndRetry, false, "The service failed after a write began. Read current state before retrying.")
}

// FieldError is an *Error of code about one field, its message starting
// with the field's path.
func FieldError(code Code, field, format string, args ...any) *Error {
	return &Error{Code: code, Message: field + ": " + fmt.Sprintf(format, args...), Fields: []string{field}}
}

// Retired is CAPABILITY_RETIRED for what, a capability the service no longer
// offers (prospect invitation email and reminders): the caller sends gift
// links through their own tools instead.
func Retired(what string) *Error {
	return &Error{Code: CodeCapabilityRetired, Message: what + " is retired: Giftwell no longer emails gift links or reminders; send each gift link through your own tools"}
}
