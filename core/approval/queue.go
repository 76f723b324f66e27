package approval

import (
	"context"
	"slices"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/sql/db"
)

// Bounds of list_queue's pages.
const (
	// DefaultQueueLimit is list_queue's page size when limit is absent.
	DefaultQueueLimit = 50
	// MaxQueueLimit is the largest page of list_queue.
	MaxQueueLimit = core.MaxPageLimit
)

// QueuePageInput is list_queue's page request.
type QueuePageInput struct {
	// CampaignID narrows the queue to one playbook; empty lists the workspace's.
	CampaignID string
	// Limit is the page size, 1-MaxQueueLimit; 0 means DefaultQueueLimit.
	Limit int
	// Cursor is a nextCursor from the previous page, or empty for the first.
	Cursor string
}

// QueuePage is one page of the approval queue.
type QueuePage struct {
	Items []QueueItem `json:"items" jsonschema:"waiting people in queue order, each with what blocks their approval"`
	// NextCursor continues the queue; null on the last page.
	NextCursor *string `json:"nextCursor" jsonschema:"pass as cursor for the next page, with the same campaignId; null on the last page"`
}

// Queue returns the approval queue of p's workspace: the waiting and
// scheduled people of its active playbooks, in queue order (people of
// draft, paused or completed playbooks are held out until the playbook is on
// again), or only those of playbook campaignID when it is not empty. Each
// item's blockers are computed over the whole workspace's queue in order,
// so the balance, each playbook's monthly budget, budgetCents and maxSends
// are shared with the people ahead (see queueOf). A batch or single
// campaign has no queue: its list is empty. It returns NOT_FOUND naming
// campaignId for a campaign outside the workspace, the codes of Authorize
// (ActReadQueueAndBalance), or INTERNAL_ERROR.
func (a *Service) Queue(ctx context.Context, p core.Principal, campaignID string) ([]QueueItem, error) {
	if err := core.Authorize(p, core.ActReadQueueAndBalance, a.queuePage(campaignID)); err != nil {
		return nil, err
	}
	entries, err := a.queueRead(ctx, p, campaignID)
	if err != nil {
		return nil, err
	}
	out := make([]QueueItem, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.item)
	}
	return out, nil
}

// QueuePage returns one page of Queue (list_queue over MCP): the whole
// queue is computed, since blockers depend on the people ahead, then the
// limit people after the cursor are returned. The cursor is opaque: it
// holds the queue position of the page's last person and the campaignId it
// was issued for, with a checksum; a cursor whose person has left the queue
// since still continues after their position. It returns VALIDATION_ERROR
// naming limit (outside 1-100) or cursor (not one list_queue issued, or
// issued for another campaignId), and the codes of Queue.
func (a *Service) QueuePage(ctx context.Context, p core.Principal, in QueuePageInput) (QueuePage, error) {
	if err := core.Authorize(p, core.ActReadQueueAndBalance, a.queuePage(in.CampaignID)); err != nil {
		return QueuePage{}, err
	}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = DefaultQueueLimit
	case limit < 1 || limit > MaxQueueLimit:
		return QueuePage{}, core.Invalid("limit", "must be between 1 and %d", MaxQueueLimit)
	}
	var after int64
	if in.Cursor != "" {
		c, err := decodeQueueCursor(in.Cursor)
		if err != nil {
			return QueuePage{}, err
		}
		if c.CampaignID != in.CampaignID {
			return QueuePage{}, core.Invalid("cursor", "was issued for another campaignId; keep campaignId the same while paging, or omit cursor to start from the beginning")
		}
		after = c.After
	}
	entries, err := a.queueRead(ctx, p, in.CampaignID)
	if err != nil {
		return QueuePage{}, err
	}
	start, _ := slices.BinarySearchFunc(entries, after+1, func(e queueEntry, seq int64) int {
		switch {
		case e.seq < seq:
			return -1
		case e.seq > seq:
			return 1
		}
		return 0
	})
	end := min(start+limit, len(entries))
	page := QueuePage{Items: make([]QueueItem, 0, end-start)}
	for _, e := range entries[start:end] {
		page.Items = append(page.Items, e.item)
	}
	if end < len(entries) {
		next := queueCursor{After: entries[end-1].seq, CampaignID: in.CampaignID}.encode()
		page.NextCursor = &next
	}
	return page, nil
}

// queuePage is the page Authorize names: the playbook's queue page, or the
// site for the whole workspace's.
func (a *Service) queuePage(campaignID string) string {
	if campaignID == "" {
		return a.Config.SiteURL + "/"
	}
	return a.Config.QueueURL(campaignID)
}

// queueEntry is a queue item with its position in the workspace's queue.
type queueEntry struct {
	item QueueItem
	seq  int64
}

// queueRead reads the queue of p's workspace, or of playbook campaignID, in
// one read transaction.
func (a *Service) queueRead(ctx context.Context, p core.Principal, campaignID string) ([]queueEntry, error) {
	var out []queueEntry
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		if campaignID != "" {
			if err := queueCampaignExists(ctx, q, p.WorkspaceID, campaignID); err != nil {
				return err
			}
		}
		all, err := a.queueOf(ctx, q, p.WorkspaceID, campaign.ModeOf(p))
		if err != nil {
			return err
		}
		out = make([]queueEntry, 0, len(all))
		for _, e := range all {
			if campaignID == "" || e.item.CampaignID == campaignID {
				out = append(out, e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// queueCampaignExists is NOT_FOUND naming campaignId when campaign id is not
// in the workspace.
func queueCampaignExists(ctx context.Context, q *db.Queries, workspaceID, id string) error {
	_, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: workspaceID, ID: id})
	if core.IsNoRows(err) {
		return core.FieldError(core.CodeNotFound, "campaignId", "no campaign %s in this workspace; list_campaigns shows its campaigns", core.Clip(id, 60))
	}
	if err != nil {
		return core.Internal(err)
	}
	return nil
}

// queueOf computes the whole approval queue of the workspace in mode on q:
// four queries however long the queue is (the people with their playbooks,
// the playbooks' commitments, earlier gifts to the same people, the
// balance).
//
// Each person's blockers are the texts of the shared approval checks
// (GiftChecks, PersonChecks, LimitChecks) in that order, without
// duplicates. The limits are checked against what is left after the people
// ahead: one running balance for the workspace and one running
// Spend per playbook. A person with no check against them takes
// their gift's price from both, as approving everyone in order would; a
// person with a check of their own (a missing note, a repeat, ...) or one
// that does not fit takes nothing, since they cannot be approved now. In
// live mode an unverified gift shows no blocker (approving it returns
// PRODUCT_UNVERIFIED), but its people take nothing either: they cannot be
// approved.
func (a *Service) queueOf(ctx context.Context, q *db.Queries, workspaceID string, mode core.Mode) ([]queueEntry, error) {
	rows, err := q.QueueItemList(ctx, workspaceID)
	if err != nil {
		return nil, core.Internal(err)
	}
	if len(rows) == 0 {
		return []queueEntry{}, nil
	}

	// The playbooks, each with its gift, its gift's checks and its spend.
	type playbook struct {
		c       campaign.Record
		product *catalog.Product
		unit    int64
		checks  []campaign.Check
		// auto are why auto-approve leaves the playbook's gifts to a person.
		auto  []campaign.Check
		spend *campaign.Spend
	}
	playbooks := map[string]*playbook{}
	var ids []string
	for _, r := range rows {
		if _, ok := playbooks[r.Campaign.ID]; ok {
			continue
		}
		c, err := campaign.RecordFromRow(r.Campaign)
		if err != nil {
			return nil, core.Internal(err)
		}
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return nil, err
		}
		pb := &playbook{c: c, product: product, checks: campaign.GiftChecks(c, product, mode), spend: &campaign.Spend{}}
		if product != nil {
			pb.unit = product.UnitCents()
		}
		pb.auto = campaign.AutoApproveChecks(c.AutoApprove, c, product, pb.unit)
		playbooks[c.ID] = pb
		ids = append(ids, c.ID)
	}

	now := a.Clock.Now().UTC()
	com, err := q.SendCommitmentsByCampaigns(ctx, db.SendCommitmentsByCampaignsParams{
		MonthStart: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), CampaignIds: ids,
	})
	if err != nil {
		return nil, core.Internal(err)
	}
	for _, s := range com {
		if pb, ok := playbooks[s.CampaignID]; ok {
			*pb.spend = campaign.Spend{SentCount: int(s.SentCount), SpentCents: s.SpentCents, MonthCents: s.MonthCents}
		}
	}
	priors, err := q.SendPriorForCampaigns(ctx, db.SendPriorForCampaignsParams{Mode: string(mode), CampaignIds: ids, QueuedOnly: true})
	if err != nil {
		return nil, core.Internal(err)
	}
	prior := make(map[string]string, len(priors))
	for _, r := range priors {
		prior[r.RecipientID] = r.SendID
	}
	balance, err := q.BalanceGet(ctx, db.BalanceGetParams{WorkspaceID: workspaceID, Mode: string(mode)})
	if err != nil && !core.IsNoRows(err) {
		return nil, core.Internal(err)
	}

	out := make([]queueEntry, 0, len(rows))
	// The people who wait only for funds: what they cost together, and
	// where they are in out, to say how much to add once all are counted.
	var fundsCents int64
	var fundsWait []int
	for _, r := range rows {
		pb := playbooks[r.Campaign.ID]
		who, err := campaign.PersonFromRow(r.Recipient)
		if err != nil {
			return nil, core.Internal(err)
		}
		priorSend := ""
		if who.RepeatApprovedAt == nil {
			priorSend = prior[who.ID]
		}
		// Playbooks never have a prepaid offer: live people need an address.
		own := append(slices.Clone(pb.checks), campaign.PersonChecks(pb.c, pb.product, who, priorSend, mode, false)...)
		pb.spend.BalanceCents = balance
		limits := campaign.LimitChecks(pb.c, pb.unit, *pb.spend)
		if len(own) == 0 && len(limits) == 0 {
			pb.spend.Take(pb.unit)
			balance = pb.spend.BalanceCents
		}

		blockers := []string{}
		var first *campaign.Check
		for _, k := range append(own, limits...) {
			if k.Reason == campaign.ReasonProductUnverified {
				continue
			}
			if first == nil {
				first = &k
			}
			if b := k.Blocker(); !slices.Contains(blockers, b) {
				blockers = append(blockers, b)
			}
		}
		if first == nil {
			// Nothing stops a person approving: say why auto-approve left them.
			if len(pb.auto) > 0 {
				first = &pb.auto[0]
			}
		}
		why, waitsFor := readyWhy(r.Recipient.ApprovalState), campaign.ApprovalReason("")
		if first != nil {
			why, waitsFor = first.Why, first.Reason
		}
		if len(own) == 0 && onlyFunds(limits) {
			fundsCents += pb.unit
			fundsWait = append(fundsWait, len(out))
		}
		seq := int64(0)
		if r.Recipient.QueueSeq != nil {
			seq = *r.Recipient.QueueSeq
		}
		out = append(out, queueEntry{seq: seq, item: QueueItem{
			CampaignID: pb.c.ID, CampaignName: pb.c.Name, ProductID: pb.c.ProductID, RecipientID: who.ID,
			Recipient:  QueuePerson{Name: who.DisplayName(), Company: who.Company, Title: who.Title},
			Message:    campaign.PersonNote(pb.c.Message, who.Message, who.NoteValues()).Resolved,
			PriceCents: pb.unit, Blockers: blockers, Why: why, WaitsFor: waitsFor, State: campaign.ApprovalState(r.Recipient.ApprovalState),
			Reason: campaign.ApprovalReason(r.Recipient.ApprovalReason), ApprovalURL: a.Config.QueueURL(pb.c.ID),
			AutoApprove: pb.c.AutoApprove, QueuedAt: r.Recipient.CreatedAt.UTC(),
		}})
	}
	if len(fundsWait) > 0 {
		short := fundsCents - max(balance, 0)
		why := campaign.FundsWhy(short, len(fundsWait))
		for _, i := range fundsWait {
			out[i].item.Why = why
			out[i].item.FundsShortCents = short
			if out[i].item.AutoApprove.On() {
				out[i].item.Why += " " + campaign.FundsRedecideWhy
			}
		}
	}
	return out, nil
}

// onlyFunds reports whether the balance is all that stops a gift: limits
// holds the low-balance check and nothing else.
func onlyFunds(limits []campaign.Check) bool {
	return len(limits) == 1 && limits[0].Reason == campaign.ReasonLowBalance
}

// readyWhy is what the queue says of a person nothing stops: approve, or
// (scheduled) auto-approve is deciding them.
func readyWhy(state string) string {
	if campaign.ApprovalState(state) == campaign.ApprovalScheduled {
		return "Auto-approve is deciding this gift now."
	}
	return "Nothing stops this gift: approve, or skip."
}

// queueCursor is the decoded form of an opaque list_queue cursor: the queue
// position of the last person of the page and the campaignId it was issued
// for. It reveals nothing the caller could not read; the checksum only
// catches edits.
type queueCursor struct {
	After      int64  `json:"a"`
	CampaignID string `json:"c,omitempty"`
}

func (c queueCursor) encode() string { return core.SealCursor(c, "", catalog.CursorCheckLen) }

func decodeQueueCursor(s string) (queueCursor, error) {
	var c queueCursor
	if !core.OpenCursor(s, "", catalog.CursorCheckLen, &c) || c.After < 1 {
		return queueCursor{}, core.Invalid("cursor", "is not a cursor from list_queue; pass nextCursor unchanged, or omit cursor to start from the beginning")
	}
	return c, nil
}
