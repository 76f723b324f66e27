// Package resources is the registry of Giftwell's MCP resources: read-only
// markdown documents rendered for the caller. Each face that serves them
// (today only MCP) lists and reads them from All.
package resources

import (
	"context"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/guide"
)

// MIMEMarkdown is the media type of every Giftwell resource.
const MIMEMarkdown = "text/markdown"

// The resource URIs.
const (
	GuideURI          = guide.GuideURI
	RecoveryURI       = guide.RecoveryURI
	RecipientsURI     = guide.RecipientsURI
	ApprovalURI       = guide.ApprovalURI
	CatalogSummaryURI = "giftwell://catalog/summary"
)

// Resource is one resource of the registry.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// read renders the resource for an authorized principal.
	read func(ctx context.Context, p core.Principal) (string, error)
}

// Read authorizes p to read (the role matrix's read row: a connection needs
// gifts:read, a demo workspace's key is refused) and renders the resource.
// Errors are *core.Error: AUTH_REQUIRED, INSUFFICIENT_SCOPE, DEMO_LIMITED or
// INTERNAL_ERROR.
func (r Resource) Read(ctx context.Context, p core.Principal) (string, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return "", err
	}
	return r.read(ctx, p)
}

// All returns every resource, in a fixed order. Their Read methods call app.
func All(app *giftwell.App) []Resource {
	return append(append([]Resource{guideResource(app)}, guideParts(app)...), catalogSummary(app))
}
