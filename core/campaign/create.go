package campaign

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/sql/db"
)

// CreateCampaign creates a campaign as a draft, with its roster, for p.
//
// Defaults: mode batch; playbooks get budgetCents 100,000,000,
// perPersonCents the gift's price and maxSends 2000; batch and single
// campaigns must send budgetCents, perPersonCents and maxSends (1-500).
// recipientSource defaults to workflow for playbooks, manual otherwise.
//
// With an idempotencyKey, the same key and body return the same campaign
// (as it is now) and the same key with another body is
// IDEMPOTENCY_CONFLICT; concurrent duplicates create exactly one campaign.
//
// It returns VALIDATION_ERROR naming each invalid field (an unknown
// productId included), TOO_MANY_ARTWORK_FILES, DUPLICATE_RECIPIENT,
// GIFT_RETIRED, GIFT_UNAVAILABLE, PRICE_QUOTE_REQUIRED,
// IDEMPOTENCY_CONFLICT, HUMAN_APPROVAL_REQUIRED (a key or connection asking
// for an active campaign), INVALID_REQUEST (a batch or single asked active:
// that is checkout's), or the codes of Authorize.
func (a *Service) CreateCampaign(ctx context.Context, p core.Principal, in CampaignInput) (Campaign, error) {
	if err := core.Authorize(p, core.ActEditDrafts, a.Config.SiteURL+"/campaigns"); err != nil {
		return Campaign{}, err
	}
	var key, hash string
	if in.IdempotencyKey != "" {
		var err error
		if key, err = core.IdempotencyKey(in.IdempotencyKey); err != nil {
			return Campaign{}, err
		}
		hash = requestHash(in)
		// A resend returns what the first request made, even if the gift
		// has been retired since.
		if c, found, err := a.idempotentReplay(ctx, db.New(a.DB), p.WorkspaceID, key, hash); found || err != nil {
			return c, err
		}
	}
	status := in.Status
	if status == "" {
		status = StatusDraft
	}
	switch status {
	case StatusDraft:
	case StatusActive:
		if p.Via != core.ViaSession {
			return Campaign{}, &core.Error{Code: core.CodeHumanApprovalRequired, URL: a.Config.SiteURL + "/campaigns", Fields: []string{"status"},
				Message: "status: agents create drafts; a signed-in person turns a campaign on at its review URL (reviewUrl of the draft)"}
		}
	default:
		return Campaign{}, core.Invalid("status", "a new campaign starts as a draft; leave status out")
	}
	product, err := a.selectableProduct(ctx, strings.TrimSpace(in.ProductID))
	if err != nil {
		return Campaign{}, err
	}
	now := a.Clock.Now()
	s, people, paths, err := newCampaign(in, product, now)
	if err != nil {
		return Campaign{}, err
	}
	if err := a.CheckArtwork(ctx, p.WorkspaceID, in.Customization, in.Recipients, recipientsPath); err != nil {
		return Campaign{}, err
	}
	s.Status = status
	if status == StatusActive {
		if !s.Mode.Playbook() {
			return Campaign{}, activatedAtCheckout(s.Mode)
		}
		if err := NotesComplete(s, people, func(i int) string { return paths[i] }, people); err != nil {
			return Campaign{}, err
		}
	}

	id := core.NewID(core.PrefixCampaign)
	var out Campaign
	err = pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		cust, attr, err := s.storedJSON()
		if err != nil {
			return core.Internal(err)
		}
		params := db.CampaignInsertParams{
			ID: id, WorkspaceID: p.WorkspaceID, Mode: string(s.Mode), Status: string(s.Status), Name: s.Name,
			Description: s.Description, ProductID: s.ProductID, BudgetCents: s.BudgetCents, PerPersonCents: s.PerPersonCents,
			MaxSends: int32(s.MaxSends), MonthlyBudgetCents: s.MonthlyBudgetCents, SenderName: s.SenderName,
			SenderCompany: s.SenderCompany, Message: s.Message, MeetingUrl: s.MeetingURL,
			RecipientSource: string(s.RecipientSource), Customization: cust, Attribution: attr,
			CreatedBy: p.UserID, CreatedAt: now,
		}
		if key != "" {
			params.IdempotencyKey, params.RequestHash = &key, &hash
		}
		if _, err := q.CampaignInsert(ctx, params); err != nil {
			if !core.IsNoRows(err) {
				return core.Internal(err)
			}
			// The key was used meanwhile: the insert waited for that
			// transaction and found its campaign.
			c, _, err := a.idempotentReplay(ctx, q, p.WorkspaceID, key, hash)
			out = c
			return err
		}
		if err := InsertPeople(ctx, q, p, id, people, now); err != nil {
			return err
		}
		out, err = a.CampaignTx(ctx, q, p.WorkspaceID, id)
		return err
	})
	if err != nil {
		return Campaign{}, core.AsCoreError(err)
	}
	return out, nil
}

// newCampaignState applies create's defaults to in. Missing batch and
// single limits are recorded as problems.
func newCampaignState(in CampaignInput, product catalog.Product) (Settings, Problems) {
	var pr Problems
	s := Settings{
		Mode: in.Mode, Name: strings.TrimSpace(in.Name), Description: strings.TrimSpace(in.Description),
		ProductID: product.ID, BudgetCents: in.BudgetCents, PerPersonCents: in.PerPersonCents, MaxSends: in.MaxSends,
		SenderName: strings.TrimSpace(in.SenderName), SenderCompany: strings.TrimSpace(in.SenderCompany),
		Message: strings.TrimSpace(in.Message), MeetingURL: strings.TrimSpace(in.MeetingURL),
		RecipientSource: in.RecipientSource, Customization: in.Customization,
	}
	if s.Mode == "" {
		s.Mode = ModeBatch
	}
	if in.MonthlyBudgetCents != 0 {
		v := in.MonthlyBudgetCents
		s.MonthlyBudgetCents = &v
	}
	if in.Attribution != nil {
		s.Attribution = *in.Attribution
	}
	if s.Customization == nil {
		s.Customization = map[string]string{}
	}
	if s.Mode.Playbook() {
		if s.BudgetCents == 0 {
			s.BudgetCents = core.MaxBudgetCents
		}
		if s.PerPersonCents == 0 {
			s.PerPersonCents = playbookPerPerson(product)
		}
		if s.MaxSends == 0 {
			s.MaxSends = MaxPlaybookSends
		}
		if s.RecipientSource == "" {
			s.RecipientSource = SourceWorkflow
		}
		return s, pr
	}
	for _, f := range []struct {
		name  string
		unset bool
	}{{"budgetCents", s.BudgetCents == 0}, {"perPersonCents", s.PerPersonCents == 0}, {"maxSends", s.MaxSends == 0}} {
		if f.unset {
			pr.Add(f.name, "is required for a %s campaign", s.Mode)
		}
	}
	if s.BudgetCents == 0 || s.PerPersonCents == 0 || s.MaxSends == 0 {
		// Keep later checks from repeating the missing fields.
		s.BudgetCents, s.PerPersonCents, s.MaxSends = max(s.BudgetCents, 1), max(s.PerPersonCents, 1), max(s.MaxSends, 1)
		if s.PerPersonCents > s.BudgetCents {
			s.PerPersonCents = s.BudgetCents
		}
	}
	if s.RecipientSource == "" {
		s.RecipientSource = SourceManual
	}
	return s, pr
}

// requestHash is the SHA-256 of a create request's body without its
// idempotency key: two bodies that decode to the same input are the same.
func requestHash(in CampaignInput) string {
	in.IdempotencyKey = ""
	b, _ := json.Marshal(in) // a struct of strings, numbers, slices and maps always marshals
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// idempotentReplay looks up a campaign created with key: found with the
// campaign when the body matches, IDEMPOTENCY_CONFLICT when it does not.
func (a *Service) idempotentReplay(ctx context.Context, q *db.Queries, workspaceID, key, hash string) (Campaign, bool, error) {
	row, err := q.CampaignGetByIdempotencyKey(ctx, db.CampaignGetByIdempotencyKeyParams{WorkspaceID: workspaceID, IdempotencyKey: &key})
	if core.IsNoRows(err) {
		return Campaign{}, false, nil
	}
	if err != nil {
		return Campaign{}, false, core.Internal(err)
	}
	if row.RequestHash == nil || *row.RequestHash != hash {
		return Campaign{}, true, core.FieldError(core.CodeIdempotencyConflict, "idempotencyKey",
			"was used for campaign %s with a different body; resend that exact body, or ask the user whether this is a new campaign (then use a new key)", row.ID)
	}
	c, err := a.CampaignTx(ctx, q, workspaceID, row.ID)
	return c, true, err
}
