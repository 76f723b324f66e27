package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// QuoteTTL is how long a legacy quote can be committed (the spec's Limits).
const QuoteTTL = 15 * time.Minute

// QuoteItem is one gift of a legacy quote: a roster person and its price.
type QuoteItem struct {
	RecipientID   string `json:"recipientId" jsonschema:"the roster person"`
	RecipientName string `json:"recipientName" jsonschema:"their name"`
	UnitCents     int64  `json:"unitCents" jsonschema:"the gift's price in USD cents (priceCents + shippingCents)"`
}

// Quote is a legacy per-gift quote of a campaign's roster (quote_send),
// kept for QuoteTTL; commit_send turns it into gifts paid from the balance.
type Quote struct {
	ID               string      `json:"quoteId" jsonschema:"the quote (quo_...); pass it to commit_send"`
	CampaignID       string      `json:"campaignId" jsonschema:"the campaign"`
	PolicyVersion    int64       `json:"policyVersion" jsonschema:"the campaign version quoted; any edit voids the quote"`
	Mode             core.Mode   `json:"mode" jsonschema:"test or live, as quoted" schema:"enum=test|live"`
	Items            []QuoteItem `json:"items" jsonschema:"one gift per roster person without a gift"`
	TotalCents       int64       `json:"totalCents" jsonschema:"the sum of the items, USD cents, charged to the balance on commit"`
	Currency         string      `json:"currency" jsonschema:"always usd"`
	DeliveryIncluded bool        `json:"deliveryIncluded" jsonschema:"false when delivery is quoted later (the total excludes it and may rise)"`
	ExpiresAt        time.Time   `json:"expiresAt" jsonschema:"after this, quote again"`
	// SendIDs are the gifts the quote became, once committed.
	SendIDs []string `json:"sendIds,omitempty" jsonschema:"the gifts commit_send created; absent until committed"`
}

// quoteFromRow maps a stored quote.
func quoteFromRow(r db.SendQuote, deliveryIncluded bool) (Quote, error) {
	q := Quote{
		ID: r.ID, CampaignID: r.CampaignID, PolicyVersion: r.PolicyVersion, Mode: core.Mode(r.Mode),
		TotalCents: r.TotalCents, Currency: "usd", DeliveryIncluded: deliveryIncluded, ExpiresAt: r.ExpiresAt, SendIDs: r.SendIds,
	}
	if err := json.Unmarshal(r.Items, &q.Items); err != nil {
		return Quote{}, core.Internal(err)
	}
	return q, nil
}

// QuoteSend quotes campaign id for p (quote_send, the legacy flow): one
// gift per roster person without a gift who was not skipped, at the
// gift's price, saved for QuoteTTL. The roster must be ready: a batch or
// single campaign whose preview has no blocker. Nothing is charged. It
// returns NOT_FOUND, APPROVAL_REQUIRED for a playbook (its gifts are made
// only through approval), CAMPAIGN_COMPLETED, INVALID_REQUEST_STATE (id)
// naming the first blocker or an empty roster, and the codes of Authorize.
func (a *Service) QuoteSend(ctx context.Context, p core.Principal, id string) (Quote, error) {
	if err := core.Authorize(p, core.ActReadWorkspaceDetails, ""); err != nil {
		return Quote{}, err
	}
	var out Quote
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, id)
		if err != nil {
			return err
		}
		switch {
		case c.Mode.Playbook():
			return &core.Error{Code: core.CodeApprovalRequired, URL: a.Config.QueueURL(c.ID),
				Message: fmt.Sprintf("campaign %s is a playbook: its gifts are made only through approval, never from a quote", c.ID)}
		case c.Status == campaign.StatusCompleted:
			return campaign.CampaignCompleted(c.ID)
		}
		mode := campaign.ModeOf(p)
		pv, _, roster, err := a.Campaigns.LoadPreview(ctx, q, c, mode)
		if err != nil {
			return err
		}
		switch {
		case len(pv.Blockers) > 0:
			b := pv.Blockers[0]
			return core.FieldError(core.CodeInvalidRequestState, "id",
				"campaign %s is not ready to quote (%d blockers); first: %s. See preview_campaign", c.ID, len(pv.Blockers), b.Message)
		case pv.ToSend == 0:
			return core.FieldError(core.CodeInvalidRequestState, "id", "campaign %s has nobody left to gift", c.ID)
		}
		items := []QuoteItem{}
		for _, who := range roster.Owed() {
			items = append(items, QuoteItem{RecipientID: who.ID, RecipientName: who.DisplayName(), UnitCents: pv.UnitCents})
		}
		raw, err := json.Marshal(items)
		if err != nil {
			return core.Internal(err)
		}
		now := a.Clock.Now()
		row := db.SendQuote{
			ID: core.NewID(core.PrefixQuote), WorkspaceID: p.WorkspaceID, CampaignID: c.ID, Mode: string(mode),
			PolicyVersion: c.PolicyVersion, Items: raw, TotalCents: pv.TotalCents, CreatedAt: now, ExpiresAt: now.Add(QuoteTTL),
		}
		if err := q.SendQuoteInsert(ctx, db.SendQuoteInsertParams{
			ID: row.ID, WorkspaceID: row.WorkspaceID, CampaignID: row.CampaignID, Mode: row.Mode, PolicyVersion: row.PolicyVersion,
			Items: row.Items, TotalCents: row.TotalCents, CreatedAt: row.CreatedAt, ExpiresAt: row.ExpiresAt,
		}); err != nil {
			return core.Internal(err)
		}
		out, err = quoteFromRow(row, pv.DeliveryIncluded)
		return err
	})
	return out, core.AsCoreError(err)
}

// CommitSend turns quote quoteID into gifts for p, a signed-in owner or
// admin (commit_send): each item becomes a gift at its quoted price, paid
// from the balance, all or nothing, in one transaction. Committing a
// committed quote returns it with the same gifts. It returns NOT_FOUND
// (quoteId), INVALID_REQUEST_STATE (quoteId) for an expired quote, a
// workspace mode that changed, or a person who got a gift meanwhile,
// POLICY_CHANGED when the campaign changed since the quote,
// CAMPAIGN_COMPLETED, CHECKOUT_LOCKED, the gift's refusals (GIFT_RETIRED,
// ...), 402 INSUFFICIENT_BALANCE, and the codes of Authorize (ActPay).
func (a *Service) CommitSend(ctx context.Context, p core.Principal, quoteID string) (Quote, error) {
	if err := core.Authorize(p, core.ActPay, a.Config.SiteURL+"/campaigns"); err != nil {
		return Quote{}, err
	}
	var out Quote
	err := a.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		row, err := q.SendQuoteGetForUpdate(ctx, db.SendQuoteGetForUpdateParams{WorkspaceID: p.WorkspaceID, ID: quoteID})
		if core.IsNoRows(err) {
			return core.FieldError(core.CodeNotFound, "quoteId", "no quote %s in this workspace", quoteID)
		}
		if err != nil {
			return core.Internal(err)
		}
		c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, row.CampaignID)
		if err != nil {
			return err
		}
		product, err := a.Campaigns.StoredProduct(ctx, c.ProductID)
		if err != nil {
			return err
		}
		delivery := product == nil || !product.ShippingQuoteRequired
		if row.CommittedAt != nil {
			out, err = quoteFromRow(row, delivery)
			return err
		}
		now := a.Clock.Now()
		mode := campaign.ModeOf(p)
		switch {
		case !now.Before(row.ExpiresAt):
			return core.FieldError(core.CodeInvalidRequestState, "quoteId",
				"quote %s expired at %s; quote again with quote_send", row.ID, row.ExpiresAt.Format(time.RFC3339))
		case core.Mode(row.Mode) != mode:
			return core.FieldError(core.CodeInvalidRequestState, "quoteId", "quote %s was made in %s mode; the workspace is now %s: quote again", row.ID, row.Mode, mode)
		case c.Status == campaign.StatusCompleted:
			return campaign.CampaignCompleted(c.ID)
		case c.PolicyVersion != row.PolicyVersion:
			return campaign.PolicyChanged(c.PolicyVersion)
		}
		if err := a.Campaigns.CheckoutLock(ctx, q, c); err != nil {
			return err
		}
		if ks := campaign.GiftChecks(c, product, mode); len(ks) > 0 {
			return a.Campaigns.ApprovalError(ks[0], c.ID, product)
		}
		quote, err := quoteFromRow(row, delivery)
		if err != nil {
			return err
		}
		roster, err := campaign.LoadRoster(ctx, q, c.ID)
		if err != nil {
			return err
		}
		byID := map[string]campaign.Person{}
		for _, who := range roster.People {
			byID[who.ID] = who
		}
		ids := make([]string, 0, len(quote.Items))
		for _, it := range quote.Items {
			who, ok := byID[it.RecipientID]
			if !ok || roster.SendOf[it.RecipientID] != "" {
				return core.FieldError(core.CodeInvalidRequestState, "quoteId",
					"%s (%s) is no longer owed a gift; quote again", it.RecipientID, it.RecipientName)
			}
			g, err := a.createGift(ctx, tx, giftParams{
				c: c, who: who, unitCents: it.UnitCents, mode: mode, fundedBy: gift.FundedByBalance, approvedBy: p.UserID,
			})
			if err != nil {
				return err
			}
			ids = append(ids, g.ID)
		}
		if err := q.SendQuoteCommit(ctx, db.SendQuoteCommitParams{SendIds: ids, CommittedAt: &now, CommittedBy: p.UserID, ID: row.ID}); err != nil {
			return core.Internal(err)
		}
		quote.SendIDs = ids
		out = quote
		return nil
	})
	return out, core.AsCoreError(err)
}
