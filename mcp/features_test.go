package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/prompts"
	"github.com/giftwell/giftwell/resources"
)

func TestPromptsGetEachPrompt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	args := map[string]map[string]string{
		"start_playbook":         {"goal": "thank new customers after their first order", "budget": "$75"},
		"add_people_to_playbook": {"campaignId": "cmp_0123456789abcdef01234567"},
		"prepare_batch_campaign": {"goal": "thank the 40 dinner attendees"},
	}
	for _, version := range []string{"2026-07-28", "2025-03-26"} {
		cs := b.connect(t, "/mcp", b.env.OwnerKey, version)
		list, err := cs.ListPrompts(context.Background(), nil)
		require.NoError(t, err)
		require.Len(t, list.Prompts, len(prompts.All()))
		for _, p := range list.Prompts {
			require.NotEmpty(t, p.Description, p.Name)
			require.Contains(t, args, p.Name)
			for _, a := range p.Arguments {
				require.NotEmpty(t, a.Description, "%s.%s", p.Name, a.Name)
			}
			res, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: p.Name, Arguments: args[p.Name]})
			require.NoError(t, err, p.Name)
			require.Len(t, res.Messages, 1)
			text := res.Messages[0].Content.(*sdk.TextContent).Text
			for _, v := range args[p.Name] {
				require.Contains(t, text, v, p.Name)
			}
		}
	}
}

func TestPromptArgumentsAreChecked(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cs := b.connect(t, "/mcp", b.env.OwnerKey, "")
	for _, tc := range []struct {
		name  string
		args  map[string]string
		field string
	}{
		{"start_playbook", map[string]string{}, "goal"},
		{"start_playbook", map[string]string{"goal": "x", "budjet": "5"}, "budjet"},
		{"add_people_to_playbook", map[string]string{"campaignId": strings.Repeat("c", 201)}, "campaignId"},
	} {
		_, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: tc.name, Arguments: tc.args})
		var werr *jsonrpc.Error
		require.ErrorAs(t, err, &werr, tc.name)
		require.EqualValues(t, jsonrpc.CodeInvalidParams, werr.Code)
		require.Contains(t, werr.Message, tc.field)
	}
}

func TestResourcesReadBoth(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		cs := b.connect(t, "/mcp", b.env.OwnerKey, version)
		list, err := cs.ListResources(context.Background(), nil)
		require.NoError(t, err)
		var uris []string
		for _, r := range list.Resources {
			uris = append(uris, r.URI)
			require.Equal(t, "text/markdown", r.MIMEType)
		}
		require.ElementsMatch(t, []string{resources.GuideURI, resources.RecoveryURI, resources.RecipientsURI, resources.ApprovalURI, resources.CatalogSummaryURI}, uris)

		// The workflow guide links its deeper text: every MCP resource it
		// names is listed and reads.
		owner, err := b.env.App.Connect.Authenticate(context.Background(), b.env.OwnerKey)
		require.NoError(t, err)
		g, err := b.env.App.Guide.WorkflowGuide(context.Background(), owner)
		require.NoError(t, err)
		for _, uri := range []string{g.Documentation.Guide, g.Documentation.Recovery, g.Documentation.Recipients, g.Documentation.Approval} {
			require.Contains(t, uris, uri)
			require.NotEmpty(t, readResource(t, cs, uri), uri)
		}
		require.Contains(t, readResource(t, cs, resources.RecoveryURI), core.CodePlaybookBusy.Info().Recovery)
		require.Contains(t, readResource(t, cs, resources.ApprovalURI), "| `scheduled` |")
		require.Contains(t, readResource(t, cs, resources.RecipientsURI), "linkedin.com/in/<slug>")

		guide := readResource(t, cs, resources.GuideURI)
		require.Contains(t, guide, "# Giftwell workflow guide")
		require.Contains(t, guide, "PLAYBOOK_BUSY")
		require.Contains(t, guide, b.env.SiteURL+"/campaigns/<campaign_id>?review=1")

		summary := readResource(t, cs, resources.CatalogSummaryURI)
		require.Contains(t, summary, "## Selection rules")
		products, err := b.env.App.Catalog.Products(context.Background())
		require.NoError(t, err)
		for _, p := range products {
			if p.Selectable() == nil {
				require.Contains(t, summary, "`"+p.ID+"`")
			} else {
				require.NotContains(t, summary, "`"+p.ID+"`")
			}
		}
	}
}

func TestResourcesNeedReadAccess(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cs := b.connect(t, "/mcp", connNoScopes, "")
	_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: resources.GuideURI})
	var werr *jsonrpc.Error
	require.ErrorAs(t, err, &werr)
	require.Contains(t, string(werr.Data), string(core.CodeInsufficientScope))
}

func readResource(t *testing.T, cs *sdk.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: uri})
	require.NoError(t, err, uri)
	require.Len(t, res.Contents, 1)
	require.Equal(t, uri, res.Contents[0].URI)
	require.Equal(t, "text/markdown", res.Contents[0].MIMEType)
	return res.Contents[0].Text
}
