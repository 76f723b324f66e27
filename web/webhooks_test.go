package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestWebhookSecretIsShownOnce(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.get("/settings")
	require.Contains(t, res.Body, `<a href="/settings/webhooks">Webhooks</a>`, "the settings page links the webhooks page")
	res = owner.get("/settings/webhooks")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `<form method="post" action="/settings/webhooks"`)
	require.Contains(t, res.Body, "No endpoints yet.")
	for _, name := range webhook.EventNames() {
		require.Contains(t, res.Body, `name="events" value="`+name+`"`, "a checkbox for %s", name)
	}
	require.Contains(t, res.Body, `value="all" id="event-all" checked`, "all is ticked on a fresh form")

	hook := h.base + "/giftwell"
	res = owner.post("/settings/webhooks", url.Values{"url": {hook}, "events": {"send.created", "playbook.person_waiting"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	require.Empty(t, res.Header.Get("Location"))
	m := secretPattern.FindStringSubmatch(res.Body)
	require.NotNil(t, m, res.Body)
	secret := m[1]
	require.Regexp(t, `^[0-9a-f]{64}$`, secret)
	require.Contains(t, res.Body, `data-copy="webhook-secret"`)
	require.Contains(t, res.Body, "Store it now; it is never shown again.")
	require.Contains(t, res.Body, `data-shown-once="/settings/webhooks"`, "reloading reads the page, not the form")

	res = owner.get("/settings/webhooks")
	require.NotContains(t, res.Body, secret, "the secret is shown only once")
	require.NotContains(t, res.Body, "webhook-secret")
	require.Contains(t, res.Body, `<code class="endpoint-url">`+hook+`</code>`)
	require.Contains(t, res.Body, "<code>send.created</code>, <code>playbook.person_waiting</code>")
	require.NotContains(t, h.logs.String(), secret, "nor logged")

	// The secret shown is the one deliveries are signed with.
	list, err := h.env.App.Webhooks.List(context.Background(), h.ownerPrincipal())
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Contains(t, res.Body, `href="/settings/webhooks/`+list[0].ID+`"`, "a link to its deliveries")
	h.record(core.EventSendCreated, 1)
	h.work()
	got := h.sender.Requests()
	require.NotEmpty(t, got)
	header, body := got[len(got)-1].Header, got[len(got)-1].Body
	require.NotEmpty(t, body)
	sig := header.Get(webhook.HeaderSignature)
	ts, v1, ok := strings.Cut(strings.TrimPrefix(sig, "t="), ",v1=")
	require.True(t, ok, sig)
	require.Equal(t, webhook.Sign(secret, ts, body), v1)
}

func TestWebhookFormShowsProblemsNextToFields(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.post("/settings/webhooks", url.Values{"url": {"https://10.0.0.1/hook"}, "events": {"send.created", "send.link_opened"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `<p class="field-error" id="url-error"><span class="visually-hidden">Error:</span> 10.0.0.1 is a private (RFC 1918) address, not a public address.</p>`)
	require.Contains(t, res.Body, `value="https://10.0.0.1/hook"`, "the typed URL is kept")
	require.Contains(t, res.Body, `value="send.created" id="event-send.created" checked`, "the ticked events are kept")
	require.Contains(t, res.Body, `value="send.link_opened" id="event-send.link_opened" checked`)
	require.NotContains(t, res.Body, `id="event-all" checked`)
	require.NotContains(t, res.Body, "webhook-secret")

	res = owner.post("/settings/webhooks", url.Values{"url": {"ftp://127.0.0.1:9/x"}, "events": {"all"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `id="url-error"`)
	require.Contains(t, res.Body, "Must use https.")

	res = owner.post("/settings/webhooks", url.Values{"url": {h.base + "/x"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `<p class="field-error" id="events-error">`)
	require.Contains(t, res.Body, "Name 1 to 10 of: all, send.created")
	require.Contains(t, res.Body, `value="`+h.base+`/x"`)
	require.NotContains(t, res.Body, `id="url-error"`)

	// Both problems at once.
	res = owner.post("/settings/webhooks", url.Values{"url": {"ftp://127.0.0.1:9/x"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `id="url-error"`)
	require.Contains(t, res.Body, `id="events-error"`)

	res = owner.post("/settings/webhooks", url.Values{"url": {h.base + "/x"}, "events": webhook.EventNames()})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "all and every type are 11 names")
	require.Contains(t, res.Body, `id="events-error"`)

	res = owner.post("/settings/webhooks", url.Values{"url": {h.base + "/x"}, "events": {"send.created", "send.nope"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, html.UnescapeString(res.Body), `"send.nope" is not an event type`, "a name core refused shows at the events")
	require.Contains(t, res.Body, `id="events-error"`)

	list, err := h.env.App.Webhooks.List(context.Background(), h.ownerPrincipal())
	require.NoError(t, err)
	require.Empty(t, list, "nothing was added")
}

func TestWebhooksForMembersAdminsAndOtherWorkspaces(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	ctx := context.Background()
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	id, _ := h.addEndpoint(owner, h.base+"/ours", "all")

	memberEmail, _ := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(memberEmail)
	res := member.get("/settings/webhooks")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `id="webhooks-restricted"`)
	require.Contains(t, res.Body, "Webhooks are managed by an owner or admin of this workspace.")
	require.NotContains(t, res.Body, `action="/settings/webhooks"`, "no form")
	require.NotContains(t, res.Body, strings.TrimPrefix(h.base, "http://")+"/ours", "no list")
	res = member.post("/settings/webhooks", url.Values{"url": {h.base + "/mine"}, "events": {"all"}})
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.NotContains(t, res.Body, "webhook-secret")
	res = member.post("/settings/webhooks/"+id+"/remove", nil)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Equal(t, http.StatusForbidden, member.get("/settings/webhooks/"+id).StatusCode)

	adminEmail, _ := h.addMember(core.RoleAdmin)
	admin := h.client()
	admin.signIn(adminEmail)
	res = admin.get("/settings/webhooks")
	require.Contains(t, res.Body, strings.TrimPrefix(h.base, "http://")+"/ours", "an admin sees the list")
	h.addEndpoint(admin, h.base+"/admins", "send.created")

	list, err := h.env.App.Webhooks.List(ctx, h.ownerPrincipal())
	require.NoError(t, err)
	require.Len(t, list, 2, "the member changed nothing")

	other := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{})
	_, them := h.env.SignIn(t, other.OwnerEmail)
	theirs, err := h.env.App.Webhooks.Create(ctx, them, webhook.EndpointInput{URL: h.base + "/theirs", Events: []string{"all"}})
	require.NoError(t, err)
	res = owner.get("/settings/webhooks/" + theirs.ID)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.NotContains(t, res.Body, "theirs")
	require.Equal(t, http.StatusNotFound, owner.post("/settings/webhooks/"+theirs.ID+"/remove", nil).StatusCode)
	require.Equal(t, http.StatusNotFound, owner.post("/settings/webhooks/"+theirs.ID+"/deliveries/dlv_x/retry", url.Values{"source": {"gift"}}).StatusCode)
	require.NotContains(t, owner.get("/settings/webhooks").Body, "theirs")
	still, err := h.env.App.Webhooks.List(ctx, them)
	require.NoError(t, err)
	require.Len(t, still, 1, "their endpoint is untouched")
}

func TestWebhookRemove(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	id, _ := h.addEndpoint(owner, h.base+"/gone", "all")
	h.sender.Answer(http.StatusInternalServerError)
	h.record(core.EventSendCreated, 1)
	h.work()
	require.Equal(t, webhook.StateRetrying, h.deliveries(id, webhook.SourceGift)[0].State)

	res := owner.get("/settings/webhooks")
	require.Contains(t, res.Body, `action="/settings/webhooks/`+id+`/remove"`)
	require.Contains(t, res.Body, "Remove this endpoint")
	res = owner.post("/settings/webhooks/"+id+"/remove", nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/settings/webhooks?done=webhook-removed", res.Header.Get("Location"))
	res = owner.get("/settings/webhooks?done=webhook-removed")
	require.Contains(t, res.Body, "The webhook endpoint was removed.")
	require.Contains(t, res.Body, "No endpoints yet.")

	// Its deliveries stay readable, cancelled, with nothing to retry.
	res = owner.get("/settings/webhooks/" + id)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "was removed: nothing more is sent to it.")
	require.Contains(t, res.Body, `data-state="cancelled"`)
	require.NotContains(t, res.Body, "/retry")

	res = owner.post("/settings/webhooks/"+id+"/remove", nil)
	require.Equal(t, http.StatusNotFound, res.StatusCode, "removed already")
}

var olderPattern = regexp.MustCompile(`<a href="(/settings/webhooks/[^"]+)" rel="next">Older</a>`)

func TestWebhookDeliveriesPageAndRetry(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	id, _ := h.addEndpoint(owner, h.base+"/receiver", "all")

	// One gift event and one playbook event fail 8 times and die; 50 newer
	// gift events are delivered at the first attempt.
	h.sender.Answer(http.StatusInternalServerError)
	h.record(core.EventSendCreated, 1)
	h.record(core.EventPlaybookPersonWaiting, 1)
	for range webhook.MaxAttempts {
		h.work()
	}
	h.sender.Answer(http.StatusNoContent)
	h.record(core.EventSendStatusChanged, webhook.DefaultDeliveryLimit)
	h.work()

	res := owner.get("/settings/webhooks/" + id)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `To <code>`+h.base+`/receiver</code>, for all events`)
	require.Contains(t, res.Body, `href="/settings/webhooks/`+id+`?source=gift" aria-current="page">Gift events</a>`)
	require.Equal(t, webhook.DefaultDeliveryLimit, strings.Count(res.Body, `data-state="delivered"`), "the first page")
	require.Equal(t, webhook.DefaultDeliveryLimit, strings.Count(res.Body, "<code>send.status_changed</code>"))
	require.NotContains(t, res.Body, "/retry", "nothing to retry on this page")
	older := olderPattern.FindStringSubmatch(res.Body)
	require.NotNil(t, older, "an Older link")

	res = owner.get(html.UnescapeString(older[1]))
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, 1, strings.Count(res.Body, "data-delivery="), res.Body)
	require.Contains(t, res.Body, `data-state="dead"`)
	require.Contains(t, res.Body, `<td data-label="Attempts">8</td>`, "8 attempts")
	require.Contains(t, res.Body, `<td data-label="Last status">500</td>`, "the last status")
	require.Contains(t, res.Body, "answered 500")
	require.Contains(t, res.Body, ">Newest</a>")
	require.Nil(t, olderPattern.FindStringSubmatch(res.Body), "the last page")

	dead := h.deliveries(id, webhook.SourceGift)[webhook.DefaultDeliveryLimit]
	require.Equal(t, webhook.StateDead, dead.State)
	retry := "/settings/webhooks/" + id + "/deliveries/" + dead.ID + "/retry"
	require.Contains(t, res.Body, `action="`+retry+`"`)
	before := strings.TrimPrefix(html.UnescapeString(older[1]), "/settings/webhooks/"+id+"?source=gift&before=")
	res = owner.post(retry, url.Values{"source": {"gift"}, "before": {before}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	loc := res.Header.Get("Location")
	require.Equal(t, "/settings/webhooks/"+id+"?"+url.Values{"source": {"gift"}, "before": {before}, "retried": {dead.ID}, "done": {"delivery-retried"}}.Encode(), loc)
	res = owner.get(loc)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "The delivery starts a new cycle of up to 8 attempts")
	require.Contains(t, res.Body, `<tr data-delivery="`+dead.ID+`" data-state="pending" class="retried">`, "the new state, marked")
	require.NotContains(t, res.Body, retry, "a pending delivery has no Retry")
	require.Equal(t, webhook.StatePending, h.deliveries(id, webhook.SourceGift)[webhook.DefaultDeliveryLimit].State)

	// The new cycle's first attempt succeeds.
	h.work()
	res = owner.get(loc)
	require.Contains(t, res.Body, `<tr data-delivery="`+dead.ID+`" data-state="delivered" class="retried">`)
	require.Contains(t, res.Body, `<td data-label="Attempts">9</td>`, "attempts over every cycle")

	// A delivered one cannot be retried: core says why, on the page.
	res = owner.post(retry, url.Values{"source": {"gift"}})
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "was delivered; there is nothing to retry")
	require.Contains(t, res.Body, `id="deliveries"`, "the deliveries are shown again")

	// The playbook tab has the playbook event's delivery, dead, to retry.
	res = owner.get("/settings/webhooks/" + id + "?source=playbook")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, `?source=playbook" aria-current="page">Playbook events</a>`)
	require.Equal(t, 1, strings.Count(res.Body, "data-delivery="))
	require.Contains(t, res.Body, "<code>playbook.person_waiting</code>")
	waiting := h.deliveries(id, webhook.SourcePlaybook)[0]
	require.Equal(t, webhook.StateDead, waiting.State)
	res = owner.post("/settings/webhooks/"+id+"/deliveries/"+waiting.ID+"/retry", url.Values{"source": {"playbook"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Contains(t, res.Header.Get("Location"), "source=playbook")
	require.Equal(t, webhook.StatePending, h.deliveries(id, webhook.SourcePlaybook)[0].State)

	require.Equal(t, http.StatusBadRequest, owner.get("/settings/webhooks/"+id+"?source=bogus").StatusCode)
	require.Equal(t, http.StatusNotFound, owner.get("/settings/webhooks/whk_nope").StatusCode)
}
