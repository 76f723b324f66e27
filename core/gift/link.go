package gift

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// GiftLinkLifetime is how long a gift link works after its creation (or
// its regift).
const GiftLinkLifetime = core.GiftLinkExpiryDays * 24 * time.Hour

// CreateGiftLink gives gift sendID of campaign campaignID, whose recipient
// confirms their own address, its link in the caller's transaction:
// generation 1, a random salt, the token's hash (never the token) and 14
// days from now. core/giftlink does everything else with it.
func (a *Service) CreateGiftLink(ctx context.Context, q *db.Queries, workspaceID, campaignID, sendID string, now time.Time) error {
	if err := a.newGiftLink(ctx, q, workspaceID, campaignID, sendID, now); err != nil {
		return err
	}
	if err := q.SendSetLinkGeneration(ctx, db.SendSetLinkGenerationParams{Generation: 1, ID: sendID}); err != nil {
		return core.Internal(err)
	}
	return nil
}

// newGiftLink is CreateGiftLink for a gift inserted with its link's
// generation (1) already: the link and its token, not the gift.
func (a *Service) newGiftLink(ctx context.Context, q *db.Queries, workspaceID, campaignID, sendID string, now time.Time) error {
	salt := core.RandomBytes(core.LinkSaltBytes)
	if err := q.GiftLinkInsert(ctx, db.GiftLinkInsertParams{
		SendID: sendID, WorkspaceID: workspaceID, CampaignID: campaignID, TokenSalt: salt,
		CreatedAt: now, ExpiresAt: now.Add(GiftLinkLifetime),
	}); err != nil {
		return core.Internal(err)
	}
	return AddGiftLinkToken(ctx, q, a.Config, sendID, 1, salt)
}

// AddGiftLinkToken records the hash of generation gen's token of gift
// sendID's link, so that opening it finds the gift.
func AddGiftLinkToken(ctx context.Context, q *db.Queries, cfg core.Config, sendID string, gen int32, salt []byte) error {
	token := cfg.GiftLinkToken(sendID, gen, salt)
	if err := q.GiftLinkTokenInsert(ctx, db.GiftLinkTokenInsertParams{
		TokenHash: core.GiftLinkTokenHash(token), SendID: sendID, Generation: gen,
	}); err != nil {
		return core.Internal(err)
	}
	return nil
}
