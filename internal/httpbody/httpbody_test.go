package httpbody_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/httpbody"
)

// counted is a body that counts the bytes read from it.
type counted struct {
	r io.Reader
	n atomic.Int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *counted) Close() error { return nil }

func request(size int, declared int64) (*http.Request, *counted) {
	body := &counted{r: bytes.NewReader(bytes.Repeat([]byte("x"), size))}
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	r.Body, r.ContentLength = body, declared
	return r, body
}

func TestReadKeepsBodiesWithinTheLimit(t *testing.T) {
	t.Parallel()
	r, _ := request(10, 10)
	w := httptest.NewRecorder()
	b, err := httpbody.Read(w, r, 10)
	require.NoError(t, err)
	require.Equal(t, "xxxxxxxxxx", string(b))
	require.Empty(t, w.Header().Get("Connection"))
}

// TestReadDrainsAnOversizeBody: a body over the limit, declared or not, is
// read on to its end (up to MaxDrainBytes) and the connection is to close.
func TestReadDrainsAnOversizeBody(t *testing.T) {
	t.Parallel()
	for _, declared := range []int64{4 << 20, -1} {
		r, body := request(4<<20, declared)
		w := httptest.NewRecorder()
		_, err := httpbody.Read(w, r, 1<<20)
		require.ErrorIs(t, err, httpbody.ErrTooLarge)
		require.Equal(t, "close", w.Header().Get("Connection"))
		require.EqualValues(t, 4<<20, body.n.Load(), "declared %d", declared)
	}
	// Beyond the drain bound: an undeclared body is read up to the bound,
	// a declared one not at all.
	r, body := request(12<<20, -1)
	_, err := httpbody.Read(httptest.NewRecorder(), r, 1<<20)
	require.ErrorIs(t, err, httpbody.ErrTooLarge)
	require.EqualValues(t, 1<<20+1+httpbody.MaxDrainBytes, body.n.Load())
	r, body = request(12<<20, 12<<20)
	_, err = httpbody.Read(httptest.NewRecorder(), r, 1<<20)
	require.ErrorIs(t, err, httpbody.ErrTooLarge)
	require.Zero(t, body.n.Load())
	// A client waiting for 100 Continue never sends the body: nothing is read.
	r, body = request(4<<20, 4<<20)
	r.Header.Set("Expect", "100-continue")
	_, err = httpbody.Read(httptest.NewRecorder(), r, 1<<20)
	require.ErrorIs(t, err, httpbody.ErrTooLarge)
	require.Zero(t, body.n.Load())
}

func TestReadPassesOtherErrorsOn(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest(http.MethodPost, "/", io.MultiReader(strings.NewReader("ab"), iotestErr{}))
	_, err := httpbody.Read(httptest.NewRecorder(), r, 10)
	require.ErrorIs(t, err, errBroken)
}

var errBroken = errors.New("broken")

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errBroken }

// TestDrainAfterReadsWhatTheHandlerLeft: an answer given before the body
// was read still lets the rest of the body be read, up to MaxDrainBytes.
func TestDrainAfterReadsWhatTheHandlerLeft(t *testing.T) {
	t.Parallel()
	refuse := httpbody.DrainAfter(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	r, body := request(3<<20, 3<<20)
	w := httptest.NewRecorder()
	refuse.ServeHTTP(w, r)
	require.Equal(t, http.StatusUnauthorized, w.Code)
	require.EqualValues(t, 3<<20, body.n.Load())

	r, body = request(12<<20, -1)
	refuse.ServeHTTP(httptest.NewRecorder(), r)
	require.EqualValues(t, httpbody.MaxDrainBytes, body.n.Load())
}
