package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/giftwell/giftwell/prompts"
)

// addPrompts registers every prompt of the registry on s. A prompt renders
// text and changes nothing; bad arguments are -32602 naming the argument.
func (h *handler) addPrompts(s *sdk.Server) {
	for _, p := range h.prompts {
		args := make([]*sdk.PromptArgument, len(p.Arguments))
		for i, a := range p.Arguments {
			args[i] = &sdk.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required}
		}
		s.AddPrompt(&sdk.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args}, h.promptHandler(p))
	}
}

func (h *handler) promptHandler(p prompts.Prompt) sdk.PromptHandler {
	return func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		text, err := p.Render(req.Params.Arguments)
		if err != nil {
			return nil, h.rpcError(ctx, err)
		}
		return &sdk.GetPromptResult{
			Description: p.Description,
			Messages:    []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}},
		}, nil
	}
}
