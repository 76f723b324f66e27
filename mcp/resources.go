package mcp

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/resources"
)

// codeResourceNotFound is the spec's error for an unknown resource URI. The
// SDK's own ResourceNotFoundError answers -32602 since v1.7 (SEP-2164).
const codeResourceNotFound = -32002

// addResources registers every resource of the registry on s, and a
// receiving middleware that answers resources/read of any other URI with
// -32002.
func (h *handler) addResources(s *sdk.Server) {
	known := map[string]bool{}
	for _, r := range h.resources {
		known[r.URI] = true
		s.AddResource(&sdk.Resource{
			URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType,
		}, h.resourceHandler(r))
	}
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "resources/read" {
				if p, ok := req.GetParams().(*sdk.ReadResourceParams); ok && !known[p.URI] {
					data, _ := json.Marshal(map[string]string{"uri": p.URI})
					return nil, &jsonrpc.Error{Code: codeResourceNotFound, Message: "resource not found: " + p.URI, Data: data}
				}
			}
			return next(ctx, method, req)
		}
	})
}

func (h *handler) resourceHandler(r resources.Resource) sdk.ResourceHandler {
	return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		p, _ := core.PrincipalFrom(ctx)
		text, err := r.Read(ctx, p)
		if err != nil {
			return nil, h.rpcError(ctx, err)
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.URI, MIMEType: r.MIMEType, Text: text}}}, nil
	}
}
