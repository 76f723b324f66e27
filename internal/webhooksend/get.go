package webhooksend

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Answer is the answer to Get: its status, header and body.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Get GETs rawURL with header under the rule Send follows (the allowed
// prefixes; otherwise https to public addresses only, checked again at the
// dial; no proxy; a redirect is answered as its 3xx status, never
// followed), within the timeout. It reads the body up to the response
// bound (Options.MaxResponseBytes); a longer body is an error, as is every
// attempt that got no status (the short texts of Send). Other systems'
// documents that Giftwell reads (client ID metadata documents) come
// through it.
func (c *Client) Get(ctx context.Context, rawURL string, header http.Header) (Answer, error) {
	u, client, err := c.clientFor(rawURL)
	if err != nil {
		return Answer{}, err
	}
	getCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(getCtx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Answer{}, fmt.Errorf("refused: %w", err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, fmt.Errorf("cancelled: %w", ctx.Err())
		}
		return Answer{}, c.failure(ctx, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResponse+1))
	if err != nil {
		return Answer{}, c.failure(ctx, err)
	}
	if int64(len(body)) > c.maxResponse {
		return Answer{}, fmt.Errorf("the answer is larger than %d bytes", c.maxResponse)
	}
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}
