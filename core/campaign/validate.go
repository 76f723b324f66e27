package campaign

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/gift"
)

// selectableProduct reads the gift a campaign is created with or changed to:
// VALIDATION_ERROR naming productId for an ID not in the catalog (never
// silently accepted), GIFT_RETIRED, GIFT_UNAVAILABLE or PRICE_QUOTE_REQUIRED
// for a gift a new campaign may not choose.
func (a *Service) selectableProduct(ctx context.Context, id string) (catalog.Product, error) {
	p, err := a.Catalog.Get(ctx, id)
	if err != nil {
		e := core.AsError(err)
		if e.Code == core.CodeNotFound {
			return catalog.Product{}, &core.Error{Code: core.CodeValidation, Message: e.Message, Fields: []string{"productId"}}
		}
		return catalog.Product{}, e
	}
	if err := p.Selectable(); err != nil {
		return catalog.Product{}, err
	}
	return p, nil
}

// StoredProduct reads a campaign's current gift, which may have been
// retired since; nil when the catalog no longer has it.
func (a *Service) StoredProduct(ctx context.Context, id string) (*catalog.Product, error) {
	return a.Catalog.Lookup(ctx, id)
}

// playbookPerPerson is a playbook's default perPersonCents: the gift's price,
// within the bound.
func playbookPerPerson(p catalog.Product) int64 {
	return min(max(p.UnitCents(), 1), MaxPerPersonCents)
}

// checkCampaign validates a campaign's fields as they would be stored,
// against its gift (nil when unknown, skipping the gift's rules). Batch and
// single campaigns hold at most MaxBatchSends gifts.
func checkCampaign(s Settings, product *catalog.Product, pr *Problems) {
	required := func(name, v string, limit int) {
		switch n := utf8.RuneCountInString(v); {
		case strings.TrimSpace(v) == "":
			pr.Add(name, "is required")
		case n > limit:
			pr.Add(name, "must be at most %d characters", limit)
		case core.HasControl(v):
			pr.Add(name, "must not contain control characters or line breaks")
		}
	}
	required("name", s.Name, MaxCampaignNameLength)
	required("senderName", s.SenderName, MaxSenderLength)
	required("senderCompany", s.SenderCompany, MaxSenderLength)
	if utf8.RuneCountInString(s.Description) > MaxDescriptionLength {
		pr.Add("description", "must be at most %d characters", MaxDescriptionLength)
	}
	if !s.Mode.Valid() {
		pr.Add("mode", "must be one of always_on, batch, single")
	}
	if !s.Status.Valid() {
		pr.Add("status", "must be one of draft, active, paused, completed")
	}
	if !s.RecipientSource.Valid() {
		pr.Add("recipientSource", "must be one of manual, workflow")
	}
	switch {
	case s.BudgetCents < 1 || s.BudgetCents > core.MaxBudgetCents:
		pr.Add("budgetCents", "must be between 1 and %d (USD cents)", core.MaxBudgetCents)
	case s.PerPersonCents < 1 || s.PerPersonCents > MaxPerPersonCents:
		pr.Add("perPersonCents", "must be between 1 and %d (USD cents)", MaxPerPersonCents)
	case s.PerPersonCents > s.BudgetCents:
		pr.Add("perPersonCents", "is %d, above budgetCents %d; it must be at most the budget", s.PerPersonCents, s.BudgetCents)
	}
	switch {
	case s.MaxSends < 1 || s.MaxSends > MaxPlaybookSends:
		pr.Add("maxSends", "must be between 1 and %d", MaxPlaybookSends)
	case !s.Mode.Playbook() && s.MaxSends > MaxBatchSends:
		pr.Add("maxSends", "must be between 1 and %d for a %s campaign", MaxBatchSends, s.Mode)
	}
	if m := s.MonthlyBudgetCents; m != nil && (*m < MinMonthlyBudgetCents || *m > MaxMonthlyBudgetCents) {
		pr.Add("monthlyBudgetCents", "must be between %d and %d (USD cents)", MinMonthlyBudgetCents, MaxMonthlyBudgetCents)
	}
	if s.Message != "" {
		if utf8.RuneCountInString(s.Message) > MaxNoteTemplateLength {
			pr.Add("message", "must be at most %d characters", MaxNoteTemplateLength)
		} else if problem := CheckTemplate(s.Message, NotePlaceholders, core.GiftMessageCharacters); problem != "" {
			pr.Add("message", "%s", problem)
		}
	}
	if s.MeetingURL != "" && (utf8.RuneCountInString(s.MeetingURL) > MaxMeetingURLLength || !httpURL(s.MeetingURL)) {
		pr.Add("meetingUrl", "must be an http or https URL of at most %d characters, or empty to clear it", MaxMeetingURLLength)
	}
	checkCustomization(s.Customization, product, pr)
	checkAttribution(s.Attribution, "attribution", pr)
}

// checkCustomization validates the customization fields; the service reads
// displayText (against the gift's lettering limits), logoAssetId,
// giftLinkWelcome and giftLinkContactEmail.
func checkCustomization(c map[string]string, product *catalog.Product, pr *Problems) {
	if len(c) > MaxCustomizationFields {
		pr.Add("customization", "must have at most %d fields", MaxCustomizationFields)
	}
	for _, k := range slices.Sorted(maps.Keys(c)) {
		field, v := "customization."+core.Clip(k, 40), c[k]
		switch {
		case strings.TrimSpace(k) == "" || utf8.RuneCountInString(k) > MaxCustomizationKey || core.HasControl(k):
			pr.Add("customization", "field names must be 1-%d characters", MaxCustomizationKey)
			continue
		case utf8.RuneCountInString(v) > MaxCustomizationValue:
			pr.Add(field, "must be at most %d characters", MaxCustomizationValue)
			continue
		}
		switch k {
		case CustomizationDisplayText:
			switch {
			case product == nil:
			case product.PersonalizationText == nil:
				pr.Add(field, "the gift %s takes no lettering; remove displayText", product.ID)
			default:
				if err := product.PersonalizationText.Check(field, v); err != nil {
					e := core.AsError(err)
					pr.Add(field, "%s", strings.TrimPrefix(e.Message, field+": "))
				}
			}
		case CustomizationLogoAssetID:
			if !strings.HasPrefix(v, core.PrefixAsset) || len(v) == len(core.PrefixAsset) || core.HasControl(v) {
				pr.Add(field, "must be an uploaded logo's asset ID (asset_...)")
			}
		case CustomizationWelcome:
			if problem := CheckTemplate(v, WelcomePlaceholders, MaxCustomizationValue); problem != "" {
				pr.Add(field, "%s", problem)
			}
		case CustomizationContactEmail:
			if problem := core.EmailProblem(core.NormalizeEmail(v)); problem != "" {
				pr.Add(field, "%s", problem)
			}
		}
	}
}

// checkAttribution validates the attribution's 200-character fields and its
// at most 10 metadata values.
func checkAttribution(a gift.Attribution, path string, pr *Problems) {
	for _, f := range []struct{ name, v string }{
		{"externalId", a.ExternalID}, {"source", a.Source}, {"contactId", a.ContactID},
		{"accountId", a.AccountID}, {"opportunityId", a.OpportunityID},
	} {
		if utf8.RuneCountInString(f.v) > MaxAttributionField {
			pr.Add(FieldAt(path, f.name), "must be at most %d characters", MaxAttributionField)
		}
	}
	if len(a.Metadata) > MaxAttributionMetadata {
		pr.Add(FieldAt(path, "metadata"), "must have at most %d values", MaxAttributionMetadata)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Metadata)) {
		switch {
		case strings.TrimSpace(k) == "" || utf8.RuneCountInString(k) > MaxAttributionField:
			pr.Add(FieldAt(path, "metadata"), "keys must be 1-%d characters", MaxAttributionField)
		case utf8.RuneCountInString(a.Metadata[k]) > MaxAttributionField:
			pr.Add(FieldAt(path, "metadata."+core.Clip(k, 40)), "must be at most %d characters", MaxAttributionField)
		}
	}
}

// CheckRoster checks a roster as it would be stored: its size for the
// campaign's kind, batch limits that must fit it, and every person's note
// (at most GiftMessageCharacters once resolved). pathOf names a person in
// messages (their path in the request, or their recipientId).
func CheckRoster(s Settings, people []Person, pathOf func(int) string, pr *Problems) {
	limit := core.RecipientsPerCampaign
	if s.Mode.Playbook() {
		limit = core.RecipientsPerPlaybook
	}
	if len(people) > limit {
		pr.Add("recipients", "the campaign would hold %d people; a %s campaign holds at most %d", len(people), s.Mode, limit)
	}
	for i, p := range people {
		note := PersonNote(s.Message, p.Message, p.NoteValues())
		if !note.tooLong {
			continue
		}
		if p.Message != "" {
			pr.addNote(FieldAt(pathOf(i), "message"), "%s", note.problem)
		} else {
			pr.addNote("message", "for %s: %s", pathOf(i), note.problem)
		}
	}
}

// checkBatchFits checks that a batch or single campaign's limits fit its
// roster: maxSends at least the people, budgetCents at least perPersonCents
// for each of them.
func checkBatchFits(s Settings, people int, pr *Problems) {
	if s.Mode.Playbook() || people == 0 {
		return
	}
	if s.MaxSends < people {
		pr.Add("maxSends", "is %d but the roster has %d people; raise it or remove people", s.MaxSends, people)
	}
	if need := s.PerPersonCents * int64(people); s.BudgetCents < need {
		pr.Add("budgetCents", "is %d but %d people at perPersonCents %d need %d", s.BudgetCents, people, s.PerPersonCents, need)
	}
}

// expandToFit raises a batch or single campaign's maxSends and budgetCents
// to fit people (adds expand limits; they never shrink here).
func expandToFit(s *Settings, people int) {
	if s.Mode.Playbook() {
		return
	}
	if s.MaxSends < people {
		s.MaxSends = min(people, MaxBatchSends)
	}
	if need := s.PerPersonCents * int64(people); s.BudgetCents < need {
		s.BudgetCents = min(need, core.MaxBudgetCents)
	}
}

// CheckCommitments is LIMITS_BELOW_COMMITMENTS when s's limits are below
// what the campaign has already committed.
func CheckCommitments(s Settings, com commitments) error {
	switch {
	case s.BudgetCents < com.SpentCents:
		return core.FieldError(core.CodeLimitsBelowCommitments, "budgetCents", "would be %d, below the %d cents already committed to gifts", s.BudgetCents, com.SpentCents)
	case s.MaxSends < com.SentCount:
		return core.FieldError(core.CodeLimitsBelowCommitments, "maxSends", "would be %d, below the %d gifts already sent", s.MaxSends, com.SentCount)
	case s.MonthlyBudgetCents != nil && *s.MonthlyBudgetCents < com.MonthCents:
		return core.FieldError(core.CodeLimitsBelowCommitments, "monthlyBudgetCents", "would be %d, below the %d cents already committed this month", *s.MonthlyBudgetCents, com.MonthCents)
	}
	return nil
}

// CheckCampaignInput validates a create_campaign input against its gift
// without storing anything: the defaults, every field's bounds, the gift's
// lettering and recipient details, and the roster's identities and notes.
// It returns nil or the error CreateCampaign would return for the fields
// (VALIDATION_ERROR naming each, TOO_MANY_ARTWORK_FILES,
// DUPLICATE_RECIPIENT).
func CheckCampaignInput(in CampaignInput, product catalog.Product) error {
	_, _, _, err := newCampaign(in, product, time.Time{})
	return err
}

// newCampaign validates a create input against its gift and builds the
// draft and its roster, with each person's path in the request.
func newCampaign(in CampaignInput, product catalog.Product, now time.Time) (Settings, []Person, []string, error) {
	if err := tooManyAssets(in.Recipients); err != nil {
		return Settings{}, nil, nil, err
	}
	if err := duplicateInRequest(in.Recipients); err != nil {
		return Settings{}, nil, nil, err
	}
	s, pr := newCampaignState(in, product)
	s.Status = StatusDraft
	people := make([]Person, 0, len(in.Recipients))
	paths := make([]string, 0, len(in.Recipients))
	for i, item := range in.Recipients {
		path := fmt.Sprintf("recipients[%d]", i)
		if strings.TrimSpace(item.RecipientID) != "" {
			pr.Add(FieldAt(path, "recipientId"), "is for people already on a campaign; leave it out when creating one")
		}
		f := ApplyRecipient(NewPersonFields(), item, path, RecipientRules{Product: &product}, &pr)
		people = append(people, Person{PersonFields: f, ID: core.NewID(core.PrefixRecipient), Position: i, CreatedAt: now})
		paths = append(paths, path)
	}
	checkCampaign(s, &product, &pr)
	checkBatchFits(s, len(people), &pr)
	CheckRoster(s, people, func(i int) string { return paths[i] }, &pr)
	return s, people, paths, pr.Err()
}
