package giftlink_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/sql/db"
)

// race runs every fn at once and returns their errors.
func race(fns ...func() error) []error {
	errs := make([]error, len(fns))
	var start, done sync.WaitGroup
	start.Add(1)
	for i, fn := range fns {
		done.Go(func() {
			start.Wait()
			errs[i] = fn()
		})
	}
	start.Done()
	done.Wait()
	return errs
}

// requireOneWinner checks that exactly one of errs is nil and that every
// other is INVALID_REQUEST_STATE, and returns the winner's index.
func requireOneWinner(t *testing.T, errs []error) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		if err == nil {
			require.Equal(t, -1, winner, "two answers won: %v", errs)
			winner = i
			continue
		}
		require.Equal(t, core.CodeInvalidRequestState, core.ErrorCode(err), "%v", err)
	}
	require.NotEqual(t, -1, winner, "no answer won: %v", errs)
	return winner
}

func TestConcurrentAnswersOneWins(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	links := g.env.App.GiftLinks

	t.Run("eight declines credit once", func(t *testing.T) {
		sendID, token := g.gift("declines")
		fns := make([]func() error, 8)
		pages := make([]giftlink.Page, len(fns))
		for i := range fns {
			fns[i] = func() error {
				var err error
				pages[i], err = links.Decline(ctx, token, ip)
				return err
			}
		}
		w := requireOneWinner(t, race(fns...))
		for i, page := range pages {
			if i != w {
				require.Equal(t, giftlink.Page{State: giftlink.PageUsed}, page, "the losers see the used page")
			}
		}
		require.Equal(t, 1, g.credits(sendID))
		require.Len(t, g.eventData(sendID, core.EventSendStatusChanged), 1)
	})

	t.Run("confirm against decline", func(t *testing.T) {
		for n := range 4 {
			sendID, token := g.gift("mixed" + string(rune('a'+n)))
			w := requireOneWinner(t, race(
				func() error { _, err := links.Confirm(ctx, token, ip, goodAddress()); return err },
				func() error { _, err := links.Decline(ctx, token, ip); return err },
				func() error { _, err := links.Confirm(ctx, token, ip, goodAddress()); return err },
			))
			sent, err := g.env.App.Gifts.Get(ctx, g.key, sendID)
			require.NoError(t, err)
			_, addrErr := db.New(g.env.App.DB).GiftAddressGet(ctx, sendID)
			if w == 1 {
				require.Equal(t, gift.SendDeclined, sent.Status)
				require.True(t, core.IsNoRows(addrErr))
				require.Equal(t, 1, g.credits(sendID))
			} else {
				require.Equal(t, gift.SendReady, sent.Status)
				require.NoError(t, addrErr)
				require.Equal(t, 0, g.credits(sendID))
				require.Len(t, g.eventData(sendID, core.EventSendAddressConfirmed), 1)
			}
			require.Len(t, g.eventData(sendID, core.EventSendStatusChanged), 1)
		}
	})

	t.Run("confirm against revoke", func(t *testing.T) {
		for n := range 4 {
			sendID, token := g.gift("revoke" + string(rune('a'+n)))
			var confirmed giftlink.Page
			w := requireOneWinner(t, race(
				func() error {
					var err error
					confirmed, err = links.Confirm(ctx, token, ip, goodAddress())
					return err
				},
				func() error { return revoke(ctx, g, sendID) },
			))
			sent, err := g.env.App.Gifts.Get(ctx, g.key, sendID)
			require.NoError(t, err)
			l, err := links.SendLink(ctx, g.owner, sendID)
			require.NoError(t, err)
			if w == 0 {
				require.Equal(t, gift.SendReady, sent.Status)
				require.Equal(t, giftlink.LinkUsed, l.LinkState)
			} else {
				require.Equal(t, giftlink.Page{State: giftlink.PageRevoked}, confirmed)
				require.Equal(t, gift.SendAwaitingAddress, sent.Status)
				require.Equal(t, giftlink.LinkRevoked, l.LinkState)
			}
		}
	})
}

// revoke is the sender's revoke of the link's first generation, by key.
func revoke(ctx context.Context, g *linkGifts, sendID string) error {
	_, err := g.env.App.GiftLinks.Revoke(ctx, g.key, sendID, 1)
	return err
}
