package mcp

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// responseWriter records the status for the request log and keeps the SDK's
// plain-text error responses (http.Error) from reaching clients: they are
// held back and rewritten by finish as JSON-RPC errors with the same status,
// so that every response of the endpoint is JSON.
type responseWriter struct {
	http.ResponseWriter
	status int
	// rpcID is the id of a lone request, used when rewriting a plain error.
	rpcID jsonrpc.ID
	// plain holds the text of a plain-text error being rewritten.
	plain *bytes.Buffer
}

func newResponseWriter(w http.ResponseWriter) *responseWriter {
	return &responseWriter{ResponseWriter: w}
}

// WriteHeader implements http.ResponseWriter.
func (w *responseWriter) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.plain = new(bytes.Buffer)
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (w *responseWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.plain != nil {
		return w.plain.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes a held-back plain-text error as a JSON-RPC error: -32600
// for a 4xx, -32603 for a 5xx.
func (w *responseWriter) finish() {
	if w.plain == nil {
		return
	}
	code := int64(jsonrpc.CodeInvalidRequest)
	if w.status >= 500 {
		code = jsonrpc.CodeInternalError
	}
	msg := strings.TrimSpace(w.plain.String())
	w.plain = nil
	writeRPCError(w.ResponseWriter, w.status, w.rpcID, &jsonrpc.Error{Code: code, Message: msg})
}
