package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
)

// webhooksData is the content of the webhooks page
// (core.Config.WebhooksURL).
type webhooksData struct {
	// Restricted is true for a member: core refused them the list, so the
	// page only says who manages webhooks.
	Restricted bool
	// Endpoints are the workspace's active endpoints, oldest first.
	Endpoints []webhook.Endpoint
	// Created is the endpoint just added, with its secret, shown once; nil
	// on every other visit.
	Created *webhook.CreatedEndpoint
	// CanManage shows the add form and the Remove buttons (display only;
	// core decides).
	CanManage bool
	// EventNames are the names an endpoint may subscribe to: all first.
	EventNames []string
	// MaxEndpoints and MaxEvents are core's bounds, for the hints.
	MaxEndpoints, MaxEvents int
}

// webhookFields are the add form's fields as core names them: url,
// events, and events[i] (a name core refused), which the page shows next
// to the event checkboxes.
var webhookFields = func() []string {
	fields := []string{"url", "events"}
	for i := range webhook.MaxEvents {
		fields = append(fields, "events["+strconv.Itoa(i)+"]")
	}
	return fields
}()

// webhooks lists the workspace's webhook endpoints with the form to add
// one.
func (h *handler) webhooks(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "webhooks", h.webhooksView)
}

func (h *handler) webhooksView(ctx context.Context, s session) (view, error) {
	v := view{Nav: "settings", Values: url.Values{"events": {webhook.AllEvents}}}
	list, err := h.app.Webhooks.List(ctx, s.Principal)
	if core.ErrorCode(err) == core.CodeTeamManagerRequired {
		v.Data = &webhooksData{Restricted: true}
		return v, nil
	}
	if err != nil {
		return view{}, err
	}
	v.Data = &webhooksData{
		Endpoints:    list,
		CanManage:    core.Authorize(s.Principal, core.ActManageWebhooks, "") == nil,
		EventNames:   webhook.EventNames(),
		MaxEndpoints: webhook.MaxEndpoints, MaxEvents: webhook.MaxEvents,
	}
	return v, nil
}

// createWebhook adds the endpoint the form names and shows its signing
// secret once, in this response only (never cached: render sends
// no-store): it is never put in a URL, a redirect, a cookie or a log.
func (h *handler) createWebhook(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	created, err := h.app.Webhooks.Create(r.Context(), s.Principal, webhook.EndpointInput{
		URL: r.PostForm.Get("url"), Events: r.PostForm["events"],
	})
	if err != nil {
		h.formFailed(w, r, s, "webhooks", h.webhooksView, err, webhookFields...)
		return
	}
	v, err := h.webhooksView(r.Context(), s)
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	v.Data.(*webhooksData).Created = &created
	h.page(w, r, s, http.StatusOK, "webhooks", v)
}

// removeWebhook removes the endpoint in the path and lists them again.
func (h *handler) removeWebhook(w http.ResponseWriter, r *http.Request, s session) {
	if _, err := h.app.Webhooks.Remove(r.Context(), s.Principal, r.PathValue("id")); err != nil {
		h.formFailed(w, r, s, "webhooks", h.webhooksView, err)
		return
	}
	http.Redirect(w, r, "/settings/webhooks?done=webhook-removed", http.StatusSeeOther)
}
