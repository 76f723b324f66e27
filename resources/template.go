package resources

import (
	"context"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
)

// MIMEJSON is the media type of a resource that answers data, as the REST
// route for the same data does.
const MIMEJSON = "application/json"

// Template is one resource template of the registry: a family of resources
// named by a URI with parameters (RFC 6570), read as the REST route for the
// same data is, under the same access rules.
type Template struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// match reports whether uri names a resource of the template.
	match func(uri string) bool
	// read renders the resource uri names for p, authorizing p itself.
	read func(ctx context.Context, p core.Principal, uri string) (string, error)
}

// Match reports whether uri names a resource of t.
func (t Template) Match(uri string) bool { return t.match(uri) }

// Read renders the resource uri names for p. Errors are *core.Error: the
// codes of the REST route that serves the same data.
func (t Template) Read(ctx context.Context, p core.Principal, uri string) (string, error) {
	return t.read(ctx, p, uri)
}

// Templates returns every resource template, in a fixed order. Their Read
// methods call app.
func Templates(app *giftwell.App) []Template {
	return []Template{webhookDeliveries(app)}
}
