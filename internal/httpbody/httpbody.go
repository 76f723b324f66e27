// Package httpbody reads request bodies under a limit so that a client
// sending too much still reads the answer. Refusing a body without reading
// it makes the server close the connection under a client that is still
// sending, and the client sees a broken pipe or a reset instead of the 413.
// Read reads what is left of a refused body, up to MaxDrainBytes, before
// the answer goes out, and marks the connection to be closed after it;
// DrainAfter reads what a handler left unread, for every other answer given
// before a body was read (a 401, 404 or 415).
package httpbody

import (
	"errors"
	"io"
	"net/http"
	"strings"
)

// MaxDrainBytes is the most of a refused body that is read and thrown away
// so that its answer reaches the client. A body declared longer is not read
// at all: the connection is closed after the answer.
const MaxDrainBytes = 8 << 20

// ErrTooLarge is Read's error for a body over its limit.
var ErrTooLarge = errors.New("httpbody: the body is over the limit")

// Read returns r's body when it is at most limit bytes. A longer body,
// declared by Content-Length or found while reading, is refused and Read
// returns ErrTooLarge: the response is marked Connection: close and up to
// MaxDrainBytes of what is left of the body is read and thrown away first.
// Any other read error is returned as it is.
func Read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		drain(r, r.Body, false)
		return nil, ErrTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		w.Header().Set("Connection", "close")
		drain(r, r.Body, true)
		return nil, ErrTooLarge
	}
	return b, nil
}

// DrainAfter serves next, then reads and throws away up to MaxDrainBytes of
// whatever of the request body next left unread, before the server sends
// the answer. Without it the server reads at most 256 KiB of an unread body
// and then closes the connection, which a client still sending sees as an
// error instead of the answer.
func DrainAfter(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := &watched{ReadCloser: r.Body}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = body
		}
		next.ServeHTTP(w, r)
		if body.ReadCloser != nil {
			drain(r, body.ReadCloser, body.started)
		}
	})
}

// watched records whether a body has been read from.
type watched struct {
	io.ReadCloser
	started bool
}

// Read implements io.Reader.
func (b *watched) Read(p []byte) (int, error) {
	b.started = true
	return b.ReadCloser.Read(p)
}

// drain discards up to MaxDrainBytes of body. It reads nothing when the
// body is declared longer, or when the client waits for 100 Continue
// and nothing has been read yet (it then never sends the body).
func drain(r *http.Request, body io.Reader, started bool) {
	if body == nil || body == http.NoBody || r.ContentLength == 0 || r.ContentLength > MaxDrainBytes {
		return
	}
	if !started && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		return
	}
	_, _ = io.CopyN(io.Discard, body, MaxDrainBytes)
}
