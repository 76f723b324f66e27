package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// newProtocol is the first protocol version whose requests carry their
// version, client capabilities and info in _meta (SEP-2575) and name their
// method and target in headers.
const newProtocol = "2026-07-28"

// supportedVersions are the MCP protocol versions Giftwell speaks, newest
// first (spec, Versioning §4). Every server is built with exactly these.
var supportedVersions = []string{newProtocol, "2025-11-25", "2025-06-18", "2025-03-26"}

// SupportedVersions returns the MCP protocol versions Giftwell speaks,
// newest first.
func SupportedVersions() []string { return slices.Clone(supportedVersions) }

// protocolVersionHeader is the negotiated-version header of MCP over HTTP.
const protocolVersionHeader = "Mcp-Protocol-Version"

// versionSupported refuses a request whose MCP-Protocol-Version header names
// a version outside SupportedVersions with JSON-RPC -32022 on HTTP 400, its
// data listing the supported versions. (The SDK answers old-looking unknown
// versions with a plain-text 400 and only checks new-looking ones itself.)
func (h *handler) versionSupported(w *responseWriter, r *http.Request, msgs []message) bool {
	v := r.Header.Get(protocolVersionHeader)
	if v == "" || slices.Contains(supportedVersions, v) {
		return true
	}
	data, _ := json.Marshal(sdk.UnsupportedProtocolVersionData{Supported: supportedVersions, Requested: v})
	writeRPCError(w, http.StatusBadRequest, singleID(msgs), &jsonrpc.Error{
		Code:    sdk.CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("unsupported protocol version %q", v),
		Data:    data,
	})
	return false
}
