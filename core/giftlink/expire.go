package giftlink

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// expireBatch is how many links one sweep ends at most; the next sweep
// takes the rest.
const expireBatch = 500

// ExpireLinks ends the gifts whose links passed their 14 days unused: each
// moves from awaiting_address to expired (send.status_changed, no credit:
// docs/decisions/0066-gift-link-tokens-and-states.md), one transaction per
// gift, rechecked under its lock so a confirmation or regift that won the
// race stands. It returns how many gifts it ended.
func (s *Service) ExpireLinks(ctx context.Context) (int, error) {
	ids, err := db.New(s.DB).GiftLinkExpiredList(ctx, db.GiftLinkExpiredListParams{Now: s.Clock.Now(), MaxRows: expireBatch})
	if err != nil {
		return 0, core.Internal(err)
	}
	ended := 0
	for _, id := range ids {
		moved := false
		err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
			q := db.New(tx)
			r, err := q.GiftLinkGetForUpdate(ctx, id)
			if err != nil {
				return core.Internal(err)
			}
			v := linkView{link: r.GiftLink, send: r.Send}
			if v.state(s.Clock.Now()) != LinkExpired || v.send.Status != string(gift.SendAwaitingAddress) {
				return nil
			}
			_, err = s.Gifts.MoveGiftTx(ctx, tx, gift.GiftMove{
				SendID: id, To: gift.SendExpired, Reason: "the gift link expired unused",
			})
			moved = err == nil
			return err
		})
		if err != nil {
			return ended, err
		}
		if moved {
			ended++
		}
	}
	return ended, nil
}

// AddMissingLinks gives a link to every gift that waits for its
// recipient's address but has none (made before gift links existed); each
// works 14 days from now. serve runs it at start. It returns how many links
// it made.
func (s *Service) AddMissingLinks(ctx context.Context) (int, error) {
	rows, err := db.New(s.DB).GiftsWithoutLink(ctx)
	if err != nil {
		return 0, core.Internal(err)
	}
	for i, r := range rows {
		err := s.InTx(ctx, func(q *db.Queries) error {
			return s.Gifts.CreateGiftLink(ctx, q, r.WorkspaceID, r.CampaignID, r.ID, s.Clock.Now())
		})
		if err != nil {
			return i, err
		}
	}
	return len(rows), nil
}

// ExpireLinksArgs is the periodic River job of the expiry sweep.
type ExpireLinksArgs struct{}

// Kind names the job.
func (ExpireLinksArgs) Kind() string { return "expire_gift_links" }

// ExpireLinksWorker works ExpireLinksArgs jobs.
type ExpireLinksWorker struct {
	river.WorkerDefaults[ExpireLinksArgs]
	GiftLinks *Service
}

var _ river.Worker[ExpireLinksArgs] = (*ExpireLinksWorker)(nil)

// Work runs one sweep.
func (w *ExpireLinksWorker) Work(ctx context.Context, _ *river.Job[ExpireLinksArgs]) error {
	_, err := w.GiftLinks.ExpireLinks(ctx)
	return err
}
