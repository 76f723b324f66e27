package web

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/giftwell/giftwell/core/webhook"
)

// deliveriesData is the content of an endpoint's deliveries page.
type deliveriesData struct {
	// Endpoint is the endpoint: its ID always, its URL and events while it
	// is active.
	Endpoint webhook.Endpoint
	// Removed is true when the endpoint no longer receives deliveries; its
	// deliveries stay readable.
	Removed bool
	// Source is the tab shown: gift or playbook.
	Source string
	// Sources are the tabs.
	Sources []string
	// Before is the page's before ("" for the newest).
	Before string
	// Items are the deliveries, newest event first.
	Items []deliveryRow
	// NextBefore continues the list ("" on the last page).
	NextBefore string
}

// deliveryRow is one delivery as the table shows it.
type deliveryRow struct {
	webhook.Delivery
	// NextAttempt is when the next attempt is due; zero when none is.
	NextAttempt time.Time
	// CanRetry shows the Retry button on a dead or retrying delivery
	// (display only; core decides).
	CanRetry bool
	// Retried marks the delivery the last Retry restarted.
	Retried bool
}

// deliveries shows one endpoint's deliveries of a source, a page at a
// time (?source=, ?before=).
func (h *handler) deliveries(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "webhooks_deliveries", h.deliveriesView(r.PathValue("id"), r.URL.Query()))
}

// deliveriesView loads endpoint id's deliveries as query asks: source,
// before, and retried (the delivery to mark).
func (h *handler) deliveriesView(id string, query url.Values) pageLoader {
	return func(ctx context.Context, s session) (view, error) {
		page, err := h.app.Webhooks.Deliveries(ctx, s.Principal, id, webhook.DeliveryQuery{
			Source: query.Get("source"), Before: query.Get("before"),
		})
		if err != nil {
			return view{}, err
		}
		list, err := h.app.Webhooks.List(ctx, s.Principal)
		if err != nil {
			return view{}, err
		}
		d := &deliveriesData{
			Endpoint: webhook.Endpoint{ID: id}, Removed: true,
			Source: webhook.SourceGift, Sources: []string{webhook.SourceGift, webhook.SourcePlaybook},
			Before: query.Get("before"),
		}
		if query.Get("source") == webhook.SourcePlaybook {
			d.Source = webhook.SourcePlaybook
		}
		for _, e := range list {
			if e.ID == id {
				d.Endpoint, d.Removed = e, false
			}
		}
		if page.NextBefore != nil {
			d.NextBefore = *page.NextBefore
		}
		retried := query.Get("retried")
		for _, it := range page.Items {
			row := deliveryRow{Delivery: it, Retried: it.ID == retried,
				CanRetry: !d.Removed && (it.State == webhook.StateDead || it.State == webhook.StateRetrying)}
			if it.NextAt != nil {
				row.NextAttempt = time.UnixMilli(*it.NextAt).UTC()
			}
			d.Items = append(d.Items, row)
		}
		return view{Nav: "settings", Data: d}, nil
	}
}

// retryDelivery starts a new cycle of attempts for the delivery in the
// path and shows the deliveries again, where its new state is marked.
func (h *handler) retryDelivery(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	back := url.Values{"source": {r.PostForm.Get("source")}}
	if before := r.PostForm.Get("before"); before != "" {
		back.Set("before", before)
	}
	d, err := h.app.Webhooks.Retry(r.Context(), s.Principal, id, r.PathValue("deliveryID"), r.PostForm.Get("source"))
	if err != nil {
		h.formFailed(w, r, s, "webhooks_deliveries", h.deliveriesView(id, back), err)
		return
	}
	back.Set("source", d.Source)
	back.Set("retried", d.ID)
	back.Set("done", "delivery-retried")
	http.Redirect(w, r, "/settings/webhooks/"+url.PathEscape(id)+"?"+back.Encode(), http.StatusSeeOther)
}
