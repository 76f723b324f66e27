package tools

import (
	"context"

	"github.com/giftwell/giftwell/core"
)

// ListQueueInput is list_queue's input.
type ListQueueInput struct {
	CampaignID string `json:"campaignId,omitempty" jsonschema:"only this playbook's waiting people; omit for the whole workspace's queue" schema:"maxLength=100"`
	Limit      int    `json:"limit,omitempty" jsonschema:"page size" schema:"minimum=1,maximum=100,default=50"`
	Cursor     string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page, unchanged; omit for the first page" schema:"maxLength=500"`
}

const descListQueue = "List the approval queue: the people waiting on the workspace's active playbooks for a signed-in owner or admin (state waiting, or scheduled when auto-approve decides within minutes), in queue order, " +
	"optionally for one playbook (campaignId). Each item has the person, the gift, priceCents, the resolved message, why they started waiting (reason), approvalUrl to hand to an owner or admin, " +
	"and blockers: what stops approval now, in the queue page's words (Add funds, Monthly budget reached, Playbook budget reached, Playbook send limit reached, Gifted before: approve the repeat, " +
	"Needs a shipping address, Finish the note, Add gift details, ...; empty when an owner or admin can approve). The balance, monthly budgets and playbook limits are shared in queue order: " +
	"a person shows Add funds when the people ahead of them use up the balance. limit is 1-100 (default 50); pass nextCursor unchanged as cursor, with the same campaignId, for the next page; " +
	"nextCursor is null on the last page. Agents never approve or skip: hand approvalUrl to a person. It changes nothing."

// queueReadTools are the queue's read tools. list_queue pages over MCP;
// its REST form, GET /queue, returns the whole queue (rest/queue_read.go).
func queueReadTools(app *core.App) []Tool {
	return []Tool{
		Define("list_queue", descListQueue, ScopeRead, core.ActReadQueueAndBalance,
			func(ctx context.Context, p core.Principal, in ListQueueInput) (core.QueuePage, error) {
				return app.QueuePage(ctx, p, core.QueuePageInput{CampaignID: in.CampaignID, Limit: in.Limit, Cursor: in.Cursor})
			},
			Title("List the approval queue"), ReadOnly()),
	}
}
