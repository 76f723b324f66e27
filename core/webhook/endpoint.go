package webhook

import (
	"context"
	"encoding/hex"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// The bounds of endpoints.
const (
	// MaxEndpoints is how many active endpoints a workspace may have.
	MaxEndpoints = 10
	// MaxEvents is how many event names one endpoint subscribes to.
	MaxEvents = 10
	// maxURL bounds an endpoint's URL, in bytes.
	maxURL = 2000
	// secretSaltBytes is the size of an endpoint's random salt.
	secretSaltBytes = 16
)

// AllEvents subscribes an endpoint to every event type.
const AllEvents = "all"

// Endpoint is a webhook endpoint as lists show it: never its secret.
type Endpoint struct {
	ID        string    `json:"id" jsonschema:"the endpoint (whk_...)"`
	URL       string    `json:"url" jsonschema:"where deliveries are POSTed"`
	Events    []string  `json:"events" jsonschema:"the event types it receives; all for every type"`
	CreatedAt time.Time `json:"createdAt" jsonschema:"when it was added; only events after it are sent"`
}

// CreatedEndpoint is an endpoint as its creation answers it, with its
// signing secret: shown only here.
type CreatedEndpoint struct {
	Endpoint
	// Secret signs every delivery (X-Giftwell-Signature): 64 characters,
	// used as UTF-8 text. It is never shown again.
	Secret string `json:"secret" jsonschema:"the 64-character signing secret; store it now, it is never shown again"`
}

// EndpointInput is what create_webhook takes.
type EndpointInput struct {
	URL    string
	Events []string
}

// EventNames are the names an endpoint may subscribe to: all and every
// event type.
func EventNames() []string {
	names := []string{AllEvents}
	for _, t := range core.EventTypes() {
		names = append(names, string(t))
	}
	return names
}

// Create adds an endpoint for p, a signed-in owner or admin: url is a
// public HTTPS URL (Guard decides), events 1-10 distinct names of
// EventNames. Only events created after it are sent; there is no test
// event. It returns the endpoint with its secret (shown only here), or
// VALIDATION_ERROR naming url or events[i], INVALID_REQUEST_STATE when the
// workspace has MaxEndpoints already, or the codes of Authorize
// (ActManageWebhooks: HUMAN_APPROVAL_REQUIRED for keys, DEMO_LIMITED in a
// demo workspace).
func (s *Service) Create(ctx context.Context, p core.Principal, in EndpointInput) (CreatedEndpoint, error) {
	if err := core.Authorize(p, core.ActManageWebhooks, s.Config.WebhooksURL()); err != nil {
		return CreatedEndpoint{}, err
	}
	var pr core.Problems
	events, err := checkEvents(in.Events)
	if err != nil && !pr.AddError(err) {
		return CreatedEndpoint{}, err
	}
	raw, err := checkURL(in.URL)
	if err != nil && !pr.AddError(err) {
		return CreatedEndpoint{}, err
	}
	if err := pr.Err(); err != nil {
		return CreatedEndpoint{}, err
	}
	// The guard may resolve the host: a network call, before any
	// transaction.
	if s.Guard == nil {
		return CreatedEndpoint{}, core.Internal(errNoGuard)
	}
	if err := s.Guard.CheckURL(ctx, raw); err != nil {
		return CreatedEndpoint{}, core.Invalid("url", "%s", err.Error())
	}
	var out CreatedEndpoint
	err = s.InTx(ctx, func(q *db.Queries) error {
		if err := q.WorkspaceLockForWebhooks(ctx, p.WorkspaceID); err != nil {
			return core.Internal(err)
		}
		n, err := q.WebhookEndpointCountActive(ctx, p.WorkspaceID)
		if err != nil {
			return core.Internal(err)
		}
		if n >= MaxEndpoints {
			return core.FieldError(core.CodeInvalidRequestState, "url",
				"this workspace has %d webhook endpoints, the most it may have; remove one first", MaxEndpoints)
		}
		salt := core.RandomBytes(secretSaltBytes)
		row, err := q.WebhookEndpointInsert(ctx, db.WebhookEndpointInsertParams{
			ID: core.NewID(core.PrefixWebhook), WorkspaceID: p.WorkspaceID, Url: raw, Events: events,
			SecretSalt: salt, CreatedBy: p.UserID, CreatedAt: s.Clock.Now(),
		})
		if err != nil {
			return core.Internal(err)
		}
		out = CreatedEndpoint{Endpoint: endpointFromRow(row), Secret: s.secret(row)}
		return nil
	})
	return out, core.AsCoreError(err)
}

// List returns the workspace's active endpoints, oldest first, without
// secrets. It returns the codes of Authorize (ActReadWebhooks: owners and
// admins, signed in or by key).
func (s *Service) List(ctx context.Context, p core.Principal) ([]Endpoint, error) {
	if err := core.Authorize(p, core.ActReadWebhooks, s.Config.WebhooksURL()); err != nil {
		return nil, err
	}
	rows, err := db.New(s.DB).WebhookEndpointList(ctx, p.WorkspaceID)
	if err != nil {
		return nil, core.Internal(err)
	}
	out := make([]Endpoint, len(rows))
	for i, r := range rows {
		out[i] = endpointFromRow(r)
	}
	return out, nil
}

// Remove stops future deliveries to endpoint id: deliveries still waiting
// end as cancelled; one in flight finishes its attempt. It returns the
// removed endpoint, or NOT_FOUND naming id (another workspace's, none, or
// already removed), or the codes of Authorize (ActManageWebhooks).
func (s *Service) Remove(ctx context.Context, p core.Principal, id string) (Endpoint, error) {
	if err := core.Authorize(p, core.ActManageWebhooks, s.Config.WebhooksURL()); err != nil {
		return Endpoint{}, err
	}
	var out Endpoint
	err := s.InTx(ctx, func(q *db.Queries) error {
		now := s.Clock.Now()
		n, err := q.WebhookEndpointRemove(ctx, db.WebhookEndpointRemoveParams{RemovedAt: &now, WorkspaceID: p.WorkspaceID, ID: id})
		if err != nil {
			return core.Internal(err)
		}
		if n == 0 {
			return core.FieldError(core.CodeNotFound, "id", "no webhook endpoint %s in this workspace", core.Clip(id, 60))
		}
		row, err := q.WebhookEndpointGet(ctx, db.WebhookEndpointGetParams{WorkspaceID: p.WorkspaceID, ID: id})
		if err != nil {
			return core.Internal(err)
		}
		if _, err := q.WebhookDeliveriesCancelPending(ctx, db.WebhookDeliveriesCancelPendingParams{UpdatedAt: now, EndpointID: id}); err != nil {
			return core.Internal(err)
		}
		out = endpointFromRow(row)
		return nil
	})
	return out, core.AsCoreError(err)
}

// secret is endpoint row's signing secret: lowercase hex of core's Derive
// over the endpoint's ID and salt, so the database never holds it (64
// characters).
func (s *Service) secret(row db.WebhookEndpoint) string {
	return hex.EncodeToString(s.Config.Derive("giftwell webhook secret", []byte(row.ID), row.SecretSalt))
}

// endpointFromRow maps a stored endpoint.
func endpointFromRow(r db.WebhookEndpoint) Endpoint {
	return Endpoint{ID: r.ID, URL: r.Url, Events: r.Events, CreatedAt: r.CreatedAt.UTC()}
}

// checkEvents validates events: 1-10 distinct names of EventNames.
func checkEvents(events []string) ([]string, error) {
	if len(events) == 0 || len(events) > MaxEvents {
		return nil, core.Invalid("events", "name 1 to %d of: %s", MaxEvents, strings.Join(EventNames(), ", "))
	}
	names := EventNames()
	for i, e := range events {
		field := "events[" + strconv.Itoa(i) + "]"
		if !slices.Contains(names, e) {
			return nil, core.Invalid(field, "%q is not an event type; use all or one of %s", core.Clip(e, 60), strings.Join(names[1:], ", "))
		}
		if slices.Contains(events[:i], e) {
			return nil, core.Invalid(field, "%s is named twice", e)
		}
	}
	return slices.Clone(events), nil
}

// checkURL validates an endpoint URL's shape (the Guard decides where it
// may point): absolute http(s) with a host, no credentials or fragment, at
// most maxURL bytes. It returns the URL as given.
func checkURL(raw string) (string, error) {
	if raw == "" {
		return "", core.Invalid("url", "is required: the public HTTPS URL deliveries are POSTed to")
	}
	if len(raw) > maxURL || core.HasControl(raw) {
		return "", core.Invalid("url", "must be at most %d characters without control characters", maxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return "", core.Invalid("url", "must be an absolute URL like https://hooks.example.com/giftwell")
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", core.Invalid("url", "must use https")
	}
	if u.User != nil {
		return "", core.Invalid("url", "must not carry credentials; authenticate deliveries with their signature")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return "", core.Invalid("url", "must not have a fragment")
	}
	return raw, nil
}
