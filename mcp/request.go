package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/httpbody"
)

// message is what the wrapper knows of one JSON-RPC message of the body:
// its id, its method and the name it addresses (the tool of tools/call, the
// prompt of prompts/get, the URI of resources/read). call is a tools/call's
// params as the SDK would decode them (nil when they are absent, null or do
// not decode), for fastCall; inBatch is set for every message of a batch,
// even a batch of one.
type message struct {
	id      jsonrpc.ID
	method  string
	name    string
	call    *sdk.CallToolParamsRaw
	inBatch bool
}

// originOf returns the origin (scheme://host[:port], lower case) of a URL.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// originAllowed reports whether the request has no Origin header (not a
// browser) or the site's own origin.
func (h *handler) originAllowed(r *http.Request) bool {
	o := r.Header.Values("Origin")
	if len(o) == 0 {
		return true
	}
	return len(o) == 1 && h.origin != "" && strings.ToLower(strings.TrimSpace(o[0])) == h.origin
}

// readMessages checks the Content-Type, reads the body (at most
// MaxBodyBytes; httpbody.Read drains a longer one before the 413) and
// decodes its JSON-RPC framing as the SDK will (decodeMessage).
// It writes the refusal (415, 413 envelope; -32700 or -32600 JSON-RPC error)
// and returns false, or returns the messages and leaves the body readable
// again for the SDK.
func (h *handler) readMessages(w *responseWriter, r *http.Request) ([]message, bool) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		h.refuse(w, r, core.Errorf(core.CodeUnsupportedMediaType, "send the JSON-RPC body with Content-Type: application/json"), "")
		return nil, false
	}
	body, err := httpbody.Read(w, r, MaxBodyBytes)
	if errors.Is(err, httpbody.ErrTooLarge) {
		h.refuse(w, r, core.Errorf(core.CodeRequestTooLarge, "the body is over %d bytes (1 MiB)", MaxBodyBytes), "")
		return nil, false
	}
	if err != nil {
		h.refuse(w, r, core.Errorf(core.CodeInvalidRequest, "the body could not be read"), "")
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	msgs, rpcErr := decodeMessages(body)
	if rpcErr != nil {
		writeRPCError(w, http.StatusBadRequest, jsonrpc.ID{}, rpcErr)
		return nil, false
	}
	for _, m := range msgs {
		if m.method == "subscriptions/listen" {
			// The SDK would answer it as an event stream; this endpoint is
			// JSON only and has no notifications to stream.
			status := http.StatusBadRequest
			if r.Header.Get(protocolVersionHeader) >= newProtocol {
				status = http.StatusNotFound // SEP-2575: method not found is 404
			}
			writeRPCError(w, status, m.id, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: "subscriptions/listen is not supported: this endpoint answers JSON only and sends no notifications"})
			return nil, false
		}
	}
	return msgs, true
}

// decodeMessages decodes one JSON-RPC message or a non-empty batch of at most
// MaxBatchMessages. Invalid JSON is -32700; valid JSON that is not JSON-RPC,
// or a longer batch, is -32600.
func decodeMessages(body []byte) ([]message, *jsonrpc.Error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: the body is not valid JSON"}
	}
	raws := []json.RawMessage{body}
	if len(body) > 0 && body[0] == '[' {
		raws = nil
		if err := json.Unmarshal(body, &raws); err != nil || len(raws) == 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: a batch must be a non-empty array of messages"}
		}
		if len(raws) > MaxBatchMessages {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf(
				"invalid request: a batch carries at most %d messages, this one %d; nothing ran, send them in batches of %d or fewer", MaxBatchMessages, len(raws), MaxBatchMessages)}
		}
	}
	msgs := make([]message, 0, len(raws))
	for _, raw := range raws {
		m, err := decodeMessage(raw)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + err.Error()}
		}
		m.inBatch = body[0] == '['
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// wireMessage is a JSON-RPC message as the go-sdk decodes it (its
// jsonrpc2.wireDecode): method is raw so that a present "method" key is told
// apart from an absent one.
type wireMessage struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *jsonrpc.Error  `json:"error,omitempty"`
}

// decodeMessage decodes one message as jsonrpc.DecodeMessage does (the same
// checks and errors; a fuzz target compares the two) and then its params,
// as the SDK will, for the name it addresses.
func decodeMessage(raw json.RawMessage) (message, error) {
	var w wireMessage
	if err := sdkUnmarshal(raw, &w); err != nil {
		return message{}, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if w.VersionTag != "2.0" {
		return message{}, fmt.Errorf("invalid message version tag %q; expected %q", w.VersionTag, "2.0")
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return message{}, err
	}
	if len(w.Method) == 0 {
		if !id.IsValid() {
			return message{}, errors.New("invalid request") // the SDK's jsonrpc2.ErrInvalidRequest
		}
		return message{}, errors.New("a client sends requests and notifications only")
	}
	m := message{id: id}
	if err := sdkUnmarshal(w.Method, &m.method); err != nil {
		return message{}, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if len(w.Params) == 0 {
		return m, nil
	}
	switch m.method {
	case "tools/call":
		if sdkUnmarshal(w.Params, &m.call) == nil && m.call != nil {
			m.name = m.call.Name
		} else {
			m.call = nil
		}
	case "prompts/get":
		var p *sdk.GetPromptParams
		if sdkUnmarshal(w.Params, &p) == nil && p != nil {
			m.name = p.Name
		}
	case "resources/read":
		var p *sdk.ReadResourceParams
		if sdkUnmarshal(w.Params, &p) == nil && p != nil {
			m.name = p.URI
		}
	}
	return m, nil
}

// singleID is the id of a lone request, for errors written outside the SDK.
func singleID(msgs []message) jsonrpc.ID {
	if len(msgs) == 1 {
		return msgs[0].id
	}
	return jsonrpc.ID{}
}

// acceptJSON lets a client that accepts JSON but does not list
// text/event-stream through: the handler only ever answers JSON, so the
// SDK's demand for both media types protects nothing here. It reports
// whether the request now satisfies the SDK (it accepts JSON).
func acceptJSON(r *http.Request) bool {
	accepts := r.Header.Values("Accept")
	if strings.TrimSpace(strings.Join(accepts, "")) == "" {
		r.Header.Set("Accept", "application/json, text/event-stream")
		return true
	}
	for _, v := range accepts {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case "application/json", "application/*", "*/*":
				r.Header.Set("Accept", "application/json, text/event-stream")
				return true
			}
		}
	}
	return false
}
