package catalog

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/giftwell/giftwell/core"
)

// SearchParams are search_gifts' inputs. Pointers are absent when nil.
type SearchParams struct {
	// Query is what the user asked for, in words ("engraved desk gift").
	Query string
	// UseCase is why the gift is sent ("thank a customer after closed-won");
	// it ranks gifts but excludes none.
	UseCase string
	// BudgetCents is the most one gift may cost (priceCents + shippingCents),
	// 1-MaxBudgetCents. It is per gift, not the campaign total.
	BudgetCents *int64
	// RecipientCount is how many people the campaign is for, 1-MaxSearchRecipients;
	// absent means 1.
	RecipientCount *int
	// Limit is how many gifts to return, 1-MaxPageLimit; absent means DefaultSearchLimit.
	Limit *int
	// ExcludeFood leaves out gifts with fulfillmentKind food.
	ExcludeFood bool
	// ExcludePortrait leaves out gifts that need a portrait photo.
	ExcludePortrait bool
	// ExcludeArtwork leaves out gifts that need artwork.
	ExcludeArtwork bool
	// ExcludeAlcohol leaves out gifts with fulfillmentKind alcohol.
	ExcludeAlcohol bool
	// RequireKnownShipping leaves out gifts with shippingQuoteRequired: use it
	// when the budget must hold exactly or auto-approve will be used.
	RequireKnownShipping bool
	// Mode is the caller's workspace mode (set by the service, not the
	// caller): in live mode only verified gifts are returned, since only they
	// can be ordered.
	Mode core.Mode
}

// SearchResult is search_gifts' answer.
type SearchResult struct {
	UseCase        string       `json:"useCase" jsonschema:"the useCase searched for, or empty"`
	BudgetCents    *int64       `json:"budgetCents" jsonschema:"the per-gift budget applied, or null"`
	RecipientCount int          `json:"recipientCount" jsonschema:"the number of people the estimates are for (1 when not given)"`
	Items          []SearchItem `json:"items" jsonschema:"the gifts that pass the selection rules and filters, best match first"`
	// Matched counts every gift that passed, of which Items are the first.
	Matched  int      `json:"matched" jsonschema:"how many gifts passed; items holds the first limit of them"`
	NextStep NextStep `json:"nextStep" jsonschema:"what to do next"`
}

// SearchItem is one gift found, with its estimates.
type SearchItem struct {
	CompactProduct
	// EstimatedTotalCents is the price per gift, priceCents + shippingCents.
	EstimatedTotalCents int64 `json:"estimatedTotalCents" jsonschema:"price per gift in USD cents (priceCents + shippingCents); excludes delivery when deliveryIncluded is false"`
	// CampaignEstimateCents is recipientCount x EstimatedTotalCents.
	CampaignEstimateCents int64 `json:"campaignEstimateCents" jsonschema:"recipientCount x estimatedTotalCents, in USD cents"`
	// DeliveryIncluded is false when delivery is not priced yet
	// (shippingQuoteRequired): the estimates then exclude it.
	DeliveryIncluded bool `json:"deliveryIncluded" jsonschema:"false when delivery is not priced yet and the estimates exclude it"`
	// EstimateNote explains the estimate when it needs explaining.
	EstimateNote string `json:"estimateNote,omitempty" jsonschema:"what the estimate leaves out, when anything"`
}

// NextStep tells the agent what to do with a search result.
type NextStep struct {
	Tool string `json:"tool" jsonschema:"the tool to call next"`
	// ProductID is the suggested gift, when there is one.
	ProductID string `json:"productId,omitempty" jsonschema:"the productId to use, taken from items"`
	// Mode is the suggested campaign kind for create_campaign.
	Mode         string `json:"mode,omitempty" jsonschema:"the campaign mode to suggest: always_on (a playbook) first"`
	Instructions string `json:"instructions" jsonschema:"what to do, in words"`
}

// Search returns the catalog gifts that pass the spec's selection rules
// (Selectable) and the filters of p, ranked by relevance to Query and
// UseCase; see SearchCatalog. Returns VALIDATION_ERROR naming the field for
// out-of-bounds parameters.
func (s *Store) Search(ctx context.Context, p SearchParams) (SearchResult, error) {
	if err := p.validate(); err != nil {
		return SearchResult{}, err
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return SearchResult{}, err
	}
	return SearchCatalog(snap.products, p)
}

func (p SearchParams) validate() error {
	if utf8.RuneCountInString(p.Query) > core.MaxSearchTextLength {
		return core.Invalid("query", "must be at most %d characters", core.MaxSearchTextLength)
	}
	if utf8.RuneCountInString(p.UseCase) > core.MaxSearchTextLength {
		return core.Invalid("useCase", "must be at most %d characters", core.MaxSearchTextLength)
	}
	if b := p.BudgetCents; b != nil && (*b < 1 || *b > core.MaxBudgetCents) {
		return core.Invalid("budgetCents", "must be between 1 and %d (USD cents per gift)", core.MaxBudgetCents)
	}
	if n := p.RecipientCount; n != nil && (*n < 1 || *n > core.MaxSearchRecipients) {
		return core.Invalid("recipientCount", "must be between 1 and %d", core.MaxSearchRecipients)
	}
	if l := p.Limit; l != nil && (*l < 1 || *l > core.MaxPageLimit) {
		return core.Invalid("limit", "must be between 1 and %d", core.MaxPageLimit)
	}
	return nil
}

// SearchCatalog applies the selection rules of spec §12 to products, in order:
//
//  1. retired false;
//  2. available not false and no priceQuoteRequired;
//  3. priceCents not 0 (an unpriced placeholder);
//  4. shippingQuoteRequired false preferred: RequireKnownShipping excludes
//     the others, and otherwise they rank after equally relevant gifts with
//     known delivery.
//
// Then the filters: the exclude flags, the per-gift budget, verified only in
// live mode, and, when Query has words, at least one of them matching. Gifts
// are ranked by relevance (name, giftType, category, fulfillmentKind,
// occasion, tagline, description; Query counts twice UseCase), then known
// delivery, featured, and catalog order.
func SearchCatalog(products []Product, p SearchParams) (SearchResult, error) {
	if err := p.validate(); err != nil {
		return SearchResult{}, err
	}
	recipients := 1
	if p.RecipientCount != nil {
		recipients = *p.RecipientCount
	}
	limit := core.DefaultSearchLimit
	if p.Limit != nil {
		limit = *p.Limit
	}
	query, useCase := searchTerms(p.Query), searchTerms(p.UseCase)

	type hit struct {
		pos   int
		score int
		p     *Product
	}
	var hits []hit
	var cheapestOverBudget *Product
	for i := range products {
		g := &products[i]
		if !p.admits(g) {
			continue
		}
		qs := relevance(g, query)
		if len(query) > 0 && qs == 0 {
			continue
		}
		if p.BudgetCents != nil && g.UnitCents() > *p.BudgetCents {
			if cheapestOverBudget == nil || g.UnitCents() < cheapestOverBudget.UnitCents() {
				cheapestOverBudget = g
			}
			continue
		}
		hits = append(hits, hit{pos: i, score: 2*qs + relevance(g, useCase), p: g})
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		return cmp.Or(
			cmp.Compare(b.score, a.score),
			compareBool(!a.p.ShippingQuoteRequired, !b.p.ShippingQuoteRequired),
			compareBool(a.p.Featured, b.p.Featured),
			cmp.Compare(a.pos, b.pos),
		)
	})
	res := SearchResult{UseCase: p.UseCase, BudgetCents: p.BudgetCents, RecipientCount: recipients, Items: []SearchItem{}, Matched: len(hits)}
	for _, h := range hits[:min(limit, len(hits))] {
		res.Items = append(res.Items, searchItem(*h.p, recipients))
	}
	res.NextStep = nextStep(res.Items, p, cheapestOverBudget)
	return res, nil
}

// admits applies the selection rules and the flag filters (not the budget
// or the query).
func (p SearchParams) admits(g *Product) bool {
	switch {
	case g.Selectable() != nil:
		return false
	case p.RequireKnownShipping && g.ShippingQuoteRequired:
		return false
	case p.ExcludeFood && g.FulfillmentKind == FulfillmentFood:
		return false
	case p.ExcludeAlcohol && g.FulfillmentKind == FulfillmentAlcohol:
		return false
	case p.ExcludePortrait && g.RequiresPortrait:
		return false
	case p.ExcludeArtwork && g.RequiresArtwork:
		return false
	case p.Mode == core.ModeLive && !g.Verified:
		return false
	}
	return true
}

// compareBool orders true before false.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func searchItem(g Product, recipients int) SearchItem {
	unit := g.UnitCents()
	item := SearchItem{
		CompactProduct:        g.Compact(),
		EstimatedTotalCents:   unit,
		CampaignEstimateCents: unit * int64(recipients),
		DeliveryIncluded:      !g.ShippingQuoteRequired,
	}
	var notes []string
	switch {
	case g.ShippingQuoteRequired:
		notes = append(notes, "Delivery is not priced yet and is excluded from these estimates; the final price is confirmed before a live order and may be higher. Auto-approve never approves this gift. Never present it as a delivered total.")
	case g.EstimateIncludesDelivery:
		notes = append(notes, "The estimate already includes US delivery.")
	}
	if !g.Verified {
		notes = append(notes, "Not verified yet: it works in test mode, but live mode cannot order it.")
	}
	item.EstimateNote = strings.Join(notes, " ")
	return item
}

func nextStep(items []SearchItem, p SearchParams, cheapestOverBudget *Product) NextStep {
	if len(items) == 0 {
		hint := "No gift passed the selection rules and filters. Try fewer or broader words in query, drop exclude flags or requireKnownShipping"
		if cheapestOverBudget != nil {
			hint += fmt.Sprintf(", or raise budgetCents (the least expensive match costs %d cents per gift)", cheapestOverBudget.UnitCents())
		}
		return NextStep{Tool: "search_gifts", Instructions: hint + ". browse_gifts lists the whole catalog. Never invent a product ID."}
	}
	top := items[0]
	return NextStep{
		Tool:      "create_campaign",
		ProductID: top.ID,
		Mode:      "always_on",
		Instructions: fmt.Sprintf("Show the user the best matches with their estimates and let them choose (the first is %s, %q). "+
			"Call get_gift for the chosen productId to read its lettering limits, recipient details, artwork and portrait needs. "+
			"Then call create_campaign with that productId, name, senderName and senderCompany. Prefer mode always_on (a playbook: one gift per trigger, people added over time), "+
			"then batch (a fixed list of at most %d people, with budgetCents, perPersonCents and maxSends), then single. "+
			"A signed-in person turns it on or pays at the campaign's review URL; never invent a product ID.",
			top.ID, top.Name, core.RecipientsPerCampaign),
	}
}

// searchTerms splits text into lowercase word stems, dropping stopwords and
// bare numbers.
func searchTerms(text string) []string {
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopwords[w] || isNumber(w) {
			continue
		}
		if st := stem(w); !slices.Contains(terms, st) {
			terms = append(terms, st)
		}
	}
	return terms
}

func isNumber(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// stem strips a common English suffix so that "engraved", "engraving" and
// "engrave" meet.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if suf == "s" && strings.HasSuffix(w, "ss") {
			continue
		}
		if rest, ok := strings.CutSuffix(w, suf); ok && utf8.RuneCountInString(rest) >= 3 {
			return rest
		}
	}
	return w
}

// termMatches reports whether a query stem meets a field stem: equal, or one
// a prefix of the other with at least five letters in common (plant/planter).
func termMatches(q, f string) bool {
	if q == f {
		return true
	}
	short, long := q, f
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(short) >= 5 && strings.HasPrefix(long, short)
}

// relevance scores g for terms: for each term, the weight of the best field
// it appears in.
func relevance(g *Product, terms []string) int {
	if len(terms) == 0 {
		return 0
	}
	fields := []struct {
		weight int
		text   string
	}{
		{6, g.Name}, {4, g.GiftType}, {4, g.Category}, {3, string(g.FulfillmentKind)},
		{3, g.Occasion}, {3, g.Tagline}, {1, g.Description},
	}
	stems := make([][]string, len(fields))
	for i, f := range fields {
		stems[i] = searchTerms(f.text)
	}
	score := 0
	for _, t := range terms {
		best := 0
		for i, f := range fields {
			if f.weight > best && slices.ContainsFunc(stems[i], func(s string) bool { return termMatches(t, s) }) {
				best = f.weight
			}
		}
		score += best
	}
	return score
}

var stopwords = map[string]bool{}

func init() {
	for w := range strings.FieldsSeq(`a an the and or but for to of in on at by with from into about as is are be
		it its this that these those our my your their his her we i me us you they them who what which
		some something any gift gifts present presents send sending sent give giving get idea ideas good nice
		great best want need looking like under over than per each people person someone team`) {
		stopwords[w] = true
	}
}
