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

// addResources registers every resource and resource template of the
// registry on s, and a receiving middleware that reads a template's
// resources itself (by the template's own match, whatever the order of the
// query's parameters) and answers resources/read of any other URI with
// -32002.
func (h *handler) addResources(s *sdk.Server) {
	known := map[string]bool{}
	for _, r := range h.resources {
		known[r.URI] = true
		s.AddResource(&sdk.Resource{
			URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType,
		}, h.resourceHandler(r))
	}
	for _, t := range h.templates {
		s.AddResourceTemplate(&sdk.ResourceTemplate{
			URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType,
		}, h.templateHandler(t))
	}
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "resources/read" {
				if p, ok := req.GetParams().(*sdk.ReadResourceParams); ok && !known[p.URI] {
					for _, t := range h.templates {
						if rr, ok := req.(*sdk.ReadResourceRequest); ok && t.Match(p.URI) {
							return h.templateHandler(t)(ctx, rr)
						}
					}
					return nil, resourceNotFound(p.URI)
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

// resourceNotFound is the spec's error for a URI that names no resource.
func resourceNotFound(uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: codeResourceNotFound, Message: "resource not found: " + uri, Data: data}
}

// templateHandler reads the resources of template t: NOT_FOUND (another
// workspace's or no such endpoint) is -32002, as for an unknown URI; other
// refusals are the face's error for their code.
func (h *handler) templateHandler(t resources.Template) sdk.ResourceHandler {
	return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		p, _ := core.PrincipalFrom(ctx)
		uri := req.Params.URI
		text, err := t.Read(ctx, p, uri)
		if core.ErrorCode(err) == core.CodeNotFound {
			return nil, resourceNotFound(uri)
		}
		if err != nil {
			return nil, h.rpcError(ctx, err)
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: t.MIMEType, Text: text}}}, nil
	}
}
