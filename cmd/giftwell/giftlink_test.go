package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// A gift link's token never reaches the logs: the access line shows /g/
// and no more.
func TestGiftLinkTokensStayOutOfTheLogs(t *testing.T) {
	t.Parallel()
	require.Equal(t, "/g/[redacted]", loggedPath("/g/abc"))
	require.Equal(t, "/g/[redacted]", loggedPath("/g/abc/decline"))

	env := apptest.New(t)
	logs := &apptest.LogBuffer{}
	srv := httptest.NewServer(routes(env.App, newLoggerTo(logs)))
	t.Cleanup(srv.Close)
	token := strings.Repeat("Z", 43)
	res, err := http.Get(srv.URL + "/g/" + token)
	require.NoError(t, err)
	require.NoError(t, res.Body.Close())
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	lines := withID(logLines(t, logs.String()), res.Header.Get("X-Request-Id"))
	require.Len(t, lines, 1)
	require.Equal(t, "/g/[redacted]", lines[0]["path"])
	require.NotContains(t, logs.String(), token)
}

// The hourly housekeeping job forgets the gift-link guesses of windows
// that ended.
func TestHousekeepingPrunesGiftLinkGuesses(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	page, err := env.App.GiftLinks.Open(ctx, "guess", "203.0.113.7")
	require.NoError(t, err)
	require.Equal(t, giftlink.PageUnknown, page.State)
	env.Clock.Advance(giftlink.GuessWindow)

	w := &PruneSignInRecordsWorker{app: env.App}
	require.NoError(t, w.Work(ctx, &river.Job[PruneSignInRecordsArgs]{}))
	n, err := env.App.GiftLinks.PruneGuesses(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "the worker already removed the ended window")
}
