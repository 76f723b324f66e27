package approval

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// WaitingQueue is the approval queue of workspaceID in its current mode, as
// Queue computes it, or only playbook campaignID's people when it is not
// empty, for the workspace's own background work (the emails that tell
// approvers, core/notify): it acts for no principal, so no access check
// runs. A workspace that is gone has an empty queue. It returns
// INTERNAL_ERROR when the database fails.
func (a *Service) WaitingQueue(ctx context.Context, workspaceID, campaignID string) ([]QueueItem, error) {
	var out []QueueItem
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		ws, err := q.WorkspaceGetByID(ctx, workspaceID)
		if core.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return core.Internal(err)
		}
		all, err := a.queueOf(ctx, q, workspaceID, core.Mode(ws.Mode))
		if err != nil {
			return err
		}
		for _, e := range all {
			if campaignID == "" || e.item.CampaignID == campaignID {
				out = append(out, e.item)
			}
		}
		return nil
	})
	return out, err
}
