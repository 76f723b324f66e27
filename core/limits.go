package core

// The limits the workflow guide reports, under the spec's names (Limits).
const (
	// RecipientsPerCampaign is the most people a batch or single campaign holds.
	RecipientsPerCampaign = 500
	// RecipientsPerPlaybook is the most people a playbook holds.
	RecipientsPerPlaybook = 2000
	// GiftMessageCharacters is the longest note, after personalization.
	GiftMessageCharacters = 500
	// RequestBytes is the largest request body (1 MiB); larger gets 413.
	RequestBytes = 1 << 20
	// RequestsPerWorkspacePerMinute is the rate limit shared by every face,
	// key and connection of a workspace, in fixed clock-minute windows.
	RequestsPerWorkspacePerMinute = 240
	// GiftLinkExpiryDays is how long a gift link works after its creation.
	GiftLinkExpiryDays = 14
	// SourceUploadPartBytes is the largest source-upload chunk before base64.
	SourceUploadPartBytes = 150000
	// SourceUploadParts is the most chunks one source upload may have.
	SourceUploadParts = 384
	// SourceUploadSerializedBytes is the largest source upload in all (32 MiB).
	SourceUploadSerializedBytes = 33554432
	// SourceUploadExpiryHours is how long an unfinished source upload is kept.
	SourceUploadExpiryHours = 6
)

// Catalog request bounds (see docs/decisions/).
const (
	// MaxBudgetCents is the largest budgetCents (the spec's budget bound).
	MaxBudgetCents = 100_000_000
	// MaxSearchRecipients is the largest recipientCount search_gifts
	// estimates for: the most people one campaign (a playbook) can hold.
	MaxSearchRecipients = RecipientsPerPlaybook
	// MaxPageLimit is the largest page of browse_gifts and search_gifts.
	MaxPageLimit = 100
	// DefaultBrowseLimit is browse_gifts' page size when limit is absent.
	DefaultBrowseLimit = 20
	// DefaultSearchLimit is how many gifts search_gifts returns when limit is absent.
	DefaultSearchLimit = 10
	// MaxSearchTextLength is the longest query or useCase, in characters.
	MaxSearchTextLength = 500
)

// The length of an idempotency key, in characters.
const (
	MinIdempotencyKeyLength = 8
	MaxIdempotencyKeyLength = 150
)

// MaxEmailLength is the longest email address accepted, in characters.
const MaxEmailLength = 254
