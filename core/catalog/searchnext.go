package catalog

import (
	"fmt"

	"github.com/giftwell/giftwell/core"
)

// searchContext is what nextStep needs to know about a search beyond its items.
type searchContext struct {
	p     SearchParams
	query searchQuery
	// fellBack is set when no gift matched the query's words and the items
	// are ranked by useCase and budget instead.
	fellBack bool
	// cheapestOverBudget is the least expensive gift left out by budgetCents
	// alone, or nil.
	cheapestOverBudget *Product
}

// nextStep tells the agent what to do with the items found.
func nextStep(items []SearchItem, sc searchContext) NextStep {
	read := sc.query.understood(sc.p.BudgetCents != nil)
	if len(items) == 0 {
		hint := read + "No gift passed the selection rules and filters. Try fewer or broader words in query, drop exclude flags or requireKnownShipping"
		if sc.cheapestOverBudget != nil {
			hint += fmt.Sprintf(", or raise budgetCents (the least expensive match costs %d cents per gift)", sc.cheapestOverBudget.UnitCents())
		}
		return NextStep{Tool: "search_gifts", Instructions: hint + ". browse_gifts lists the whole catalog. Never invent a product ID."}
	}
	if sc.fellBack {
		basis := "the use case and budget"
		if sc.p.UseCase == "" {
			basis = "the budget and filters alone (no useCase was given)"
		}
		read += fmt.Sprintf("No gift matched the words of query %q, so these are the best gifts for %s instead: tell the user so, "+
			"and search again with other words or browse_gifts if none suits", sc.p.Query, basis)
		if sc.cheapestOverBudget != nil {
			read += fmt.Sprintf(" (a gift matching the words costs %d cents per gift, over budgetCents)", sc.cheapestOverBudget.UnitCents())
		}
		read += ". "
	}
	top := items[0]
	if !top.Verified {
		read += "No verified gift matched: the first is not verified, so live mode cannot order it. "
	}
	return NextStep{
		Tool:      "create_campaign",
		ProductID: top.ID,
		Mode:      "always_on",
		Instructions: read + fmt.Sprintf("Show the user the best matches with their estimates and let them choose (the first is %s, %q). "+
			"Call get_gift for the chosen productId to read its lettering limits, recipient details, artwork and portrait needs. "+
			"Then call create_campaign with that productId, name, senderName and senderCompany. Prefer mode always_on (a playbook: one gift per trigger, people added over time), "+
			"then batch (a fixed list of at most %d people, with budgetCents, perPersonCents and maxSends), then single. "+
			"A signed-in person turns it on or pays at the campaign's review URL; never invent a product ID.",
			top.ID, top.Name, core.RecipientsPerCampaign),
	}
}
