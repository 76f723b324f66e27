package giftlink

import (
	"context"
	"math"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// AllRecords returns every record of campaign campaignID's selection q, in
// roster order, unpaged (q's Limit and Cursor are ignored), read on qs: a
// caller's transaction (a gift-link export selects its people with it). It
// returns the VALIDATION_ERROR of RecordsQuery.Check, NOT_FOUND naming id,
// or INTERNAL_ERROR. Access is the caller's to check.
func (s *Service) AllRecords(ctx context.Context, qs *db.Queries, p core.Principal, campaignID string, q RecordsQuery) ([]Record, error) {
	q.Limit, q.Cursor = 0, ""
	sel, err := q.selection()
	if err != nil {
		return nil, err
	}
	return s.allRecords(ctx, qs, p, campaignID, sel)
}

// RecordsOf returns the current records of campaign campaignID's roster
// people recipientIDs (any number; people no longer on the roster are left
// out), in roster order, read on qs. It returns NOT_FOUND naming id, or
// INTERNAL_ERROR. Access is the caller's to check.
func (s *Service) RecordsOf(ctx context.Context, qs *db.Queries, p core.Principal, campaignID string, recipientIDs []string) ([]Record, error) {
	if len(recipientIDs) == 0 {
		if _, err := getCampaign(ctx, qs, p.WorkspaceID, campaignID); err != nil {
			return nil, err
		}
		return []Record{}, nil
	}
	return s.allRecords(ctx, qs, p, campaignID, selection{recipientIDs: recipientIDs, giftIDs: []string{}})
}

// allRecords reads every record of sel.
func (s *Service) allRecords(ctx context.Context, qs *db.Queries, p core.Principal, campaignID string, sel selection) ([]Record, error) {
	c, err := getCampaign(ctx, qs, p.WorkspaceID, campaignID)
	if err != nil {
		return nil, err
	}
	rows, err := qs.GiftLinkRecordList(ctx, db.GiftLinkRecordListParams{
		RecipientIds: sel.recipientIDs, GiftIds: sel.giftIDs, Pattern: sel.pattern, Availability: string(sel.availability),
		AfterPosition: -1, AfterID: "", RowLimit: math.MaxInt32,
		Now: s.Clock.Now(), WorkspaceID: p.WorkspaceID, CampaignID: c.ID,
	})
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]Record, 0, len(rows))
	for _, r := range rows {
		out = append(out, s.record(r, c, p.Mode))
	}
	return out, nil
}
