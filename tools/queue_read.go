package tools

import (
	"context"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
)

// QueueFilter narrows the approval queue to one playbook: list_queue's
// input without the page, which is its REST form's whole input.
type QueueFilter struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this playbook's waiting people; omit for the whole workspace's queue" schema:"maxLength=100"`
}

// ListQueueInput is list_queue's input: the filter and the page.
type ListQueueInput struct {
	QueueFilter
	Limit  int    `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the previous page's nextCursor" schema:"maxLength=500"`
}

// ListQueueSkippedInput is list_queue_skipped's input.
type ListQueueSkippedInput struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this playbook's people; omit for the whole workspace" schema:"maxLength=100"`
}

const descListQueue = "List the people waiting on active playbooks for a signed-in owner or admin (waiting, or scheduled when auto-approve decides within minutes), " +
	"in queue order, optionally for one campaignId. Each item has the person, gift, price, reason, approvalUrl and blockers: what stops approval now, " +
	"in the queue page's words (empty when it can be approved); the balance and budgets are used in queue order. Page with nextCursor. " +
	"Agents never approve or skip: hand approvalUrl to a person. Changes nothing."

// descListQueueREST is list_queue's description in the REST documents.
const descListQueueREST = "The people waiting on the workspace's active playbooks for a signed-in owner or admin, in queue order, optionally for one playbook (campaignId); " +
	"all of them, with no paging (MCP's list_queue pages). Each item's blockers say what stops approval now; the balance, monthly budgets and playbook limits " +
	"are shared in queue order. Hand approvalUrl to an owner or admin."

const descListQueueSkipped = "The people an owner or admin skipped on the workspace's playbooks, optionally for one playbook (campaignId), newest skip first, " +
	"with the reason given. A skipped person is refused by a new add (RECIPIENT_SKIPPED) until unskipped."

// queueReadTools are the queue's read tools. list_queue pages over MCP; its
// REST form, GET /queue, takes the same filter and returns the items of
// every page at once (the spec: no paging on REST). The skipped list is
// REST only.
func queueReadTools(app *giftwell.App) []Tool {
	return []Tool{
		Define("list_queue", descListQueue, ScopeRead, core.ActReadQueueAndBalance,
			func(ctx context.Context, p core.Principal, in ListQueueInput) (approval.QueuePage, error) {
				return app.Approvals.QueuePage(ctx, p, approval.QueuePageInput{CampaignID: in.CampaignID, Limit: in.Limit, Cursor: in.Cursor})
			},
			Title("List the approval queue"), ReadOnly(), REST(http.MethodGet, "/queue", http.StatusOK,
				RESTForm(descListQueueREST, func(ctx context.Context, p core.Principal, in QueueFilter) ([]approval.QueueItem, error) {
					return app.Approvals.Queue(ctx, p, in.CampaignID)
				}))),
		Define("list_queue_skipped", descListQueueSkipped, ScopeRead, core.ActReadQueueAndBalance,
			func(ctx context.Context, p core.Principal, in ListQueueSkippedInput) ([]approval.SkippedItem, error) {
				return app.Approvals.SkippedPeople(ctx, p, in.CampaignID)
			},
			Title("The people skipped in the queue, newest first"), RESTOnly(), ReadOnly(), REST(http.MethodGet, "/queue/skipped", http.StatusOK)),
	}
}
