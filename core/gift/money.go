package gift

import (
	"context"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// RefundDays is how long a card refund takes to reach the card once the
// processor made it, as the page says it.
const RefundDays = "5 to 10 business days"

// Money is where one gift's money is, and since when
// (docs/decisions/0119-money-after-a-decline.md).
type Money struct {
	State      MoneyState
	Status     SendStatus
	FundedBy   FundedBy
	TotalCents int64
	// BackAt is when its cost came back (MoneyBack), when known.
	BackAt *time.Time
	// EndedAt is when the gift was declined or expired, when known.
	EndedAt *time.Time
	// ToCard is set when its cost went back to the card (a refund
	// request of a card-paid gift), unset when credited to the balance.
	ToCard bool
}

// GiftMoney returns where the money of gift sendID of p's workspace is. It
// returns NOT_FOUND naming id, the codes of Authorize (ActRead), or
// INTERNAL_ERROR.
func (a *Service) GiftMoney(ctx context.Context, p core.Principal, sendID string) (Money, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Money{}, err
	}
	r, err := db.New(a.DB).SendMoneyGet(ctx, db.SendMoneyGetParams{WorkspaceID: p.WorkspaceID, ID: sendID})
	if core.IsNoRows(err) {
		return Money{}, core.FieldError(core.CodeNotFound, "id", "no gift %s in this workspace", sendID)
	}
	if err != nil {
		return Money{}, core.Internal(err)
	}
	return moneyFromRow(r), nil
}

// moneyFromRow reads one gift's money.
func moneyFromRow(r db.SendMoneyGetRow) Money {
	m := Money{Status: SendStatus(r.Status), FundedBy: FundedBy(r.FundedBy), TotalCents: r.TotalCents}
	back := r.Credited || r.Refunded
	m.State = MoneyOf(m.Status, m.FundedBy, back)
	if m.Status == SendDeclined || m.Status == SendExpired {
		m.EndedAt = reached(r.StatusAt)
	}
	switch {
	case r.Refunded && m.FundedBy == FundedByCheckout:
		m.ToCard, m.BackAt = true, reached(r.RefundedAt)
	case r.Credited:
		m.BackAt = reached(r.CreditedAt)
	case m.State == MoneyBack:
		m.BackAt = m.EndedAt
	}
	return m
}

// reached is t, or nil for the epoch SendMoneyGet reads for a time never
// reached.
func reached(t time.Time) *time.Time {
	if t.Unix() == 0 {
		return nil
	}
	t = t.UTC()
	return &t
}

// CampaignTotals returns the Totals of campaign campaignID's gifts, test
// and live, read on q.
func CampaignTotals(ctx context.Context, q *db.Queries, workspaceID, campaignID string) (Totals, error) {
	rows, err := q.SendMoneyByCampaign(ctx, db.SendMoneyByCampaignParams{WorkspaceID: workspaceID, CampaignID: campaignID})
	if err != nil {
		return Totals{}, core.Internal(err)
	}
	var t Totals
	for _, r := range rows {
		t.Add(SendStatus(r.Status), FundedBy(r.FundedBy), r.MoneyBack, int(r.Gifts), r.Cents)
	}
	return t, nil
}

// CampaignTotals returns the Totals of campaign campaignID of p's
// workspace (a campaign without gifts, or of another workspace, has zero
// totals). It returns the codes of Authorize (ActRead) or INTERNAL_ERROR.
func (a *Service) CampaignTotals(ctx context.Context, p core.Principal, campaignID string) (Totals, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Totals{}, err
	}
	return CampaignTotals(ctx, db.New(a.DB), p.WorkspaceID, campaignID)
}
