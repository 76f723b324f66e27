package approval

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// giftParams describe a gift to create for a person of a campaign.
type giftParams struct {
	c   campaign.Record
	who campaign.Person
	// unitCents is what the gift costs (the product's price + shipping).
	unitCents int64
	mode      core.Mode
	fundedBy  gift.FundedBy
	status    gift.SendStatus
	// approvedBy is the approving user, "" for auto-approve.
	approvedBy   string
	autoApproved bool
	// attribution holds the gift's own values, or nil.
	attribution *gift.Attribution
	outcome     string
	// shippingStates limit where the recipient may confirm an address (a
	// prepaid offer's shippingStates, two-letter codes); nil allows every
	// state.
	shippingStates []string
	// recordOnly records a gift that was paid elsewhere (InsertSend's
	// history): no debit and no events.
	recordOnly bool
	// lockedBalance is the balance of mode, which the caller's transaction
	// has locked and read (auto-approve; the gift is paid from it), or
	// nil: the debit locks it.
	lockedBalance *int64
}

// createGift creates the gift of gp through core/gift inside the caller's
// transaction, which has locked the campaign, and stores the person's
// approval state with it: the gift is made of the person as they are now,
// the campaign's attribution, note and customization, and (for a product
// that requiresPortrait) the person's uploaded photo. Either all of it
// lands or none.
func (a *Service) createGift(ctx context.Context, tx pgx.Tx, gp giftParams) (gift.Gift, error) {
	q := db.New(tx)
	n, err := newGiftOf(ctx, q, gp, nil)
	if err != nil {
		return gift.Gift{}, err
	}
	var g gift.Gift
	if gp.lockedBalance != nil {
		// The balance is locked already: the debit needs no lock of its own
		// (CreateMany refuses a gift not paid from it).
		var gs []gift.Gift
		if gs, err = a.Gifts.CreateMany(ctx, tx, *gp.lockedBalance, []gift.New{n}); err == nil {
			g = gs[0]
		}
	} else {
		g, err = a.Gifts.Create(ctx, tx, n)
	}
	if err != nil {
		return gift.Gift{}, err
	}
	state := campaign.ApprovalApproved
	if g.AutoApproved {
		state = campaign.ApprovalAutoApproved
	}
	// A plain write: in a pipeline (an add) it rides with the commit.
	if err := q.RecipientSetApprovedMany(ctx, db.RecipientSetApprovedManyParams{
		ApprovalState: string(state), UpdatedAt: g.CreatedAt, WorkspaceID: gp.c.WorkspaceID, Ids: []string{gp.who.ID},
	}); err != nil {
		return gift.Gift{}, core.Internal(err)
	}
	return g, nil
}

// newGiftOf is the gift.New of gp: the person as they are now, the
// campaign's attribution, note and customization, the trail (read through
// names, which may be nil) and, for a product that requiresPortrait, the
// person's uploaded photo.
func newGiftOf(ctx context.Context, q *db.Queries, gp giftParams, names trailNames) (gift.New, error) {
	c, who := gp.c, gp.who
	n := gift.New{
		WorkspaceID: c.WorkspaceID, CampaignID: c.ID, RecipientID: who.ID, ProductID: c.ProductID,
		Recipient: gift.GiftRecipient{
			Name: who.Name, Email: who.Email, Company: who.Company, Title: who.Title, SourceSystem: who.SourceSystem,
			ExternalID: who.ExternalID, ProfileURL: who.ProfileURL, AddressMode: who.AddressMode,
			Address: who.Address, City: who.City, State: who.State, Zip: who.Zip, Country: who.Country,
		},
		UnitCents: gp.unitCents, Mode: gp.mode, FundedBy: gp.fundedBy, Status: gp.status,
		ApprovedBy: gp.approvedBy, AutoApproved: gp.autoApproved,
		Attribution: gift.AttributionOf(c.Attribution, who.ExternalID, gp.attribution), Outcome: gp.outcome,
		ShippingStates: gp.shippingStates, Note: campaign.PersonNote(c.Message, who.Message, who.NoteValues()).Resolved,
		Customization: c.Customization, RecordOnly: gp.recordOnly,
	}
	if gp.autoApproved && c.AutoApprove != nil {
		limit := c.AutoApprove.PerGiftMaxCents
		n.PerGiftMaxCents = &limit
	}
	if !gp.recordOnly {
		trail, err := trailOf(ctx, q, gp, names)
		if err != nil {
			return gift.New{}, err
		}
		n.Trail = trail
	}
	if who.Photo != nil && who.Photo.Source == campaign.PhotoUpload {
		n.PortraitAssetID = who.Photo.AssetID
	}
	return n, nil
}

// trailNames remembers the names trailOf read, by what it asked, so that a
// group of gifts prepared by the same key reads them once; nil remembers
// nothing.
type trailNames map[db.GiftTrailNamesParams]db.GiftTrailNamesRow

// preparedKinds name who added a person as a gift's preparedBy kind.
var preparedKinds = map[core.Via]string{
	core.ViaKey: gift.PreparedByKey, core.ViaConnection: gift.PreparedByConnection, core.ViaSession: gift.PreparedByPerson,
}

// trailOf is who prepared the gift of gp (who added the person, as named
// now: by the request that added them, or read) and who decided it (the
// auto-approve rule at the playbook's policy version, or the approving
// person), in at most one statement. A person added before the trail was
// recorded has no preparedBy.
func trailOf(ctx context.Context, q *db.Queries, gp giftParams, memo trailNames) (gift.Trail, error) {
	var t gift.Trail
	prep := gp.who.Prepared
	kind := preparedKinds[prep.Via]
	if kind == "" && gp.approvedBy == "" {
		if gp.autoApproved {
			t.DecidedBy = &gift.DecidedBy{Kind: gift.DecidedByRule, Name: gift.AutoApproveName, RuleVersion: gp.c.PolicyVersion}
		}
		return t, nil
	}
	ask := db.GiftTrailNamesParams{
		PreparedVia: string(prep.Via), PreparedCredential: prep.CredentialID, PreparedUser: prep.UserID, DecidedUser: gp.approvedBy,
	}
	names, known := memo[ask]
	if prep.Names != nil && gp.approvedBy == "" {
		// Read when the request that added the person was authenticated.
		names, known = db.GiftTrailNamesRow{PreparedName: prep.Names.Name, PreparedEmail: prep.Names.Email}, true
	}
	if !known {
		var err error
		if names, err = q.GiftTrailNames(ctx, ask); err != nil {
			return gift.Trail{}, core.Internal(err)
		}
		if memo != nil {
			memo[ask] = names
		}
	}
	if kind != "" {
		t.PreparedBy = &gift.PreparedBy{Kind: kind, Name: names.PreparedName, PersonEmail: names.PreparedEmail}
	}
	switch {
	case gp.autoApproved:
		t.DecidedBy = &gift.DecidedBy{Kind: gift.DecidedByRule, Name: gift.AutoApproveName, RuleVersion: gp.c.PolicyVersion}
	case gp.approvedBy != "":
		t.DecidedBy = &gift.DecidedBy{Kind: gift.DecidedByPerson, Name: names.DecidedName, Email: names.DecidedEmail}
	}
	return t, nil
}
