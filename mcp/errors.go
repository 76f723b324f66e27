package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
)

// translate is the MCP face's one error translator. Every error a caller
// sees passes here and becomes core's envelope with its HTTP status
// (core.EnvelopeOf): the same envelope REST writes. An internal error (not
// a *core.Error, INTERNAL_ERROR, or a code outside the table) is logged
// with its cause and shown only as the generic message; an outage
// (SERVICE_UNAVAILABLE) is logged with its cause too.
func (h *handler) translate(ctx context.Context, err error) (core.Envelope, int) {
	status, env, internal := core.EnvelopeOf(err, h.app.Config.SiteURL)
	switch {
	case internal:
		h.log.LogAttrs(ctx, slog.LevelError, "mcp: internal error",
			slog.String("request_id", requestID(ctx)), slog.String("error", errorText(err)))
	case status >= http.StatusInternalServerError:
		h.log.LogAttrs(ctx, slog.LevelError, "mcp: service unavailable",
			slog.String("request_id", requestID(ctx)), slog.String("code", env.Code), slog.String("error", errorText(err)))
	}
	if ri := requestInfoFrom(ctx); ri != nil {
		ri.setCode(env.Code)
	}
	return env, status
}

// errorText is err's text for the log; "<nil>" for nil.
func errorText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// refuse writes a refusal made before any tool runs: the envelope with its
// own HTTP status, a WWW-Authenticate challenge when given, and Retry-After
// (whole seconds) when the error says when to retry.
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, err error, challenge string) {
	env, status := h.translate(r.Context(), err)
	if challenge != "" {
		w.Header().Set("WWW-Authenticate", challenge)
	}
	if env.RetryAfterMs > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt((env.RetryAfterMs+999)/1000, 10))
	}
	body, _ := json.Marshal(env)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// toolResult renders a tool's outcome. Success is structuredContent
// {"data": out} plus the same JSON as one text content; failure is
// isError with the envelope as structuredContent and as text, on HTTP 200.
func (h *handler) toolResult(ctx context.Context, out any, err error) *sdk.CallToolResult {
	var body []byte
	if err == nil {
		body, err = json.Marshal(struct {
			Data any `json:"data"`
		}{out})
	}
	isError := err != nil
	if isError {
		env, _ := h.translate(ctx, err)
		body, _ = json.Marshal(env)
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(body),
		IsError:           isError,
	}
}

// rpcError renders a failed prompt or resource read as a JSON-RPC error
// whose data is the envelope: invalid input is -32602, an internal error
// -32603, anything else -32000.
func (h *handler) rpcError(ctx context.Context, err error) error {
	env, _ := h.translate(ctx, err)
	code := int64(-32000)
	switch core.Code(env.Code) {
	case core.CodeValidation, core.CodeInvalidRequest, core.CodeInvalidJSON:
		code = jsonrpc.CodeInvalidParams
	case core.CodeInternal:
		code = jsonrpc.CodeInternalError
	}
	data, _ := json.Marshal(env)
	return &jsonrpc.Error{Code: code, Message: env.Error, Data: data}
}

// writeRPCError writes a protocol-level JSON-RPC error response with status.
func writeRPCError(w http.ResponseWriter, status int, id jsonrpc.ID, e *jsonrpc.Error) {
	body, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: e})
	if err != nil {
		body = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
