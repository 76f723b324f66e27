package approval

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

const (
	// groupTimeout bounds one group's transaction.
	groupTimeout = 10 * time.Second
	// groupLockWait is how long a group waits for a lock (a playbook a
	// campaign write holds, or the balance) before it gives up and leaves
	// its people to the approval job.
	groupLockWait = "2s"
)

// groupPlaybook is one playbook of a group, locked, with what its people's
// decisions spend so far.
type groupPlaybook struct {
	c       campaign.Record
	product *catalog.Product
	unit    int64
	spend   campaign.Spend
}

// decideGroup decides the people of asks, all of balance key, in one
// transaction (decideGroupTx) and answers every ask: a failed group leaves
// its people scheduled, to the approval job inserted with them.
func (a *Service) decideGroup(key groupKey, asks []groupAsk) {
	ctx, cancel := context.WithTimeout(context.Background(), groupTimeout)
	defer cancel()
	var decided map[string]autoDecision
	err := core.InPipeline(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		decided, err = a.decideGroupTx(ctx, tx, key, asks)
		return err
	})
	if err != nil {
		a.Log.Error("group commit failed: the approval jobs decide these people", "workspace", key.workspaceID, "people", len(asks), "err", err)
		decided = nil
		a.queueApprovalJobs(ctx, key, asks)
	}
	for _, ask := range asks {
		d, ok := decided[ask.recipientID]
		if !ok {
			d = autoDecision{state: campaign.ApprovalScheduled}
		}
		ask.answer <- groupAnswer{decision: d, decided: ok}
	}
}

// queueApprovalJobs queues the approval job of each playbook of asks,
// whose group failed, so that their people are decided all the same. A
// failure here is logged: the minute's sweep queues them.
func (a *Service) queueApprovalJobs(ctx context.Context, key groupKey, asks []groupAsk) {
	var ids []string
	for _, ask := range asks {
		ids = append(ids, ask.campaignID)
	}
	slices.Sort(ids)
	// The group's own time may be what ran out.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), groupTimeout)
	defer cancel()
	for _, id := range slices.Compact(ids) {
		err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
			return a.Campaigns.ScheduleApprovals(ctx, tx, key.workspaceID, id)
		})
		if err != nil {
			a.Log.Error("group commit failed: queue the approval job", "campaign", id, "err", err)
		}
	}
}

// decideGroupTx decides, in tx, the people of asks who are still scheduled
// and whom no one else holds, in the order approval jobs lock: their
// playbooks (shared, as adds share them; in ID order, in one statement),
// the people (SKIP
// LOCKED: anyone the approval job holds is left to it), then the balance,
// once. Each person, in queue order, gets the checks decideAuto runs, the
// limits read against what the group's earlier gifts spent and a gift the
// group made for the same person through another playbook counted as
// their prior gift (groupGifted); those who pass
// are paid in one write (gift.CreateMany: one debit each, one balance
// update) and the rest start waiting with their first failing check's
// reason. It returns the decision of every person decided.
func (a *Service) decideGroupTx(ctx context.Context, tx pgx.Tx, key groupKey, asks []groupAsk) (map[string]autoDecision, error) {
	q := db.New(tx)
	if err := q.TxSetLockTimeout(ctx, groupLockWait); err != nil {
		return nil, core.Internal(err)
	}
	people := make([]string, 0, len(asks))
	by := make(map[string]campaign.Preparer, len(asks))
	var campaignIDs []string
	for _, ask := range asks {
		people = append(people, ask.recipientID)
		by[ask.recipientID] = ask.by
		campaignIDs = append(campaignIDs, ask.campaignID)
	}
	slices.Sort(campaignIDs)
	locked, err := q.CampaignListForShare(ctx, db.CampaignListForShareParams{WorkspaceID: key.workspaceID, Ids: slices.Compact(campaignIDs)})
	if err != nil {
		return nil, core.AsCoreError(err)
	}
	playbooks := map[string]*groupPlaybook{} // a playbook deleted meanwhile took its people with it
	var ids []string
	for _, row := range locked {
		c, err := campaign.RecordFromRow(row)
		if err != nil {
			return nil, core.Internal(err)
		}
		if !c.Mode.Playbook() || c.Status != campaign.StatusActive {
			continue // turned off meanwhile: turning it on again queues its job
		}
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return nil, err
		}
		pb := &groupPlaybook{c: c, product: product}
		if product != nil {
			pb.unit = product.UnitCents()
		}
		playbooks[c.ID] = pb
		ids = append(ids, c.ID)
	}
	if len(playbooks) == 0 {
		return nil, nil
	}
	rows, err := q.RecipientClaimForDecision(ctx, db.RecipientClaimForDecisionParams{WorkspaceID: key.workspaceID, Ids: people})
	if err != nil {
		return nil, core.Internal(err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	balance, err := a.Ledger.LockBalance(ctx, q, key.workspaceID, key.mode)
	if err != nil {
		return nil, err
	}
	// Read under the balance lock, as decideAuto does: every gift is
	// created under it.
	now := a.Clock.Now().UTC()
	com, err := q.SendCommitmentsByCampaigns(ctx, db.SendCommitmentsByCampaignsParams{
		MonthStart: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), CampaignIds: ids,
	})
	if err != nil {
		return nil, core.Internal(err)
	}
	for _, row := range com {
		if pb := playbooks[row.CampaignID]; pb != nil {
			pb.spend = campaign.Spend{SentCount: int(row.SentCount), SpentCents: row.SpentCents, MonthCents: row.MonthCents}
		}
	}
	priors, err := priorsOf(ctx, q, rows, key.mode)
	if err != nil {
		return nil, err
	}
	decided := map[string]autoDecision{}
	left := balance
	names := trailNames{}
	gifted := groupGifted{}
	var news []gift.New
	for _, row := range rows {
		pb := playbooks[row.CampaignID]
		if pb == nil {
			continue
		}
		who, err := campaign.PersonFromRow(row)
		if err != nil {
			return nil, core.Internal(err)
		}
		who.Prepared = namedPreparer(who.Prepared, by[who.ID])
		prior := priors[who.ID]
		if prior == "" && who.RepeatApprovedAt == nil {
			prior = gifted.priorOf(pb.c.ID, who)
		}
		reason := checksWithPrior(pb.c, pb.product, who, prior, key.mode)
		if reason == "" {
			pb.spend.BalanceCents = left
			if ks := campaign.LimitChecks(pb.c, pb.unit, pb.spend); len(ks) > 0 {
				reason = ks[0].Reason
			}
		}
		if reason != "" {
			d := autoDecision{state: campaign.ApprovalWaiting, reason: reason}
			if err := a.settleDecision(ctx, tx, pb.c, who.ID, campaign.ApprovalScheduled, "", d, key.mode); err != nil {
				return nil, err
			}
			decided[who.ID] = d
			continue
		}
		n, err := newGiftOf(ctx, q, giftParams{
			c: pb.c, who: who, unitCents: pb.unit, mode: key.mode, fundedBy: gift.FundedByBalance, autoApproved: true,
		}, names)
		if err != nil {
			return nil, err
		}
		n.ID = core.NewID(core.PrefixSend)
		gifted.add(pb.c.ID, who, n.ID)
		news = append(news, n)
		pb.spend.BalanceCents = left
		pb.spend.Take(pb.unit)
		left -= pb.unit
	}
	gifts, err := a.Gifts.CreateMany(ctx, tx, balance, news)
	if err != nil {
		return nil, err
	}
	if len(gifts) > 0 {
		approved := make([]string, len(gifts))
		for i, g := range gifts {
			approved[i] = g.RecipientID
			decided[g.RecipientID] = autoDecision{state: campaign.ApprovalAutoApproved, gift: g}
		}
		if err := q.RecipientSetApprovedMany(ctx, db.RecipientSetApprovedManyParams{
			ApprovalState: string(campaign.ApprovalAutoApproved), UpdatedAt: gifts[0].CreatedAt,
			WorkspaceID: key.workspaceID, Ids: approved,
		}); err != nil {
			return nil, core.Internal(err)
		}
	}
	return decided, nil
}

// priorsOf is, for the people of rows not yet approved as repeats, the
// earlier gift that makes each an unapproved repeat (unapprovedPrior's
// rule), read in one statement.
func priorsOf(ctx context.Context, q *db.Queries, rows []db.Recipient, mode core.Mode) (map[string]string, error) {
	var ids []string
	for _, r := range rows {
		if r.RepeatApprovedAt == nil {
			ids = append(ids, r.ID)
		}
	}
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	found, err := q.SendPriorForRecipients(ctx, db.SendPriorForRecipientsParams{Mode: string(mode), RecipientIds: ids})
	if err != nil {
		return nil, core.Internal(err)
	}
	for _, f := range found {
		out[f.RecipientID] = f.SendID
	}
	return out, nil
}

// namedPreparer is stored, who added a person as their row records it,
// with the names of added, who the add's request says added them, when
// both are the same credential: the names read when that request was
// authenticated, so the gift's trail reads none (GiftTrailNames).
func namedPreparer(stored, added campaign.Preparer) campaign.Preparer {
	if stored.Names == nil && added.Names != nil &&
		stored.Via == added.Via && stored.CredentialID == added.CredentialID && stored.UserID == added.UserID {
		stored.Names = added.Names
	}
	return stored
}
