package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// sdkTools converts every registry tool to its MCP descriptor once: schemas
// are marshalled here, so tools/list and the SDK's header checks reuse the
// bytes instead of re-encoding schemas on every request.
func sdkTools(list []tools.Tool) map[string]*sdk.Tool {
	m := make(map[string]*sdk.Tool, len(list))
	for _, t := range list {
		m[t.Name] = sdkTool(t)
	}
	return m
}

// sdkTool lists exactly the registry's Listing of t: its compact schemas
// (tools/listing.go), which the tool list budget measures.
func sdkTool(t tools.Tool) *sdk.Tool {
	l := t.Listing()
	openWorld := l.Annotations.OpenWorldHint
	st := &sdk.Tool{
		Name:        l.Name,
		Description: l.Description,
		InputSchema: mustJSON(t.Name, l.InputSchema),
		Annotations: &sdk.ToolAnnotations{
			Title:           l.Annotations.Title,
			ReadOnlyHint:    l.Annotations.ReadOnlyHint,
			DestructiveHint: l.Annotations.DestructiveHint,
			IdempotentHint:  l.Annotations.IdempotentHint,
			OpenWorldHint:   &openWorld,
		},
	}
	return st
}

func mustJSON(name string, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %s: schema does not marshal: %v", name, err))
	}
	return b
}

// addTools registers on s the tools a principal of this kind may call in
// profile pr; REST-only tools never. A connection can call exactly
// what it sees (Tool.Visible). A key also gets the signed-in tools,
// registered but never listed, so that calling one answers 403
// HUMAN_APPROVAL_REQUIRED with its url (Tool.Call decides that) rather than
// "unknown tool"; a receiving middleware takes them out of tools/list. It
// returns the handlers it registered, by tool name.
func (h *handler) addTools(s *sdk.Server, pr tools.Profile, p core.Principal) map[string]sdk.ToolHandler {
	listed := map[string]int{} // name → position in the registry
	calls := map[string]sdk.ToolHandler{}
	for i, t := range h.tools {
		if t.RESTOnly {
			continue // no MCP profile: calling it over MCP names an unknown tool
		}
		visible := t.Visible(pr, p)
		if !visible && (p.Via == core.ViaConnection || t.Scope != tools.ScopeSignedIn) {
			continue
		}
		calls[t.Name] = h.toolHandler(t)
		s.AddTool(h.sdkTools[t.Name], calls[t.Name])
		if visible {
			listed[t.Name] = i
		}
	}
	s.AddReceivingMiddleware(listInRegistryOrder(listed))
	return calls
}

// listInRegistryOrder rewrites tools/list results: it drops the tools not
// listed (registered only to be called) and restores the registry's order,
// which the SDK replaces with name order. (Every list fits one page: the
// SDK's page size is 1000.)
func listInRegistryOrder(listed map[string]int) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := res.(*sdk.ListToolsResult); ok && err == nil && method == "tools/list" {
				lr.Tools = slices.DeleteFunc(lr.Tools, func(t *sdk.Tool) bool {
					_, ok := listed[t.Name]
					return !ok
				})
				slices.SortFunc(lr.Tools, func(a, b *sdk.Tool) int { return listed[a.Name] - listed[b.Name] })
			}
			return res, err
		}
	}
}

// toolHandler runs one registry tool for the principal the wrapper put in
// the context and renders its outcome through the translator. A panicking
// handler is an INTERNAL_ERROR, not a dead process. An outage while a tool
// without the readOnly hint ran is reread_and_retry (core.AfterWrite).
func (h *handler) toolHandler(t tools.Tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, _ error) {
		defer func() {
			if v := recover(); v != nil {
				res = h.toolResult(ctx, nil, fmt.Errorf("tool %s panicked: %v", t.Name, v))
			}
		}()
		p, _ := core.PrincipalFrom(ctx)
		out, err := t.Call(ctx, p, req.Params.Arguments)
		if err != nil && !t.Hints.ReadOnly {
			// The write may have landed before the database went away.
			err = core.AfterWrite(err)
		}
		return h.toolResult(ctx, out, err), nil
	}
}
