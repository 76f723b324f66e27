// Package mcp is Giftwell's MCP face: stateless JSON-RPC over POST at /mcp,
// /mcp?profile=gifting and /chatgpt/mcp, built on the go-sdk's
// StreamableHTTPHandler (stateless, JSON responses, no SSE).
//
// A request passes a thin wrapper before the SDK sees it:
//
//	path (404) → Origin (403) → bearer authentication (401; 403 without
//	gifts:read on /chatgpt/mcp) → method (405) → ?profile (400)
//	→ Content-Type (415) → body ≤ 1 MiB (413) → JSON-RPC framing
//	(-32700/-32600) → MCP-Protocol-Version (-32022) → connection scopes (403)
//	→ SDK
//
// The SDK then checks Mcp-Method and Mcp-Name (-32020), answers initialize,
// server/discover and notifications (202), and dispatches to one cached
// *mcp.Server per (profile, credential kind, granted scopes). Tools come from
// the tools registry and run through Tool.Call; prompts and resources come
// from their own registries. Every error a caller sees is translated in
// errors.go, the face's one translator.
//
// A lone tools/call skips the SDK (fastcall.go); its upkeep is in FASTPATH.md.
//
// Mount the handler at both paths:
//
//	h := mcp.NewHandler(mcp.Config{App: app, Tools: tools.All(app)})
//	mux.Handle("/mcp", h)
//	mux.Handle("/chatgpt/mcp", h)
package mcp
