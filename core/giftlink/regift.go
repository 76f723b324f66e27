package giftlink

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/sql/db"
)

// maxPersonField bounds a regift recipient's name, company and title.
const maxPersonField = 200

// Regift sends an unused gift to someone else (regift_gift_link).
type Regift struct {
	// Generation is the link's generation as last read.
	Generation int
	// Recipient is the new person; they confirm their own address.
	Recipient RegiftRecipient
	// Message is the new link's landing message; "" is the default.
	Message string
}

// RegiftRecipient is who a regifted gift is for.
type RegiftRecipient struct {
	Name    string `json:"name" jsonschema:"the new recipient's full name (1-200 characters)"`
	Email   string `json:"email,omitempty" jsonschema:"their email, for your records; Giftwell emails nobody"`
	Company string `json:"company,omitempty" jsonschema:"their company"`
	Title   string `json:"title,omitempty" jsonschema:"their title"`
}

// Regift gives gift sendID a new recipient and a new link: the generation
// advances, a new token replaces the old one (whose URL stops working at
// once and says it was replaced), the link works 14 more days, and the
// original payment stays. Nobody is emailed. The gift must be unused (it
// waits for an address and its link was neither used nor expired), or a
// card-paid gift its recipient declined before confirming an address,
// whose held money a signed-in owner or admin sends on (ActPay; the gift
// waits for its address again, gift.ReopenDeclinedTx); its campaign
// active or paused. It returns the new link (with its url), or
// VALIDATION_ERROR naming the field, NOT_FOUND naming id, GIFT_LINK_CONFLICT
// naming generation (of two concurrent regifts exactly one wins),
// INVALID_REQUEST_STATE naming sendId, CHECKOUT_LOCKED (a checkout of the
// campaign is in progress), or the codes of Authorize.
func (s *Service) Regift(ctx context.Context, p core.Principal, sendID string, r Regift) (Link, error) {
	if err := core.Authorize(p, core.ActManageGiftLinks, ""); err != nil {
		return Link{}, err
	}
	if r.Generation < 1 {
		return Link{}, core.Invalid("generation", "is required: the link's generation as last read (1 or more)")
	}
	who, err := r.Recipient.normalize()
	if err != nil {
		return Link{}, err
	}
	if err := CheckMessage("message", r.Message); err != nil {
		return Link{}, err
	}
	now := s.Clock.Now()
	var out Link
	err = s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		v, err := lockView(ctx, q, p.WorkspaceID, sendID, "id")
		if err != nil {
			return err
		}
		if err := v.checkCurrent(r.Generation, 0, ""); err != nil {
			return err
		}
		if err := v.canRegift(now); err != nil {
			return err
		}
		if v.send.Status == string(gift.SendDeclined) {
			// Its money is held for it: where it goes is a payer's choice.
			if err := core.Authorize(p, core.ActPay, s.Config.SiteURL+"/gifts/"+v.send.ID); err != nil {
				return err
			}
		}
		if err := noCheckoutInProgress(ctx, q, v.campaign.WorkspaceID, v.campaign.ID, now); err != nil {
			return err
		}
		snap := gift.GiftRecipient{
			Name: who.Name, Email: who.Email, Company: who.Company, Title: who.Title, AddressMode: gift.AddressConfirm,
		}
		raw, err := json.Marshal(snap)
		if err != nil {
			return core.Internal(err)
		}
		if v.send.Status == string(gift.SendDeclined) {
			if _, err := s.Gifts.ReopenDeclinedTx(ctx, tx, v.send.ID); err != nil {
				return err
			}
			v.send.Status = string(gift.SendAwaitingAddress)
		}
		if err := q.SendSetRecipient(ctx, db.SendSetRecipientParams{
			Recipient: raw, RecipientName: who.Name, RecipientEmail: who.Email, UpdatedAt: now, ID: v.send.ID,
		}); err != nil {
			return core.Internal(err)
		}
		salt := core.RandomBytes(core.LinkSaltBytes)
		msg := strings.TrimSpace(r.Message)
		if err := q.GiftLinkRegift(ctx, db.GiftLinkRegiftParams{
			TokenSalt: salt, Message: msg, CreatedAt: now, ExpiresAt: now.Add(gift.GiftLinkLifetime), SendID: v.send.ID,
		}); err != nil {
			return core.Internal(err)
		}
		gen := v.link.Generation + 1
		if err := gift.AddGiftLinkToken(ctx, q, s.Config, v.send.ID, gen, salt); err != nil {
			return err
		}
		if err := q.SendSetLinkGeneration(ctx, db.SendSetLinkGenerationParams{Generation: gen, ID: v.send.ID}); err != nil {
			return core.Internal(err)
		}
		v.send.Recipient, v.send.RecipientName, v.send.RecipientEmail, v.send.UpdatedAt = raw, who.Name, who.Email, now
		v.link.Generation, v.link.TokenSalt, v.link.Message = gen, salt, msg
		v.link.MessageVersion++
		v.link.State, v.link.RevokedAt, v.link.UsedAt = string(LinkActive), nil, nil
		v.link.CreatedAt, v.link.ExpiresAt, v.link.UpdatedAt = now, now.Add(gift.GiftLinkLifetime), now
		if err := s.recordChange(ctx, tx, p, v, changeRegift, now); err != nil {
			return err
		}
		out = v.item(s.Config, now)
		return nil
	})
	return out, core.AsCoreError(err)
}

// normalize trims r and checks it, naming recipient.<field>.
func (r RegiftRecipient) normalize() (RegiftRecipient, error) {
	r.Name, r.Company, r.Title = strings.TrimSpace(r.Name), strings.TrimSpace(r.Company), strings.TrimSpace(r.Title)
	r.Email = core.NormalizeEmail(r.Email)
	if r.Name == "" {
		return r, core.Invalid("recipient.name", "is required: who the gift goes to now")
	}
	for _, f := range []struct{ name, v string }{{"name", r.Name}, {"company", r.Company}, {"title", r.Title}} {
		if utf8.RuneCountInString(f.v) > maxPersonField || core.HasControl(f.v) {
			return r, core.Invalid("recipient."+f.name, "must be at most %d characters without control characters", maxPersonField)
		}
	}
	if r.Email != "" {
		if err := core.CheckEmail("recipient.email", r.Email); err != nil {
			return r, err
		}
	}
	return r, nil
}

// Revoke stops gift sendID's unused link at once; the payment stays (no
// refund) and the gift keeps waiting, so it may still be regifted. Revoking
// a revoked link again changes nothing. It returns the link, or NOT_FOUND
// naming id, GIFT_LINK_CONFLICT naming generation, INVALID_REQUEST_STATE
// naming sendId for a used or expired link, or the codes of Authorize.
func (s *Service) Revoke(ctx context.Context, p core.Principal, sendID string, generation int) (Link, error) {
	if err := core.Authorize(p, core.ActManageGiftLinks, ""); err != nil {
		return Link{}, err
	}
	if generation < 1 {
		return Link{}, core.Invalid("generation", "is required: the link's generation as last read (1 or more)")
	}
	now := s.Clock.Now()
	var out Link
	err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		v, err := lockView(ctx, q, p.WorkspaceID, sendID, "id")
		if err != nil {
			return err
		}
		if err := v.checkCurrent(generation, 0, ""); err != nil {
			return err
		}
		switch v.state(now) {
		case LinkRevoked:
			out = v.item(s.Config, now)
			return nil
		case LinkUsed, LinkExpired:
			return core.FieldError(core.CodeInvalidRequestState, "sendId",
				"the link of %s is %s; only an unused, active link can be revoked", v.send.ID, v.state(now))
		}
		if err := q.GiftLinkRevoke(ctx, db.GiftLinkRevokeParams{RevokedAt: &now, SendID: v.send.ID}); err != nil {
			return core.Internal(err)
		}
		v.link.State, v.link.RevokedAt, v.link.UpdatedAt = string(LinkRevoked), &now, now
		if err := s.recordChange(ctx, tx, p, v, changeRevoke, now); err != nil {
			return err
		}
		out = v.item(s.Config, now)
		return nil
	})
	return out, core.AsCoreError(err)
}
