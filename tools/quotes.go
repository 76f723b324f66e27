package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
)

// CommitSendInput is commit_send's input.
type CommitSendInput struct {
	QuoteID string `json:"quoteId" jsonschema:"the quote from quote_send (quo_...)" schema:"minLength=1,maxLength=100"`
}

const descQuoteSend = "Legacy: quote a ready batch or single campaign per gift (one item per person without a gift), saved 15 minutes; charges nothing. " +
	"A person commits it with commit_send. Prefer preview_campaign."

const descCommitSend = "Legacy, signed-in owner or admin only: turn a quote_send quote into gifts paid from the balance, all or nothing. " +
	"An expired quote or a changed campaign must be quoted again. Returns the quote with sendIds."

// quoteTools are the legacy quote and commit operations.
func quoteTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("quote_send", descQuoteSend, ScopeDash, core.ActReadWorkspaceDetails,
			func(ctx context.Context, p core.Principal, in CampaignIDInput) (approval.Quote, error) {
				return app.Approvals.QuoteSend(ctx, p, in.ID)
			},
			Title("Quote a campaign's gifts (legacy)"), REST(http.MethodPost, "/campaigns/{id}/quotes", http.StatusOK)),
		Define("commit_send", descCommitSend, ScopeSignedIn, core.ActPay,
			func(ctx context.Context, p core.Principal, in CommitSendInput) (approval.Quote, error) {
				return app.Approvals.CommitSend(ctx, p, in.QuoteID)
			},
			Title("Commit a quote into gifts (legacy)"), REST(http.MethodPost, "/quotes/{quoteId}/commit", http.StatusOK)),
	}
}
