package resources

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/guide"
)

// guideResource is giftwell://guide: the workflow guide (get_workflow_guide) for
// the caller, as markdown, with the deeper text the guide links to.
func guideResource(app *giftwell.App) Resource {
	return Resource{
		URI:   GuideURI,
		Name:  "guide",
		Title: "Giftwell workflow guide",
		Description: "How to work with Giftwell, for this caller: what it may do, the playbook and batch flows, " +
			"approval states and reasons, tracking, limits, what each person needs and how to recover from every " +
			"error code. get_workflow_guide with its deeper text, as markdown.",
		MIMEType: MIMEMarkdown,
		read: func(ctx context.Context, p core.Principal) (string, error) {
			g, err := app.Guide.WorkflowGuide(ctx, p)
			if err != nil {
				return "", err
			}
			return renderGuide(g)
		},
	}
}

// renderGuide renders every field of the guide as markdown.
func renderGuide(g guide.WorkflowGuide) (string, error) {
	var b strings.Builder
	b.WriteString("# Giftwell workflow guide\n\n")
	b.WriteString(g.Instructions + "\n\n")
	fmt.Fprintf(&b, "- **Mode:** %s. %s\n", g.Mode, g.Status)
	fmt.Fprintf(&b, "- **This caller can approve or pay (connectorCanSend):** %s\n", yesNo(g.ConnectorCanSend))
	fmt.Fprintf(&b, "- **A person must approve (approvalRequired):** %s\n", yesNo(g.ApprovalRequired))
	fmt.Fprintf(&b, "- **Campaign modes, in order of preference:** %s\n\n", strings.Join(g.UsageOrder, ", "))

	b.WriteString("## Capabilities\n\n")
	if err := jsonTable(&b, g.Capabilities, "Capability", "Allowed"); err != nil {
		return "", err
	}

	b.WriteString("\n## Playbook flow\n\n")
	lines(&b, g.Steps)
	b.WriteString("\n## Batch and single flow\n\n")
	lines(&b, g.BatchSteps)

	b.WriteString("\n")
	renderApproval(&b, g.ApprovalReasons)

	b.WriteString("\n## Tracking\n\n" + g.Tracking + "\n")

	b.WriteString("\n## Limits\n\n")
	if err := jsonTable(&b, g.Limits, "Limit", "Value"); err != nil {
		return "", err
	}

	b.WriteString("\n")
	if err := renderRecipients(&b); err != nil {
		return "", err
	}
	b.WriteString("\n")
	renderRecovery(&b)

	b.WriteString("\n## Addresses\n\n")
	fmt.Fprintf(&b, "- REST API: %s\n", g.APIBase)
	fmt.Fprintf(&b, "- MCP endpoint: %s\n", g.MCPEndpoint)
	fmt.Fprintf(&b, "- Review URL template: %s\n", g.ReviewURLTemplate)
	docs := map[string]string{}
	if err := remarshal(g.Documentation, &docs); err != nil {
		return "", err
	}
	for _, k := range sortedKeys(docs) {
		fmt.Fprintf(&b, "- Documentation (%s): %s\n", k, docs[k])
	}
	return b.String(), nil
}

// renderApproval writes the approval states, with their meanings, and
// reasons, with their texts.
func renderApproval(b *strings.Builder, reasons map[string]string) {
	b.WriteString("## Approval states\n\nOnly `auto_approved` and `approved` are paid.\n\n")
	table(b, "State", "Meaning")
	for _, s := range guide.ApprovalStates() {
		row(b, "`"+s.State+"`", s.Meaning)
	}
	b.WriteString("\n## Approval reasons\n\nWhy a waiting person waits.\n\n")
	table(b, "Reason", "Meaning")
	for _, k := range sortedKeys(reasons) {
		row(b, "`"+k+"`", reasons[k])
	}
}

// renderRecipients writes what each person needs, in full.
func renderRecipients(b *strings.Builder) error {
	b.WriteString("## Recipient requirements\n\nWhat each person needs before approval, in full.\n\n```json\n")
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false) // the rules show <slug> and <key> as written
	enc.SetIndent("", "  ")
	if err := enc.Encode(guide.Rules()); err != nil {
		return core.Internal(err)
	}
	b.WriteString("```\n")
	return nil
}

// renderRecovery writes every error code's recovery text in full: what
// went wrong, then what to do.
func renderRecovery(b *strings.Builder) {
	b.WriteString("## Recovery by error code\n\nEvery error carries code, message, nextAction and, where a person must act, url.\n\n")
	texts := guide.RecoveryTexts()
	table(b, "Code", "Recovery")
	for _, k := range recoveryOrder(texts) {
		row(b, "`"+k+"`", texts[k])
	}
}

// jsonTable writes a two-column table of a flat struct's fields under their
// JSON names, sorted by name.
func jsonTable(b *strings.Builder, v any, key, value string) error {
	m := map[string]any{}
	if err := remarshal(v, &m); err != nil {
		return err
	}
	table(b, key, value)
	for _, k := range sortedKeys(m) {
		val := fmt.Sprint(m[k])
		if bv, ok := m[k].(bool); ok {
			val = yesNo(bv)
		}
		row(b, "`"+k+"`", val)
	}
	return nil
}

func remarshal(from, to any) error {
	raw, err := json.Marshal(from)
	if err == nil {
		err = json.Unmarshal(raw, to)
	}
	if err != nil {
		return core.Internal(err)
	}
	return nil
}

func lines(b *strings.Builder, items []string) {
	for _, s := range items {
		b.WriteString(s + "\n")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// recoveryOrder lists the recovery codes in the code table's order, then any
// others by name.
func recoveryOrder(m map[string]string) []string {
	var keys []string
	for _, c := range core.Codes() {
		if _, ok := m[c.Wire()]; ok && !slices.Contains(keys, c.Wire()) {
			keys = append(keys, c.Wire())
		}
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}
