package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/internal/webshell"
)

// pageLoader builds a signed-in page's view: the reads the page shows.
type pageLoader func(ctx context.Context, s session) (view, error)

// render draws page name with v and status. The page is drawn into a
// buffer first, so a template error never sends half a page. Pages carry
// personal data and one-time secrets: they are never cached.
func (h *handler) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	var buf bytes.Buffer
	if err := h.pages.execute(&buf, name, v); err != nil {
		h.log.ErrorContext(r.Context(), "web: template failed",
			slog.String("request_id", middleware.GetReqID(r.Context())), slog.String("page", name), slog.Any("err", err))
		http.Error(w, genericProblem, http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// page draws a signed-in page with its header.
func (h *handler) page(w http.ResponseWriter, r *http.Request, s session, status int, name string, v view) {
	sh, err := h.shell(r.Context(), s)
	if err != nil {
		h.fail(w, r, nil, err)
		return
	}
	v.Shell = sh
	h.render(w, r, status, name, v)
}

// show loads and draws a signed-in page, with notice from ?done=.
func (h *handler) show(w http.ResponseWriter, r *http.Request, s session, name string, load pageLoader) {
	v, err := load(r.Context(), s)
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	v.Notice = notices[r.URL.Query().Get("done")]
	h.page(w, r, s, http.StatusOK, name, v)
}

// formFailed draws a signed-in page again after its form failed: the
// problem next to its field (one of formFields) or at the top, the
// submitted values kept, with the problem's status.
func (h *handler) formFailed(w http.ResponseWriter, r *http.Request, s session, name string, load pageLoader, err error, formFields ...string) {
	if core.ErrorCode(err) == core.CodeAuthRequired {
		h.clearSessionCookie(w)
		h.toLogin(w, r)
		return
	}
	p := h.problemFor(r, err, formFields...)
	v, lerr := load(r.Context(), s)
	if lerr != nil {
		h.fail(w, r, &s, lerr)
		return
	}
	v.Problem = p
	v.Values = r.PostForm
	p.writeRetryAfter(w)
	h.page(w, r, s, p.Status, name, v)
}

// fail answers a request that cannot show its page: AUTH_REQUIRED sends
// the person to sign in; anything else is a message page with the error's
// status, inside the header when s is signed in.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, s *session, err error) {
	if core.ErrorCode(err) == core.CodeAuthRequired {
		h.clearSessionCookie(w)
		h.toLogin(w, r)
		return
	}
	p := h.problemFor(r, err)
	v := view{Data: messageData{Title: titleFor(p.Status), Text: p.Message}}
	if p.Status == http.StatusNotFound {
		// Core names what is missing by its ID, for agents: a person reads
		// plain words, and support finds core's words behind Details.
		v.Data = messageData{Title: titleFor(p.Status), Text: notFoundText, Details: p.Message}
	}
	if s != nil {
		if sh, serr := h.shell(r.Context(), *s); serr == nil {
			v.Shell = sh
		}
	}
	p.writeRetryAfter(w)
	h.render(w, r, p.Status, "message", v)
}

// message draws a page with a title and one paragraph, signed out.
func (h *handler) message(w http.ResponseWriter, r *http.Request, status int, title, text string) {
	h.render(w, r, status, "message", view{Data: messageData{Title: title, Text: text}})
}

// notFoundText is what a person reads when what a page shows is missing.
const notFoundText = "There is nothing at this address in this workspace: it may have been removed, or the link may be mistyped."

// messageData is the content of the message page; Details, when set, is
// folded away for support.
type messageData struct {
	Title, Text, Details string
}

// titleFor names a failed page by its status.
func titleFor(status int) string {
	switch status {
	case http.StatusForbidden:
		return "Not allowed"
	case http.StatusNotFound:
		return "Not found"
	case http.StatusConflict:
		return "Cannot do that now"
	case http.StatusTooManyRequests:
		return "Too many requests"
	case http.StatusServiceUnavailable:
		return "Briefly unavailable"
	}
	if status >= http.StatusInternalServerError {
		return "Something went wrong"
	}
	return "Cannot do that"
}

// shell reads the header of a signed-in page: the person and their
// workspaces, as the shell (internal/webshell) reads it for every face.
// shell has webshell.Header's fields, so one converts to the other.
func (h *handler) shell(ctx context.Context, s session) (*shell, error) {
	hd, err := webshell.LoadHeader(ctx, h.app, s.Principal)
	if err != nil {
		return nil, err
	}
	return (*shell)(hd), nil
}

// notices are the success messages a redirect can ask for with ?done=.
// Only these fixed texts are shown, never text from the URL.
var notices = map[string]string{
	"invitation-revoked":  "The invitation was revoked.",
	"role-changed":        "The role was changed.",
	"member-removed":      "The member was removed from the workspace. Their keys and sessions have ended.",
	"key-revoked":         "The key was revoked. Requests using it now fail.",
	"settings-saved":      "The settings were saved.",
	"emails-saved":        "Your email choices were saved.",
	"webhook-removed":     "The webhook endpoint was removed. Deliveries still waiting for it are cancelled.",
	"artwork-uploaded":    "The file was uploaded: it is first in the list. Agents name it by its ID (assetIds, logoAssetId).",
	"delivery-retried":    "The delivery starts a new cycle of up to 8 attempts, the first now. Its new state is marked below.",
	"switched":            "You switched workspace.",
	"campaign-active":     "The campaign is on.",
	"campaign-paused":     "The campaign is paused. Nothing more is sent until it is turned on again.",
	"topup-paid":          "The payment is complete and the funds are in the balance.",
	"topup-pending":       "The payment processor has not confirmed the payment yet; the funds appear once it does.",
	"topup-expired":       "The payment session expired unpaid. Start a new top-up.",
	"checkout-paid":       "The checkout is paid. Launch prepares its gifts.",
	"checkout-cancelled":  "The checkout was cancelled. The campaign can be edited again.",
	"checkout-reconciled": "The checkout was checked with the payment processor.",
	"checkout-abandoned":  "The test payment was abandoned; the checkout expired.",
	"auto-approve-on":     "Auto-approve is on for this playbook.",
	"auto-approve-off":    "Auto-approve is off. Every person waits for approval; the limits are kept.",
	"refund-requested":    "The refund request was sent to Giftwell's staff. Nothing is refunded until they approve it.",
	"regifted":            "The gift has a new recipient and a new link; its payment goes with it. Send them the link.",
	"imported":            "The list was imported.",
}
