package web

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/giftlink"
)

// The recipient's page at a gift link, /g/<token>: public, for people who
// never sign in; the token is the credential
// (docs/decisions/0068-recipient-page.md). Its forms are protected from
// other sites like every form here (crossOriginProtection).

// giftLinkFields are the address form's fields, as core names them.
var giftLinkFields = []string{"name", "street", "street2", "city", "state", "zip"}

// giftLinkData is the content of the recipient's pages.
type giftLinkData struct {
	Token string
	Page  giftlink.Page
	// Limits are the address form's input limits.
	Limits addressLimits
	// Title and Text explain an end state or a refusal (giftlink_end).
	Title, Text string
}

// addressLimits are the longest values the address form accepts.
type addressLimits struct {
	Name, Street, City, State, Zip int
}

// giftLinkLimits are core's address limits.
var giftLinkLimits = addressLimits{
	Name: giftlink.MaxAddressName, Street: giftlink.MaxAddressStreet, City: giftlink.MaxAddressCity,
	State: giftlink.MaxAddressState, Zip: giftlink.MaxAddressZip,
}

// giftLinkEnds say what an end state means to the recipient. None names
// the gift, the sender or an address.
var giftLinkEnds = map[giftlink.PageState][2]string{
	giftlink.PageUsed: {"This gift link was already used",
		"Someone with this link already confirmed an address for the gift or declined it. If that was not you, contact the person who sent you the link."},
	giftlink.PageRevoked: {"This gift link was stopped",
		"The sender stopped this link before it was used. If you expected a gift, contact the person who sent you the link."},
	giftlink.PageExpired: {"This gift link expired",
		"Gift links work for 14 days, and this one was not used in time. If you still want the gift, contact the person who sent you the link."},
	giftlink.PageReplaced: {"This gift link was replaced",
		"The sender replaced this link with a newer one. Use the most recent link you were sent."},
	giftlink.PageClosed: {"This gift is no longer available",
		"The sender withdrew this gift, so there is nothing to confirm."},
	giftlink.PageUnknown: {"Gift link not found",
		"No gift link has this address. Check that you copied the whole link from the message you were sent."},
}

// giftLinkHeaders sets what every /g/ response carries besides the site's
// headers: no referrer (the path is a secret), no caching, no indexing.
func giftLinkHeaders(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Robots-Tag", "noindex, nofollow")
		next(w, r)
	}
}

// giftLinkPage shows the gift with the address form and the decline
// button, or the plain page of an end state. Opening it records
// send.link_opened once per generation (core).
func (h *handler) giftLinkPage(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	page, err := h.app.GiftLinks.Open(r.Context(), token, h.clientIP(r))
	if err != nil {
		h.giftLinkFailed(w, r, err)
		return
	}
	status := http.StatusOK
	if page.State == giftlink.PageUnknown {
		status = http.StatusNotFound
	}
	h.showGiftLink(w, r, status, token, page, view{Values: url.Values{"name": {page.RecipientName}}})
}

// confirmGiftLink confirms the posted address. A bad field draws the form
// again with the message next to the field and the typed values kept; a
// link that cannot be used any more (a raced answer or revoke) draws its
// end state.
func (h *handler) confirmGiftLink(w http.ResponseWriter, r *http.Request) {
	if !h.parseForm(w, r) {
		return
	}
	token := r.PathValue("token")
	f := r.PostForm
	page, err := h.app.GiftLinks.Confirm(r.Context(), token, h.clientIP(r), giftlink.Address{
		Name: f.Get("name"), Street: f.Get("street"), Street2: f.Get("street2"),
		City: f.Get("city"), State: f.Get("state"), Zip: f.Get("zip"),
	})
	h.answered(w, r, token, page, err)
}

// declineGiftLink declines the gift.
func (h *handler) declineGiftLink(w http.ResponseWriter, r *http.Request) {
	if !h.parseForm(w, r) {
		return
	}
	token := r.PathValue("token")
	page, err := h.app.GiftLinks.Decline(r.Context(), token, h.clientIP(r))
	h.answered(w, r, token, page, err)
}

// answered draws the answer to a confirm or decline: the thank-you page,
// the form again with its problem, or the link's end state.
func (h *handler) answered(w http.ResponseWriter, r *http.Request, token string, page giftlink.Page, err error) {
	if err == nil {
		h.showGiftLink(w, r, http.StatusOK, token, page, view{})
		return
	}
	if page.State == "" {
		h.giftLinkFailed(w, r, err)
		return
	}
	p := h.problemFor(withoutToken(r), err, giftLinkFields...)
	v := view{Problem: p, Values: r.PostForm}
	if page.State != giftlink.PageOpen {
		// The end state's page says it all.
		v = view{}
	}
	h.showGiftLink(w, r, p.Status, token, page, v)
}

// showGiftLink draws page: the open page with the form, the answer to a
// confirm or decline, or an end state.
func (h *handler) showGiftLink(w http.ResponseWriter, r *http.Request, status int, token string, page giftlink.Page, v view) {
	switch page.State {
	case giftlink.PageOpen:
		v.Data = giftLinkData{Token: token, Page: page, Limits: giftLinkLimits}
		h.render(w, r, status, "giftlink", v)
	case giftlink.PageConfirmed, giftlink.PageDeclined:
		v.Data = giftLinkData{Page: page}
		h.render(w, r, status, "giftlink_done", v)
	default:
		end, ok := giftLinkEnds[page.State]
		if !ok {
			end = giftLinkEnds[giftlink.PageUnknown]
		}
		if used, ok := usedLinkWords(page); ok {
			end = used
		}
		h.render(w, r, status, "giftlink_end", view{Data: giftLinkData{Title: end[0], Text: end[1], Page: page}})
	}
}

// giftLinkFailed answers a request that has no page to show: RATE_LIMIT
// (429 with Retry-After) or an internal error, on a plain page.
func (h *handler) giftLinkFailed(w http.ResponseWriter, r *http.Request, err error) {
	p := h.problemFor(withoutToken(r), err)
	title := titleFor(p.Status)
	if core.ErrorCode(err) == core.CodeRateLimit {
		title = "Too many tries"
	}
	p.writeRetryAfter(w)
	h.render(w, r, p.Status, "giftlink_end", view{Data: giftLinkData{Title: title, Text: p.Message}})
}

// withoutToken is r with the gift link's token taken out of its path, for
// the error log (problemFor logs the path of a failed request).
func withoutToken(r *http.Request) *http.Request {
	c := r.Clone(r.Context())
	c.URL.Path, c.URL.RawPath = "/g/[redacted]", ""
	return c
}
