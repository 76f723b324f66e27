package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A lone tools/call is what agents send most. For it the go-sdk's stateless
// handler builds a session and decodes the body about eight times over,
// each time with a fresh 32 KiB stream buffer (about 350 KB and most of a
// read tool's time per call). fastCall answers such a call itself when the
// SDK would do nothing with it but run the tool, and writes what the SDK
// would write; everything else still goes to the SDK. mcp/fastcall_test.go
// sends the same requests both ways and compares status, headers and bytes,
// and FuzzFastCall does so for any body and headers.

// Headers the SDK checks on a lone request of the new protocol.
const (
	methodHeader      = "Mcp-Method"
	nameHeader        = "Mcp-Name"
	lastEventIDHeader = "Last-Event-ID"
)

// fastCall answers msgs when it is one tools/call of a tool s registers that
// the SDK would pass straight to the tool's handler, and reports whether it
// did. It declines (and the SDK answers, refusals included) a batch, any
// other method, a notification, params the SDK could not decode or that
// carry a multi-round-trip retry, an unknown tool, a Last-Event-ID header,
// and any version, _meta or Mcp-* header the SDK would refuse or treat
// differently. The request's Accept must already satisfy the SDK
// (acceptJSON).
//
// Like the SDK's stateless handler, it does not cancel the tool when the
// client goes away: a write runs to its end either way.
func (h *handler) fastCall(w http.ResponseWriter, r *http.Request, s *served, msgs []message) bool {
	if h.sdkOnly || len(msgs) != 1 {
		return false
	}
	m := msgs[0]
	if m.inBatch || m.call == nil || !m.id.IsValid() || len(r.Header.Values(lastEventIDHeader)) > 0 ||
		len(m.call.InputResponses) > 0 || m.call.RequestState != "" {
		return false
	}
	handle, ok := s.tools[m.call.Name]
	if !ok {
		return false
	}
	version := r.Header.Get(protocolVersionHeader)
	isNew := version >= newProtocol
	metaVersion, _ := m.call.Meta[sdk.MetaKeyProtocolVersion].(string)
	switch {
	case isNew:
		if metaVersion != version || !newProtocolMeta(m.call.Meta) ||
			r.Header.Get(methodHeader) != m.method || r.Header.Get(nameHeader) != m.call.Name {
			return false
		}
	case metaVersion != "":
		return false // the SDK compares it with the header and may refuse
	}

	// Once the tool runs, fastCall answers whatever happens: the SDK must not
	// run it a second time.
	res, err := handle(context.WithoutCancel(r.Context()), &sdk.CallToolRequest{Params: m.call})
	var body []byte
	if err == nil && res == nil {
		err = errors.New("the tool returned no result")
	}
	if err == nil {
		body, err = h.encodeCallResult(m.id, res, isNew)
	}
	if err != nil { // toolHandler always answers with a result that encodes
		body, _ = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: m.id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}})
	}
	if ri := requestInfoFrom(r.Context()); ri != nil {
		ri.fast = true
	}
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return true
}

// encodeCallResult is the JSON-RPC response the SDK writes for res: content
// never null, and in the new protocol resultType "complete" and the
// server's identity in _meta (SEP-2575).
func (h *handler) encodeCallResult(id jsonrpc.ID, res *sdk.CallToolResult, isNew bool) ([]byte, error) {
	if res.Content == nil {
		res.Content = []sdk.Content{}
	}
	if isNew {
		if _, ok := res.Meta[sdk.MetaKeyServerInfo]; !ok {
			if res.Meta == nil {
				res.Meta = sdk.Meta{}
			}
			res.Meta[sdk.MetaKeyServerInfo] = h.impl
		}
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	if isNew {
		// resultType is unexported in the SDK and the last key it writes.
		raw = append(raw[:len(raw)-1], `,"resultType":"complete"}`...)
	}
	return jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: raw})
}

// newProtocolMeta reports whether a new-protocol request's _meta passes the
// SDK's checks (its validateRequestMeta): client info, when present, and
// client capabilities, required, decode into the SDK's types.
func newProtocolMeta(meta sdk.Meta) bool {
	if _, present := meta[sdk.MetaKeyClientInfo]; present && !metaDecodes(meta[sdk.MetaKeyClientInfo], new(*sdk.Implementation)) {
		return false
	}
	// The SDK's clientCapabilitiesV2: the capabilities with roots
	// decoded apart.
	var caps *struct {
		sdk.ClientCapabilities
		Roots *sdk.RootCapabilities `json:"roots,omitempty"`
	}
	return metaDecodes(meta[sdk.MetaKeyClientCapabilities], &caps)
}

// metaDecodes reports whether a _meta value decodes into v the way the SDK
// decodes it (its decodeMetaValue: re-encoded, then decoded; null never).
func metaDecodes(raw any, v any) bool {
	if raw == nil {
		return false
	}
	data, err := json.Marshal(raw)
	return err == nil && sdkUnmarshal(data, v) == nil
}
