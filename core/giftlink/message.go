package giftlink

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// The bounds of a link's message and branding.
const (
	// MaxLinks is how many links one customize_campaign_gift_links changes.
	MaxLinks = 25
	// maxBrandingName bounds senderName and senderCompany, in characters.
	maxBrandingName = 200
)

// MessageChange is a change of one link's message or branding
// (customize_gift_link_message). Generation and ExpectedMessageVersion are
// what the caller last read; a stale one is GIFT_LINK_CONFLICT.
type MessageChange struct {
	Generation             int
	ExpectedMessageVersion int
	// Message replaces the landing message; "" restores the default; nil
	// keeps it.
	Message *string
	// Branding replaces the branding, complete; nil keeps it.
	Branding *Branding
}

// LinkRef names one link of a campaign-wide change with what the caller
// last read of it.
type LinkRef struct {
	SendID                 string `json:"sendId" jsonschema:"the gift (send_...)"`
	Generation             int    `json:"generation" jsonschema:"the link's generation as last read" schema:"minimum=1"`
	ExpectedMessageVersion int    `json:"expectedMessageVersion" jsonschema:"the link's messageVersion as last read" schema:"minimum=1"`
}

// CampaignMessageChange is customize_campaign_gift_links: one message or
// branding for up to 25 links of a campaign, all or nothing.
type CampaignMessageChange struct {
	Message  *string
	Branding *Branding
	Links    []LinkRef
}

// CustomizeMessage changes the landing message or branding of gift sendID's
// link. It never emails anyone and never changes the printed note; it
// advances messageVersion and records send.gift_link_changed. It returns
// the updated link, or VALIDATION_ERROR naming the field, NOT_FOUND naming
// id, GIFT_LINK_CONFLICT naming generation or expectedMessageVersion,
// INVALID_REQUEST_STATE for a used or expired link, or the codes of
// Authorize (ActManageGiftLinks).
func (s *Service) CustomizeMessage(ctx context.Context, p core.Principal, sendID string, ch MessageChange) (Link, error) {
	if err := core.Authorize(p, core.ActManageGiftLinks, ""); err != nil {
		return Link{}, err
	}
	if err := s.checkChange(ctx, p.WorkspaceID, ch.Message, ch.Branding, ""); err != nil {
		return Link{}, err
	}
	if err := checkVersions(ch.Generation, ch.ExpectedMessageVersion, ""); err != nil {
		return Link{}, err
	}
	links, err := s.customize(ctx, p, "", ch.Message, ch.Branding,
		[]LinkRef{{SendID: sendID, Generation: ch.Generation, ExpectedMessageVersion: ch.ExpectedMessageVersion}}, "")
	if err != nil {
		return Link{}, err
	}
	return links[0], nil
}

// CustomizeCampaignLinks gives up to 25 links of campaign campaignID one
// message or branding: every link changes, or none (the first refusal names
// links[i] and its field). It returns the updated links in the order given.
func (s *Service) CustomizeCampaignLinks(ctx context.Context, p core.Principal, campaignID string, ch CampaignMessageChange) ([]Link, error) {
	if err := core.Authorize(p, core.ActManageGiftLinks, ""); err != nil {
		return nil, err
	}
	if err := s.checkChange(ctx, p.WorkspaceID, ch.Message, ch.Branding, ""); err != nil {
		return nil, err
	}
	switch {
	case len(ch.Links) == 0:
		return nil, core.Invalid("links", "name 1 to %d links", MaxLinks)
	case len(ch.Links) > MaxLinks:
		return nil, core.Invalid("links", "has %d links; change at most %d per call", len(ch.Links), MaxLinks)
	}
	seen := map[string]bool{}
	for i, l := range ch.Links {
		path := "links[" + strconv.Itoa(i) + "]."
		if l.SendID == "" {
			return nil, core.Invalid(path+"sendId", "is required")
		}
		if seen[l.SendID] {
			return nil, core.Invalid(path+"sendId", "%s is named twice", core.Clip(l.SendID, 40))
		}
		seen[l.SendID] = true
		if err := checkVersions(l.Generation, l.ExpectedMessageVersion, path); err != nil {
			return nil, err
		}
	}
	return s.customize(ctx, p, campaignID, ch.Message, ch.Branding, ch.Links, "links[")
}

// customize applies message and branding to refs in one transaction,
// locking the gifts in ID order (no deadlock between two callers). A
// campaignID other than "" requires every gift to belong to it. prefix
// ("links[" or "") says how a refusal names a link's fields.
func (s *Service) customize(ctx context.Context, p core.Principal, campaignID string, message *string, branding *Branding,
	refs []LinkRef, prefix string) ([]Link, error) {
	order := make([]int, len(refs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(refs[a].SendID, refs[b].SendID) })
	now := s.Clock.Now()
	out := make([]Link, len(refs))
	err := s.InTxJobs(ctx, func(tx pgx.Tx) error {
		q := db.New(tx)
		if campaignID != "" {
			if _, err := getCampaign(ctx, q, p.WorkspaceID, campaignID); err != nil {
				return err
			}
		}
		for _, i := range order {
			path := ""
			if prefix != "" {
				path = prefix + strconv.Itoa(i) + "]."
			}
			ref := refs[i]
			field := "id"
			if path != "" {
				field = path + "sendId"
			}
			v, err := lockView(ctx, q, p.WorkspaceID, ref.SendID, field)
			if err != nil {
				return err
			}
			if campaignID != "" && v.send.CampaignID != campaignID {
				return core.FieldError(core.CodeNotFound, path+"sendId", "gift %s is not in campaign %s", ref.SendID, campaignID)
			}
			if err := v.checkCurrent(ref.Generation, ref.ExpectedMessageVersion, path); err != nil {
				return err
			}
			if err := v.checkChangeable(now, path); err != nil {
				return err
			}
			if err := s.saveMessage(ctx, tx, p, &v, message, branding, now); err != nil {
				return err
			}
			out[i] = v.item(s.Config, now)
		}
		return nil
	})
	if err != nil {
		return nil, core.AsCoreError(err)
	}
	return out, nil
}

// saveMessage writes the new message and branding of v (already checked),
// records the change and send.gift_link_changed, and updates v.
func (s *Service) saveMessage(ctx context.Context, tx pgx.Tx, p core.Principal, v *linkView, message *string, branding *Branding, now time.Time) error {
	q := db.New(tx)
	msg, brand := v.link.Message, v.link.Branding
	if message != nil {
		msg = strings.TrimSpace(*message)
	}
	if branding != nil {
		raw, err := json.Marshal(branding)
		if err != nil {
			return core.Internal(err)
		}
		brand = raw
	}
	if err := q.GiftLinkSetMessage(ctx, db.GiftLinkSetMessageParams{Message: msg, Branding: brand, UpdatedAt: now, SendID: v.send.ID}); err != nil {
		return core.Internal(err)
	}
	v.link.Message, v.link.Branding = msg, brand
	v.link.MessageVersion++
	v.link.UpdatedAt = now
	return s.recordChange(ctx, tx, p, *v, changeMessage, now)
}

// The kinds of gift_link_changes rows.
const (
	changeMessage = "message"
	changeRegift  = "regift"
	changeRevoke  = "revoke"
)

// recordChange keeps a change in the campaign's link history and records
// send.gift_link_changed {change, generation, messageVersion}: never the
// message, a token or an address.
func (s *Service) recordChange(ctx context.Context, tx pgx.Tx, p core.Principal, v linkView, kind string, now time.Time) error {
	if err := db.New(tx).GiftLinkChangeInsert(ctx, db.GiftLinkChangeInsertParams{
		WorkspaceID: v.send.WorkspaceID, CampaignID: v.send.CampaignID, SendID: v.send.ID, Kind: kind,
		Generation: v.link.Generation, MessageVersion: v.link.MessageVersion, Message: v.link.Message,
		Branding: v.link.Branding, ChangedBy: p.UserID, CreatedAt: now,
	}); err != nil {
		return core.Internal(err)
	}
	return s.RecordEvent(ctx, tx, core.EventRecord{
		WorkspaceID: v.send.WorkspaceID, Type: core.EventSendGiftLinkChanged, Mode: core.Mode(v.send.Mode),
		CampaignID: v.send.CampaignID, SendID: v.send.ID, RecipientID: v.send.RecipientID,
		Data: map[string]any{"change": kind, "generation": v.link.Generation, "messageVersion": v.link.MessageVersion},
	})
}

// checkCurrent refuses a stale generation or expectedMessageVersion with
// GIFT_LINK_CONFLICT naming it (under path); expectedMessageVersion 0 is not
// checked (regift and revoke carry only the generation).
func (v linkView) checkCurrent(generation, messageVersion int, path string) error {
	if generation != int(v.link.Generation) {
		return core.FieldError(core.CodeGiftLinkConflict, path+"generation",
			"the link of %s is at generation %d, not %d; re-read it, then retry", v.send.ID, v.link.Generation, generation)
	}
	if messageVersion != 0 && messageVersion != int(v.link.MessageVersion) {
		return core.FieldError(core.CodeGiftLinkConflict, path+"expectedMessageVersion",
			"the link of %s is at messageVersion %d, not %d; re-read it, then retry", v.send.ID, v.link.MessageVersion, messageVersion)
	}
	return nil
}

// checkChangeable refuses a message change on a link its recipient used or
// that expired: nobody will see it.
func (v linkView) checkChangeable(now time.Time, path string) error {
	switch v.state(now) {
	case LinkUsed:
		return core.FieldError(core.CodeInvalidRequestState, path+"sendId",
			"the recipient already used the link of %s (the gift is %s); its message no longer shows", v.send.ID, v.send.Status)
	case LinkExpired:
		return core.FieldError(core.CodeInvalidRequestState, path+"sendId",
			"the link of %s expired; regift is no longer possible either", v.send.ID)
	}
	return nil
}

// checkVersions requires generation and expectedMessageVersion (1 or more).
func checkVersions(generation, messageVersion int, path string) error {
	if generation < 1 {
		return core.Invalid(path+"generation", "is required: the link's generation as last read (1 or more)")
	}
	if messageVersion < 1 {
		return core.Invalid(path+"expectedMessageVersion", "is required: the link's messageVersion as last read (1 or more)")
	}
	return nil
}

// checkChange validates a message and a branding; at least one is given.
// A branding's logo must be a ready PNG, JPEG or WebP of workspaceID
// (ARTWORK_UNAVAILABLE otherwise).
func (s *Service) checkChange(ctx context.Context, workspaceID string, message *string, branding *Branding, path string) error {
	if message == nil && branding == nil {
		return core.Invalid(path+"message", "give message, branding or both")
	}
	if message != nil {
		if err := CheckMessage(path+"message", *message); err != nil {
			return err
		}
	}
	if branding == nil {
		return nil
	}
	if err := branding.check(path + "branding"); err != nil {
		return err
	}
	if branding.LogoAssetID == "" {
		return nil
	}
	return artwork.CheckReady(ctx, db.New(s.DB), workspaceID,
		[]artwork.Named{{Field: path + "branding.logoAssetId", ID: branding.LogoAssetID, Use: artwork.UseLogo}})
}

// CheckMessage validates a landing message: up to 500 characters besides
// {{firstName}}, {{name}} and {{company}}, no other placeholder, no control
// character but line breaks. "" (restore the default) is fine.
func CheckMessage(field, msg string) error {
	if core.HasControl(strings.NewReplacer("\n", "", "\r", "", "\t", "").Replace(msg)) {
		return core.Invalid(field, "must not contain control characters")
	}
	if problem := campaign.CheckTemplate(msg, campaign.LinkMessagePlaceholders, core.GiftMessageCharacters); problem != "" {
		return core.Invalid(field, "%s", problem)
	}
	return nil
}

// check validates a branding: complete (senderName and senderCompany
// given), a valid contactEmail or none, and a logo that is an asset ID or
// none (checkChange asks whether it is ready).
func (b Branding) check(field string) error {
	for _, f := range []struct{ name, v string }{{"senderName", b.SenderName}, {"senderCompany", b.SenderCompany}} {
		n := utf8.RuneCountInString(strings.TrimSpace(f.v))
		if n == 0 {
			return core.Invalid(field+"."+f.name, "is required: branding is complete {senderName, senderCompany, contactEmail, logoAssetId} or absent")
		}
		if n > maxBrandingName || core.HasControl(f.v) {
			return core.Invalid(field+"."+f.name, "must be at most %d characters without control characters", maxBrandingName)
		}
	}
	if b.ContactEmail != "" {
		if err := core.CheckEmail(field+".contactEmail", b.ContactEmail); err != nil {
			return err
		}
	}
	if id := b.LogoAssetID; id != "" && (!strings.HasPrefix(id, core.PrefixAsset) || len(id) > 100 || core.HasControl(id)) {
		return core.Invalid(field+".logoAssetId",
			"%s is not an artwork asset ID (asset_...); use \"\" to show no logo", core.Clip(id, 40))
	}
	return nil
}
