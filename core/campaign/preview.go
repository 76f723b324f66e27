package campaign

import (
	"context"
	"fmt"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// PreviewNextAction is what to do after a preview.
type PreviewNextAction string

// The preview next actions.
const (
	// NextReview: ready for a person to review at the review URL.
	NextReview PreviewNextAction = "review"
	// NextProvideSenderAddress: live mode needs sender-supplied addresses;
	// give the user the campaign's page and stop.
	NextProvideSenderAddress PreviewNextAction = "provide_sender_address"
)

// FulfillmentRequirementKind is the kind of a preview fulfilment requirement.
type FulfillmentRequirementKind string

// The fulfillment requirement kinds.
const (
	RequirementPhotoSourcing         FulfillmentRequirementKind = "photo_sourcing"
	RequirementAddressConfirmation   FulfillmentRequirementKind = "address_confirmation"
	RequirementSenderAddressRequired FulfillmentRequirementKind = "sender_address_required"
)

// Preview is what approving a campaign would involve, computed without
// moving money or creating anything.
type Preview struct {
	CampaignID     string `json:"campaignId" jsonschema:"the campaign"`
	PolicyVersion  int64  `json:"policyVersion" jsonschema:"the version previewed"`
	RecipientCount int    `json:"recipientCount" jsonschema:"people on the roster"`
	// UnitCents is the price per gift, priceCents + shippingCents.
	UnitCents int64 `json:"unitCents" jsonschema:"price per gift in USD cents (priceCents + shippingCents); excludes delivery when deliveryIncluded is false"`
	// TotalCents is UnitCents for everyone owed a gift (ToSend).
	TotalCents       int64  `json:"totalCents" jsonschema:"unitCents x toSend, in USD cents; all-in (delivery and US sales tax) unless deliveryIncluded is false"`
	Currency         string `json:"currency" jsonschema:"always usd"`
	DeliveryIncluded bool   `json:"deliveryIncluded" jsonschema:"false when the gift's delivery is not priced yet (shippingQuoteRequired): the totals exclude it"`
	PriceNote        string `json:"priceNote,omitempty" jsonschema:"what the price leaves out, when anything; never present such a price as a delivered total"`
	AlreadySent      int    `json:"alreadySent" jsonschema:"people on the roster who already have a gift"`
	// ToSend is who totalCents pays for: no gift yet and not skipped.
	ToSend int `json:"toSend" jsonschema:"people on the roster without a gift who were not skipped: the people totalCents pays for"`
	// Skipped is who an owner or admin skipped: never owed a gift.
	Skipped int `json:"skipped" jsonschema:"people an owner or admin skipped, who get no gift and are not counted in totalCents"`
	// Blockers must be fixed before approval or checkout.
	Blockers                []PreviewBlocker         `json:"blockers" jsonschema:"what must be fixed before a person can approve or pay; empty when nothing"`
	FulfillmentRequirements []FulfillmentRequirement `json:"fulfillmentRequirements" jsonschema:"what fulfilment will need per person"`
	NextAction              PreviewNextAction        `json:"nextAction" jsonschema:"review: hand url (the review page) to a person; provide_sender_address: live mode needs sender-supplied US addresses, give the user url and stop" schema:"enum=review|provide_sender_address"`
	URL                     string                   `json:"url" jsonschema:"the page for nextAction"`
	UnavailableReason       *string                  `json:"unavailableReason" jsonschema:"why the gift cannot be ordered now, or null"`
	PrepaidOffer            *PreviewPrepaidOffer     `json:"prepaidOffer,omitempty" jsonschema:"for batch and single campaigns whose gift the service qualified: a fixed, tax-inclusive price per recipient, paid at checkout, that lets live recipients confirm their own address within shippingStates"`
	// Checkout is the campaign's newest checkout (checkout.go).
	Checkout *PreviewCheckout `json:"checkout,omitempty" jsonschema:"the campaign's newest card checkout, when it has one"`
}

// PreviewBlocker is one thing that stops approval: the campaign's (no
// recipientId) or one person's.
type PreviewBlocker struct {
	Reason        ApprovalReason `json:"reason" jsonschema:"the approval reason; get_workflow_guide's approvalReasons explains each"`
	Text          string         `json:"text" jsonschema:"the blocker as the queue shows it"`
	Message       string         `json:"message" jsonschema:"exactly what is missing and where to fix it"`
	RecipientID   string         `json:"recipientId,omitempty" jsonschema:"the person, for a person's blocker"`
	RecipientName string         `json:"recipientName,omitempty" jsonschema:"the person's name"`
}

// FulfillmentRequirement is what fulfilling one person's gift will need.
type FulfillmentRequirement struct {
	RecipientID    string                     `json:"recipientId" jsonschema:"the person"`
	RecipientName  string                     `json:"recipientName" jsonschema:"their name"`
	RecipientEmail string                     `json:"recipientEmail,omitempty" jsonschema:"their email; absent without one"`
	Kind           FulfillmentRequirementKind `json:"kind" jsonschema:"photo_sourcing, address_confirmation or sender_address_required" schema:"enum=photo_sourcing|address_confirmation|sender_address_required"`
	Message        string                     `json:"message" jsonschema:"what it means"`
}

// PreviewPrepaidOffer is the gift's prepaid offer priced for the campaign.
type PreviewPrepaidOffer struct {
	UnitCents      int64    `json:"unitCents" jsonschema:"fixed tax-inclusive price per recipient in USD cents"`
	TotalCents     int64    `json:"totalCents" jsonschema:"unitCents x people without a gift yet"`
	ShippingStates []string `json:"shippingStates" jsonschema:"two-letter US states recipients may confirm addresses in"`
}

// PreviewCampaign computes campaign id's preview for p in the workspace's
// current mode. It reads only: it moves no money and creates nothing. It
// returns NOT_FOUND, or the codes of Authorize.
func (a *Service) PreviewCampaign(ctx context.Context, p core.Principal, id string) (Preview, error) {
	if err := core.Authorize(p, core.ActRead, ""); err != nil {
		return Preview{}, err
	}
	var out Preview
	err := a.ReadTx(ctx, func(q *db.Queries) error {
		row, err := q.CampaignGet(ctx, db.CampaignGetParams{WorkspaceID: p.WorkspaceID, ID: id})
		if core.IsNoRows(err) {
			return NotFound(id)
		}
		if err != nil {
			return core.Internal(err)
		}
		c, err := RecordFromRow(row)
		if err != nil {
			return core.Internal(err)
		}
		out, _, _, err = a.LoadPreview(ctx, q, c, ModeOf(p))
		if err != nil {
			return err
		}
		out.Checkout, err = a.previewCheckout(ctx, q, c.WorkspaceID, c.ID)
		return err
	})
	return out, err
}

// LoadPreview reads what the preview of c in mode needs through q (its
// roster, commitments, repeats and gift) and computes it. It also returns
// the gift (nil when the catalog no longer has it) and the roster, for a
// caller acting on the preview (a checkout, a quote).
func (a *Service) LoadPreview(ctx context.Context, q *db.Queries, c Record, mode core.Mode) (Preview, *catalog.Product, Roster, error) {
	roster, err := LoadRoster(ctx, q, c.ID)
	if err != nil {
		return Preview{}, nil, Roster{}, err
	}
	com, err := a.LoadCommitments(ctx, q, c.ID)
	if err != nil {
		return Preview{}, nil, Roster{}, err
	}
	repeats, err := RepeatsOf(ctx, q, c.ID, roster, mode)
	if err != nil {
		return Preview{}, nil, Roster{}, err
	}
	product, err := a.StoredProduct(ctx, c.ProductID)
	if err != nil {
		return Preview{}, nil, Roster{}, err
	}
	return a.preview(c, product, roster, com, repeats, mode), product, roster, nil
}

// preview computes the preview of c; product is nil when the catalog no
// longer has the campaign's gift.
func (a *Service) preview(c Record, product *catalog.Product, roster Roster, com commitments, repeats []RepeatItem, mode core.Mode) Preview {
	pv := Preview{
		CampaignID: c.ID, PolicyVersion: c.PolicyVersion, RecipientCount: len(roster.People), Currency: "usd",
		DeliveryIncluded: true, Blockers: []PreviewBlocker{}, FulfillmentRequirements: []FulfillmentRequirement{},
		NextAction: NextReview, URL: a.Config.ReviewURL(c.ID),
	}
	// Owed: people without a gift whom nobody skipped. A skipped person is
	// never owed a gift, so they count in no total and block nothing.
	pending := roster.Owed()
	for _, pp := range roster.People {
		switch {
		case roster.SendOf[pp.ID] != "":
			pv.AlreadySent++
		case pp.approval == ApprovalSkipped:
			pv.Skipped++
		}
	}
	pv.ToSend = len(pending)

	block := func(r ApprovalReason, who *Person, format string, args ...any) {
		b := PreviewBlocker{Reason: r, Text: r.Blocker(), Message: fmt.Sprintf(format, args...)}
		if b.Text == "" {
			b.Text = ReasonNeedsReview.Blocker()
		}
		if who != nil {
			b.RecipientID, b.RecipientName = who.ID, who.DisplayName()
		}
		pv.Blockers = append(pv.Blockers, b)
	}
	require := func(kind FulfillmentRequirementKind, who Person, msg string) {
		pv.FulfillmentRequirements = append(pv.FulfillmentRequirements, FulfillmentRequirement{
			RecipientID: who.ID, RecipientName: who.DisplayName(), RecipientEmail: who.Email, Kind: kind, Message: msg,
		})
	}

	// The gift.
	if product != nil {
		pv.UnitCents = product.UnitCents()
		pv.TotalCents = pv.UnitCents * int64(len(pending))
		if product.ShippingQuoteRequired {
			pv.DeliveryIncluded = false
			pv.PriceNote = "Delivery is not priced yet and is excluded from unitCents and totalCents; the final price is confirmed before a live order and may be higher. Never present it as a delivered total."
		}
		if !c.Mode.Playbook() && product.PrepaidOffer != nil {
			pv.PrepaidOffer = &PreviewPrepaidOffer{
				UnitCents: product.PrepaidOffer.UnitCents, TotalCents: product.PrepaidOffer.UnitCents * int64(len(pending)),
				ShippingStates: product.PrepaidOffer.ShippingStates,
			}
		}
	}
	for _, k := range GiftChecks(c, product, mode) {
		switch k.Reason {
		case ReasonGiftUnavailable, ReasonProductUnverified:
			reason := k.Message
			pv.UnavailableReason = &reason
			if k.Reason == ReasonProductUnverified {
				// Live mode: no blocker yet; approving returns PRODUCT_UNVERIFIED.
				continue
			}
		}
		block(k.Reason, nil, "%s", k.Message)
	}

	// The limits.
	switch {
	case !c.Mode.Playbook() && len(roster.People) == 0:
		block(ReasonNeedsReview, nil, "the %s campaign has nobody on its roster; add people with add_recipients", c.Mode)
	case product != nil && pv.UnitCents > c.PerPersonCents:
		block(ReasonNeedsReview, nil, "the gift costs %d cents per person, above perPersonCents %d; raise perPersonCents or choose another gift", pv.UnitCents, c.PerPersonCents)
	}
	if c.Mode.Playbook() {
		if com.SentCount >= c.MaxSends {
			block(ReasonSendLimit, nil, "the playbook sent %d of maxSends %d gifts", com.SentCount, c.MaxSends)
		}
		if product != nil && com.SpentCents+pv.UnitCents > c.BudgetCents {
			block(ReasonPlaybookBudget, nil, "%d of budgetCents %d is committed; another gift at %d cents does not fit", com.SpentCents, c.BudgetCents, pv.UnitCents)
		}
	} else {
		if com.SentCount+len(pending) > c.MaxSends {
			block(ReasonNeedsReview, nil, "%d gifts sent and %d to send exceed maxSends %d", com.SentCount, len(pending), c.MaxSends)
		}
		if com.SpentCents+pv.TotalCents > c.BudgetCents {
			block(ReasonNeedsReview, nil, "%d cents committed and %d to approve exceed budgetCents %d", com.SpentCents, pv.TotalCents, c.BudgetCents)
		}
	}

	// Each person without a gift.
	repeat := map[string]RepeatItem{}
	for _, r := range repeats {
		repeat[r.RecipientID] = r
	}
	prepaid := pv.PrepaidOffer != nil
	for i := range pending {
		who := &pending[i]
		prior := ""
		if r, ok := repeat[who.ID]; ok && !r.Approved {
			prior = r.PriorSendID
		}
		if product != nil && product.RequiresPortrait && who.Photo != nil && who.Photo.Source == PhotoLinkedIn {
			require(RequirementPhotoSourcing, *who, "the portrait is sourced from the LinkedIn profile photo and approved before production")
		}
		for _, k := range PersonChecks(c, product, *who, prior, mode, prepaid) {
			block(k.Reason, who, "%s", k.Message)
			if k.Reason == ReasonAddressRequired {
				require(RequirementSenderAddressRequired, *who, "live mode needs a sender-supplied US address (addressMode known)")
			}
		}
		if who.AddressMode == gift.AddressConfirm {
			switch {
			case mode == core.ModeLive && prepaid:
				require(RequirementAddressConfirmation, *who, fmt.Sprintf("the recipient confirms their address through the gift link, within the prepaid offer's %d states", len(pv.PrepaidOffer.ShippingStates)))
			case mode != core.ModeLive:
				require(RequirementAddressConfirmation, *who, "the recipient confirms their address through the gift link")
			}
		}
	}
	for _, r := range pv.FulfillmentRequirements {
		if r.Kind == RequirementSenderAddressRequired {
			pv.NextAction, pv.URL = NextProvideSenderAddress, a.Config.CampaignURL(c.ID)
			break
		}
	}
	return pv
}
