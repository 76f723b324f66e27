package web

import (
	"net/http"

	"github.com/giftwell/giftwell/core/giftlink"
)

// refundStates says in words where a gift's refund request stands;
// requested and processing never read as refunded.
var refundStates = map[giftlink.RefundState]string{
	giftlink.RefundRequested:  "Requested: Giftwell's staff are reviewing it. Nothing is refunded yet.",
	giftlink.RefundProcessing: "Approved and being processed. Nothing is refunded yet.",
	giftlink.RefundRefunded:   "Refunded.",
	giftlink.RefundRejected:   "Rejected by Giftwell's staff. You may ask again with more detail.",
}

// RefundText is the gift's refund progress in words; "" without a request.
func (d giftData) RefundText() string {
	if d.Link == nil {
		return ""
	}
	return refundStates[d.Link.RefundState]
}

// CanRequestRefund is true when the viewer, an owner or admin, may ask for
// this gift's refund (its link shows canRequestRefund).
func (d giftData) CanRequestRefund() bool {
	return d.CanPay && d.Link != nil && d.Link.CanRequestRefund
}

// requestRefund asks staff to refund gift id (POST /gifts/{id}/refund),
// then shows the gift with the request's state.
func (h *handler) requestRefund(w http.ResponseWriter, r *http.Request, s session) {
	if !h.parseForm(w, r) {
		return
	}
	id := r.PathValue("id")
	if _, err := h.app.GiftLinks.RequestRefund(r.Context(), s.Principal, id, r.PostForm.Get("reason")); err != nil {
		h.formFailed(w, r, s, "gift", h.giftLoader(id), err, "reason")
		return
	}
	http.Redirect(w, r, "/gifts/"+id+"?done=refund-requested#gift-refund", http.StatusSeeOther)
}
