package giftlink_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestGuessesAreThrottledPerClientAddress(t *testing.T) {
	t.Parallel()
	g := newLinkGifts(t)
	ctx := context.Background()
	links := g.env.App.GiftLinks
	_, token := g.gift("1")
	guess := strings.Repeat("B", 43)

	for i := range giftlink.GuessesPerWindow {
		var page giftlink.Page
		var err error
		switch i % 3 {
		case 0:
			page, err = links.Open(ctx, guess, ip)
		case 1:
			page, err = links.Open(ctx, "short", ip)
		default:
			page, err = links.Confirm(ctx, guess, ip, goodAddress())
			apptest.RequireCode(t, err, core.CodeNotFound)
			err = nil
		}
		require.NoError(t, err, "guess %d", i+1)
		require.Equal(t, giftlink.PageUnknown, page.State)
	}
	// Over the limit every request of the address is refused, a real
	// token's too, until the window ends.
	_, err := links.Open(ctx, guess, ip)
	e := apptest.RequireCode(t, err, core.CodeRateLimit)
	require.Positive(t, e.RetryAfterMs)
	require.LessOrEqual(t, e.RetryAfterMs, giftlink.GuessWindow.Milliseconds())
	_, err = links.Open(ctx, token, ip)
	apptest.RequireCode(t, err, core.CodeRateLimit)
	_, err = links.Decline(ctx, token, ip)
	apptest.RequireCode(t, err, core.CodeRateLimit)

	// Another address is not held back.
	page, err := links.Open(ctx, token, "198.51.100.9")
	require.NoError(t, err)
	require.Equal(t, giftlink.PageOpen, page.State)

	// A real token is no guess; after the window the address may try again.
	g.env.Clock.Advance(giftlink.GuessWindow)
	page, err = links.Open(ctx, token, ip)
	require.NoError(t, err)
	require.Equal(t, giftlink.PageOpen, page.State)

	n, err := links.PruneGuesses(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(1), n, "the ended window of %s", ip)
	n, err = links.PruneGuesses(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
}
