package approval

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// SendParams describe a gift for a person on a campaign's roster.
type SendParams struct {
	CampaignID  string
	RecipientID string
	// Status is the gift's status; empty means the status approval gives
	// (ready with a known address, awaiting_address otherwise).
	Status     gift.SendStatus
	TotalCents int64
	FundedBy   gift.FundedBy
	// Mode is the workspace mode the gift is created in; empty means the
	// principal's.
	Mode core.Mode
	// Attribution holds the gift's own values, which override the
	// campaign's and the recipient's externalId.
	Attribution *gift.Attribution
	// Outcome is none unless given.
	Outcome string
	// ShippingStates limit where the recipient may confirm an address (a
	// prepaid offer's two-letter states); nil allows every state.
	ShippingStates []string
}

// InsertSend records a gift for a person on a campaign's roster, copying
// the person's identity so that repeats are found even after the roster
// changes, and the attribution: the campaign's, then the recipient's
// externalId, then the gift's own values. It returns the send's ID.
//
// It records history only: it moves no money and records no events
// (approval creates paid gifts through createGift; launch will for
// checkouts). Tests use it to record that a person was gifted before. It
// returns NOT_FOUND for a campaign or recipient outside p's workspace.
func (a *Service) InsertSend(ctx context.Context, p core.Principal, sp SendParams) (string, error) {
	var id string
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var err error
		id, err = a.insertSend(ctx, tx, p, sp)
		return err
	})
	return id, core.AsCoreError(err)
}

func (a *Service) insertSend(ctx context.Context, tx pgx.Tx, p core.Principal, sp SendParams) (string, error) {
	q := db.New(tx)
	c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, sp.CampaignID)
	if err != nil {
		return "", err
	}
	roster, err := campaign.LoadRoster(ctx, q, c.ID)
	if err != nil {
		return "", err
	}
	var who *campaign.Person
	for i := range roster.People {
		if roster.People[i].ID == sp.RecipientID {
			who = &roster.People[i]
		}
	}
	if who == nil {
		return "", core.FieldError(core.CodeNotFound, "recipientId", "%s is not on campaign %s", sp.RecipientID, c.ID)
	}
	status, mode, outcome, funded := sp.Status, sp.Mode, sp.Outcome, sp.FundedBy
	if mode == "" {
		mode = p.Mode
	}
	if outcome == "" {
		outcome = "none"
	}
	if funded == "" {
		funded = gift.FundedByBalance
		if !c.Mode.Playbook() {
			funded = gift.FundedByCheckout
		}
	}
	g := giftParams{c: c, who: *who, unitCents: sp.TotalCents, mode: mode, fundedBy: funded, status: status,
		attribution: sp.Attribution, outcome: outcome, approvedBy: p.UserID, recordOnly: true, shippingStates: sp.ShippingStates}
	sent, err := a.createGift(ctx, tx, g)
	if err != nil {
		return "", err
	}
	return sent.ID, nil
}
