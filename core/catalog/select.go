package catalog

import (
	"cmp"
	"context"
	"slices"
	"strings"
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
	return searchCatalog(snap.products, snap.index, p)
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
//     the others, and otherwise they rank after gifts with known delivery
//     (before relevance when a budget must hold, else among equals).
//
// Then the filters: the exclude flags (set, or asked for in Query: "no
// alcohol", "without a logo", "alcohol-free", "non-food"; a gift whose name,
// giftType, category or tagline has a word the query excludes is left out
// too, and excluded words never match), known delivery when Query asks for
// it ("known shipping", "delivery included"), the per-gift budget, and verified
// only in live mode. When Query has words that say which gift, gifts must
// match at least one of them (words that only say whom it is for or thank,
// "customer", "team", "thank you", rank but never narrow: see
// contextWords); when none does, search falls back to UseCase and the
// budget and says so in nextStep.
//
// Gifts are ranked verified first (only they can be ordered in live mode),
// then within an amount written in Query ("about $60") first, then known
// delivery first when a budget must hold, then by full-text relevance
// (Query counts twice UseCase; a gift matching more of the query's
// concepts ranks higher; see searchtext.go), then known delivery,
// featured, and catalog order.
func SearchCatalog(products []Product, p SearchParams) (SearchResult, error) {
	return searchCatalog(products, newSearchIndex(products), p)
}

// searchCatalog is SearchCatalog over products read into idx.
func searchCatalog(products []Product, idx searchIndex, p SearchParams) (SearchResult, error) {
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
	query, useCase := parseQuery(p.Query), parseQuery(p.UseCase)
	filters := p
	filters.ExcludeFood = p.ExcludeFood || query.excludeFood
	filters.ExcludeAlcohol = p.ExcludeAlcohol || query.excludeAlcohol
	filters.ExcludePortrait = p.ExcludePortrait || query.excludePortrait
	filters.ExcludeArtwork = p.ExcludeArtwork || query.excludeArtwork
	filters.RequireKnownShipping = p.RequireKnownShipping || query.requireKnownShipping
	softBudget := int64(0)
	if p.BudgetCents == nil {
		softBudget = query.budgetCents
	}
	budgetHolds := p.BudgetCents != nil || softBudget > 0

	type hit struct {
		pos          int
		score        float64
		withinBudget bool
		p            *Product
	}
	queryNarrows := narrows(query.groups)
	var matched, others []hit
	var cheapestOverBudget *Product
	for i := range products {
		g := &products[i]
		if !filters.admits(g) || idx[i].excludes(query.notStems) {
			continue
		}
		qs, qMatched := idx[i].score(query.groups)
		qMatched = qMatched || !queryNarrows
		if p.BudgetCents != nil && g.UnitCents() > *p.BudgetCents {
			if qMatched && (cheapestOverBudget == nil || g.UnitCents() < cheapestOverBudget.UnitCents()) {
				cheapestOverBudget = g
			}
			continue
		}
		us, _ := idx[i].score(useCase.groups)
		h := hit{pos: i, score: 2*qs + us, withinBudget: softBudget == 0 || g.UnitCents() <= softBudget, p: g}
		if qMatched {
			matched = append(matched, h)
		} else {
			others = append(others, h)
		}
	}
	hits, fellBack := matched, queryNarrows && len(matched) == 0
	if fellBack {
		hits = others
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		knownA, knownB := !a.p.ShippingQuoteRequired, !b.p.ShippingQuoteRequired
		c := cmp.Or(compareBool(a.p.Verified, b.p.Verified), compareBool(a.withinBudget, b.withinBudget))
		if budgetHolds {
			c = cmp.Or(c, compareBool(knownA, knownB))
		}
		return cmp.Or(c,
			cmp.Compare(b.score, a.score),
			compareBool(knownA, knownB),
			compareBool(a.p.Featured, b.p.Featured),
			cmp.Compare(a.pos, b.pos),
		)
	})
	res := SearchResult{UseCase: p.UseCase, BudgetCents: p.BudgetCents, RecipientCount: recipients, Items: []SearchItem{}, Matched: len(hits)}
	for _, h := range hits[:min(limit, len(hits))] {
		res.Items = append(res.Items, searchItem(*h.p, recipients))
	}
	res.NextStep = nextStep(res.Items, searchContext{p: p, query: query, fellBack: fellBack, cheapestOverBudget: cheapestOverBudget})
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
