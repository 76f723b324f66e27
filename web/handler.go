package web

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/giftwell/giftwell"
)

// Config is what the web app needs.
type Config struct {
	// App is the domain; every page reads and writes through it.
	App *giftwell.App
	// Log receives internal errors; nil discards.
	Log *slog.Logger
	// TrustForwardedFor takes the client's address from the right-most
	// X-Forwarded-For entry. Set it only behind a proxy that writes that
	// header; otherwise the address is the connection's (r.RemoteAddr).
	TrustForwardedFor bool
}

// handler holds what every page handler shares.
type handler struct {
	app   *giftwell.App
	log   *slog.Logger
	pages *pages
	// secureCookies is true when the site URL is https.
	secureCookies     bool
	trustForwardedFor bool
}

// NewHandler returns the web app: every page at the site root, its static
// assets under /static/, and a 404 page for anything else. Requests that
// change state are refused with 403 when they come from another site.
func NewHandler(cfg Config) http.Handler {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handler{
		app:               cfg.App,
		log:               log,
		pages:             mustParsePages(),
		secureCookies:     strings.HasPrefix(strings.ToLower(cfg.App.Config.SiteURL), "https://"),
		trustForwardedFor: cfg.TrustForwardedFor,
	}
	return securityHeaders(h.crossOriginProtection(h.refuseHostileText(h.routes())))
}

// routes is the table of pages. A page is a template in templates/ and a
// handler; signed-in pages are wrapped in h.signedIn.
func (h *handler) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", staticHandler())

	mux.HandleFunc("GET /login", h.loginPage)
	mux.HandleFunc("POST /login", h.login)
	mux.HandleFunc("POST /logout", h.logout)
	mux.HandleFunc("GET /invite/{token}", h.invitationPage)
	mux.HandleFunc("POST /invite/{token}", h.acceptInvitation)
	mux.HandleFunc("GET /g/{token}", giftLinkHeaders(h.giftLinkPage))
	mux.HandleFunc("POST /g/{token}", giftLinkHeaders(h.confirmGiftLink))
	mux.HandleFunc("POST /g/{token}/decline", giftLinkHeaders(h.declineGiftLink))
	mux.HandleFunc("GET /unsubscribe/{token}", h.unsubscribePage)
	mux.HandleFunc("POST /unsubscribe/{token}", h.unsubscribe)

	mux.Handle("GET /{$}", h.signedIn(h.home))
	mux.Handle("POST /workspace/switch", h.signedIn(h.switchWorkspace))

	mux.Handle("GET /campaigns", h.signedIn(h.campaigns))
	mux.Handle("GET /campaigns/{id}", h.signedIn(h.campaign))
	mux.Handle("POST /campaigns/{id}/status", h.signedIn(h.setCampaignStatus))
	mux.Handle("POST /campaigns/{id}/auto-approve", h.signedIn(h.setAutoApprove))
	mux.Handle("POST /campaigns/{id}/links.csv", h.signedIn(h.downloadLinks))
	mux.Handle("POST /campaigns/{id}/import", h.signedIn(h.uploadImport))
	mux.Handle("GET /campaigns/{id}/import/{upload}", h.signedIn(h.importMapping))
	mux.Handle("POST /campaigns/{id}/import/{upload}", h.signedIn(h.saveImport))

	mux.Handle("GET /gifts/{id}", h.signedIn(h.gift))
	mux.Handle("POST /gifts/{id}/refund", h.signedIn(h.requestRefund))
	mux.Handle("POST /gifts/{id}/regift", h.signedIn(h.regift))

	mux.Handle("GET /team", h.signedIn(h.team))
	mux.Handle("POST /team/invitations", h.signedIn(h.invite))
	mux.Handle("POST /team/invitations/{id}/revoke", h.signedIn(h.revokeInvitation))
	mux.Handle("POST /team/members/{userID}/role", h.signedIn(h.changeRole))
	mux.Handle("POST /team/members/{userID}/remove", h.signedIn(h.removeMember))

	mux.Handle("GET /settings/keys", h.signedIn(h.keys))
	mux.Handle("POST /settings/keys", h.signedIn(h.createKey))
	mux.Handle("POST /settings/keys/{id}/revoke", h.signedIn(h.revokeKey))

	mux.Handle("GET /settings/webhooks", h.signedIn(h.webhooks))
	mux.Handle("POST /settings/webhooks", h.signedIn(h.createWebhook))
	mux.Handle("POST /settings/webhooks/{id}/remove", h.signedIn(h.removeWebhook))
	mux.Handle("GET /settings/webhooks/{id}", h.signedIn(h.deliveries))
	mux.Handle("POST /settings/webhooks/{id}/deliveries/{deliveryID}/retry", h.signedIn(h.retryDelivery))

	mux.Handle("GET /artwork", h.signedIn(h.artworkLibrary))
	mux.Handle("POST /artwork", h.signedIn(h.uploadArtwork))

	mux.Handle("GET /settings", h.signedIn(h.settings))
	mux.Handle("POST /settings", h.signedIn(h.saveSettings))
	mux.Handle("POST /settings/emails", h.signedIn(h.saveEmails))

	mux.Handle("POST /queue/approve", h.signedIn(h.approveQueued))
	mux.Handle("POST /queue/skip", h.signedIn(h.skipQueued))
	mux.Handle("POST /queue/unskip", h.signedIn(h.unskipQueued))
	mux.Handle("POST /queue/approve-group", h.signedIn(h.approveGroup))
	mux.Handle("POST /queue/skip-group", h.signedIn(h.skipGroup))

	mux.Handle("GET /reports", h.signedIn(h.reports))

	mux.Handle("GET /balance", h.signedIn(h.balance))
	mux.Handle("POST /balance/topup", h.signedIn(h.createTopup))
	mux.Handle("GET /sandbox/pay/{id}", h.signedIn(h.sandboxPayment))
	mux.Handle("POST /sandbox/pay/{id}", h.signedIn(h.completeSandboxPayment))
	mux.Handle("POST /sandbox/pay/{id}/abandon", h.signedIn(h.abandonSandboxPayment))

	mux.Handle("POST /campaigns/{id}/pay", h.signedIn(h.payCampaign))
	mux.Handle("GET /campaigns/{id}/launch", h.signedIn(h.launchPage))
	mux.Handle("POST /campaigns/{id}/launch", h.signedIn(h.launchStep))
	mux.Handle("GET /billing", h.signedIn(h.billingPage))
	mux.Handle("GET /activity", h.signedIn(h.activity))
	mux.Handle("GET /activity.csv", h.signedIn(h.activityCSV))
	mux.Handle("POST /billing/checkouts/{id}/cancel", h.signedIn(h.cancelCheckout))
	mux.Handle("POST /billing/checkouts/{id}/reconcile", h.signedIn(h.reconcileCheckout))
	mux.Handle("GET /billing/invoices/{id}", h.signedIn(h.invoicePage))
	mux.Handle("GET /billing/invoices/{id}/pdf", h.signedIn(h.invoicePDF))

	mux.HandleFunc("/", h.notFound)
	return mux
}

// notFound answers every path the web app does not have.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	h.message(w, r, http.StatusNotFound, "Page not found", "There is no page at this address.")
}
