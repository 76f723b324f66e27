package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/httpbody"
	"github.com/giftwell/giftwell/tools"
)

// MaxBodyBytes is the largest request body the API reads (1 MiB).
const MaxBodyBytes = 1 << 20

type bodyKey struct{}

// bodyFrom returns the decoded JSON body the readBody middleware stored, or
// nil when the request had none.
func bodyFrom(ctx context.Context) map[string]any {
	m, _ := ctx.Value(bodyKey{}).(map[string]any)
	return m
}

// readBody is the request rules for an operation that has a request body:
// a body needs Content-Type application/json (415 UNSUPPORTED_MEDIA_TYPE),
// is at most MaxBodyBytes whether or not Content-Length says so (413
// REQUEST_TOO_LARGE, the connection closed after it: httpbody.Read), is valid JSON (400 INVALID_JSON) and is an object
// (400 VALIDATION_ERROR). An empty body stands for {}.
func (s *server) readBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := decodeBody(w, r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyKey{}, body)))
	})
}

// refuseBody is the request rule for an operation that takes no body (a
// launch, a DELETE, a GET): an empty body or {} passes; a body with fields
// is refused with VALIDATION_ERROR naming each field, as unknown fields are
// elsewhere, so that a client never believes a field it sent was applied.
// The body rules of readBody (415, 413, 400) apply to what is sent.
func (s *server) refuseBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := decodeBody(w, r)
		if err == nil && len(body) > 0 {
			var p problems
			keys := make([]string, 0, len(body))
			for k := range body {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				p.add(clip(k), "is not a known field; this operation takes no body")
			}
			err = p.err()
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refusesBody reports whether op takes no body and refuses one with fields
// (refuseBody): every operation that reads neither a JSON nor a raw body,
// but an input open to any field (tools.AnyFields: the retired routes),
// which ignores its body.
func refusesBody(op *operation) bool {
	return !op.bind.body && op.Raw == nil && (op.Input == nil || op.Input.AdditionalProperties != nil)
}

// decodeBody applies the body rules to r and returns the decoded object.
func decodeBody(w http.ResponseWriter, r *http.Request) (map[string]any, error) {
	if r.ContentLength == 0 {
		return nil, nil
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		return nil, core.Errorf(core.CodeUnsupportedMediaType, "the body must be sent with Content-Type: application/json")
	}
	raw, err := httpbody.Read(w, r, MaxBodyBytes)
	if errors.Is(err, httpbody.ErrTooLarge) {
		return nil, core.Errorf(core.CodeRequestTooLarge, "the body is larger than %d bytes (1 MiB)", MaxBodyBytes)
	}
	if err != nil {
		return nil, core.Errorf(core.CodeInvalidJSON, "body: could not be read in full")
	}
	return parseObject(raw)
}

// isJSON reports whether a Content-Type header is application/json (with
// any parameters).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// parseObject decodes a body that must be one JSON object. Zero bytes are no
// body (nil); anything else that is not a single JSON value is INVALID_JSON,
// and a value that is not an object is a VALIDATION_ERROR naming the body,
// as is a string or key holding a NUL or bytes that are not UTF-8 (naming
// the field).
func parseObject(raw []byte) (map[string]any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, invalidJSON(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return nil, core.Errorf(core.CodeInvalidJSON, "body: invalid JSON: more than one value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, core.Invalid("body", "must be a JSON object")
	}
	// The decoder turned bytes that are not UTF-8 into U+FFFD: judge the
	// raw bytes, naming each field.
	if err := tools.CheckJSON(raw); err != nil {
		return nil, err
	}
	return obj, nil
}

func invalidJSON(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return core.Errorf(core.CodeInvalidJSON, "body: invalid JSON at byte %d: %s", se.Offset, se.Error())
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return core.Errorf(core.CodeInvalidJSON, "body: invalid JSON: unexpected end of input")
	}
	return core.Errorf(core.CodeInvalidJSON, "body: invalid JSON: %s", err.Error())
}
