package resources

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
)

// WebhookDeliveriesTemplate names one webhook endpoint's deliveries, paged
// as GET /webhooks/{id}/deliveries is: source, limit and before.
const WebhookDeliveriesTemplate = "giftwell://webhooks/{id}/deliveries{?source,limit,before}"

// webhookDeliveries is giftwell://webhooks/{id}/deliveries: an endpoint's
// deliveries as the REST route answers them (its data), for the workspace's
// owners and admins; another workspace's endpoint is not found.
func webhookDeliveries(app *giftwell.App) Template {
	return Template{
		URITemplate: WebhookDeliveriesTemplate,
		Name:        "webhook-deliveries",
		Title:       "A webhook endpoint's deliveries",
		Description: "An endpoint's deliveries, newest event first, as JSON {items, nextBefore}: source gift (default) or playbook, " +
			"limit 1-100 (default 50), before: a nextBefore for the next page. Owners and admins only.",
		MIMEType: MIMEJSON,
		match: func(uri string) bool {
			_, _, ok := parseDeliveriesURI(uri)
			return ok
		},
		read: func(ctx context.Context, p core.Principal, uri string) (string, error) {
			id, query, ok := parseDeliveriesURI(uri)
			if !ok {
				return "", core.FieldError(core.CodeNotFound, "uri", "no resource %s", uri)
			}
			in, err := deliveryQuery(query)
			if err != nil {
				return "", err
			}
			page, err := app.Webhooks.Deliveries(ctx, p, id, in)
			if err != nil {
				return "", err
			}
			b, err := json.Marshal(page)
			if err != nil {
				return "", core.Internal(err)
			}
			return string(b), nil
		},
	}
}

// parseDeliveriesURI splits giftwell://webhooks/<id>/deliveries?<query>.
func parseDeliveriesURI(uri string) (id string, query url.Values, ok bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "giftwell" || u.Host != "webhooks" || u.Fragment != "" {
		return "", nil, false
	}
	parts := strings.Split(strings.TrimPrefix(u.Path, "/"), "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] != "deliveries" {
		return "", nil, false
	}
	query, err = url.ParseQuery(u.RawQuery)
	if err != nil {
		return "", nil, false
	}
	return parts[0], query, true
}

// deliveryQuery reads the page a deliveries URI asks for: VALIDATION_ERROR
// naming a parameter given twice, a limit that is not a number from 1, or a
// parameter the route does not take; the rest is Deliveries' to check.
func deliveryQuery(q url.Values) (webhook.DeliveryQuery, error) {
	var in webhook.DeliveryQuery
	for k, v := range q {
		if len(v) != 1 {
			return in, core.Invalid(k, "is given %d times; give it once", len(v))
		}
		switch k {
		case "source":
			in.Source = v[0]
		case "before":
			in.Before = v[0]
		case "limit":
			n, err := strconv.Atoi(v[0])
			if err != nil || n < 1 {
				return in, core.Invalid("limit", "must be a number between 1 and %d", webhook.MaxDeliveryLimit)
			}
			in.Limit = n
		default:
			return in, core.Invalid(k, "is not a parameter of this resource; use source, limit or before")
		}
	}
	return in, nil
}
