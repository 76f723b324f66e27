package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// synonymShare is the share of a match a word of the same meaning earns,
// so that the word written ranks first.
const synonymShare = 0.8

// searchVocabulary is a small gifting thesaurus (as PostgreSQL's synonym
// and thesaurus dictionaries do): the words people use for an occasion,
// a recipient or a kind of gift, each with the words the catalog uses for
// it. A key of two words is a phrase; it replaces its own words. It is
// general vocabulary, written for gifting, not for any product.
var searchVocabulary = []struct{ words, means string }{
	// Recipients and occasions.
	{"client", "customer"},
	{"clients", "customer"},
	{"account", "customer"},
	{"new customer", "customer onboarding welcome closed-won"},
	{"new client", "customer onboarding welcome closed-won"},
	{"new account", "customer onboarding welcome closed-won"},
	{"welcome", "onboarding"},
	{"kickoff", "onboarding"},
	{"new hire", "onboarding team"},
	{"new employee", "onboarding team"},
	{"first day", "onboarding"},
	{"deal", "closed-won"},
	{"closed deal", "closed-won"},
	{"signed", "closed-won"},
	{"signing", "closed-won"},
	{"contract", "closed-won"},
	{"thanks", "thank"},
	{"appreciation", "thank"},
	{"grateful", "thank"},
	{"gratitude", "thank"},
	{"congratulations", "celebration milestones"},
	{"congrats", "celebration milestones"},
	{"celebrate", "celebration"},
	{"anniversary", "milestones"},
	{"birthday", "milestones celebration"},
	{"promoted", "promotions"},
	{"ceo", "executive"},
	{"cfo", "executive"},
	{"cto", "executive"},
	{"vp", "executive"},
	{"founder", "executive"},
	{"boss", "executive"},
	{"leader", "executive leadership"},
	{"christmas", "holiday"},
	{"festive", "holiday"},
	{"seasonal", "holiday"},
	{"year end", "holiday"},
	{"new year", "holiday"},
	{"conference", "event"},
	{"trade show", "event conference"},
	{"tradeshow", "event conference"},
	{"booth", "event conference"},
	{"expo", "event conference"},
	{"summit", "event conference"},
	{"prospect", "prospecting"},
	{"outreach", "prospecting"},
	{"lead", "prospecting"},
	{"demo", "meeting"},
	{"renew", "renewals"},
	{"retention", "renewals"},
	{"key account", "customer renewals executive"},
	{"colleague", "team"},
	{"coworker", "team"},
	{"staff", "team"},
	{"employee", "team"},
	{"employees", "team"},
	{"partner", "partnership"},
	{"release", "launches"},
	{"housewarming", "home"},
	{"end quarter", "end quarter"},
	{"qbr", "end quarter"},
	// Kinds of gift.
	{"swag", "logo apparel"},
	{"merch", "logo apparel swag"},
	{"merchandise", "logo apparel swag"},
	{"branded", "logo"},
	{"sweater", "apparel pullover quarter-zip"},
	{"hoodie", "apparel pullover quarter-zip"},
	{"pullover", "apparel quarter-zip"},
	{"fleece", "apparel pullover"},
	{"jacket", "apparel"},
	{"shirt", "apparel"},
	{"clothing", "apparel"},
	{"clothes", "apparel"},
	{"drink", "drinkware coffee tea"},
	{"drinks", "drinkware coffee tea"},
	{"beverage", "drinkware coffee tea"},
	{"whiskey", "bourbon spirits rocks"},
	{"whisky", "bourbon spirits rocks"},
	{"scotch", "bourbon spirits rocks"},
	{"liquor", "spirits"},
	{"booze", "spirits wine"},
	{"bubbly", "champagne"},
	{"sparkling", "champagne"},
	{"prosecco", "champagne"},
	{"sweet", "chocolate cookies treats"},
	{"sweets", "chocolate cookies treats"},
	{"candy", "chocolate treats"},
	{"dessert", "chocolate cookies"},
	{"treat", "treats chocolate cookies"},
	{"basket", "crate board"},
	{"hamper", "crate board"},
	{"gourmet", "gourmet food"},
	{"foodie", "gourmet kitchen"},
	{"food lover", "gourmet kitchen"},
	{"chef", "kitchen gourmet"},
	{"cook", "kitchen gourmet"},
	{"cooking", "kitchen gourmet"},
	{"espresso", "coffee"},
	{"caffeine", "coffee"},
	{"relax", "relaxation wellness spa"},
	{"relaxing", "relaxation wellness spa"},
	{"stress", "relaxation wellness spa"},
	{"stressed", "relaxation wellness spa"},
	{"self care", "self-care wellness spa"},
	{"pamper", "spa self-care"},
	{"burnout", "wellness self-care"},
	{"health", "wellness"},
	{"healthy", "wellness"},
	{"wellbeing", "wellness"},
	{"gadget", "tech electronics"},
	{"gadgets", "tech electronics"},
	{"techie", "tech electronics"},
	{"electronic", "electronics tech"},
	{"phone", "charging"},
	{"music", "headphones"},
	{"audio", "headphones"},
	{"traveler", "travel"},
	{"traveller", "travel"},
	{"frequent flyer", "travel"},
	{"flyer", "travel"},
	{"trip", "travel"},
	{"road warrior", "travel"},
	{"remote", "desk office"},
	{"wfh", "desk office"},
	{"work home", "desk office"},
	{"home office", "desk office"},
	{"workspace", "desk office"},
	{"green", "plant"},
	{"greenery", "plant"},
	{"garden", "plant"},
	{"reading", "book"},
	{"reader", "book"},
	{"golfer", "golf"},
	{"sports", "sport"},
	{"outdoors", "outdoor"},
	{"athlete", "sport"},
	{"personalized", "engraved monogram personalization"},
	{"personalised", "engraved monogram personalization"},
	{"personal", "engraved monogram personalization"},
	{"customized", "custom engraved"},
	{"name", "engraved monogram"},
	{"initials", "monogram"},
	{"photo", "portrait"},
	{"picture", "portrait"},
	{"poster", "print"},
	{"wall", "print"},
	{"glassware", "glass"},
	{"barware", "glass"},
}

// vocabulary maps the stems of a vocabulary key (one stem, or two joined
// by a space) to the stems it means.
var vocabulary = func() map[string][]string {
	m := map[string][]string{}
	for _, e := range searchVocabulary {
		key := textStems(e.words)
		if len(key) < 1 || len(key) > 2 {
			panic(fmt.Sprintf("catalog: vocabulary key %q must be one or two words that are not stop words", e.words))
		}
		k := strings.Join(key, " ")
		for _, s := range textStems(e.means) {
			if !slices.Contains(m[k], s) {
				m[k] = append(m[k], s)
			}
		}
	}
	return m
}()

// expandTerms turns query stems into term groups: a two-word phrase of the
// vocabulary becomes one group of its meanings, and every other stem a
// group of itself and its meanings. Stems in not never match.
func expandTerms(stems, not []string) []termGroup {
	var groups []termGroup
	seen := map[string]bool{}
	add := func(key string, own []string) {
		if seen[key] {
			return
		}
		seen[key] = true
		g := termGroup{}
		for _, s := range vocabulary[key] {
			g[s] = synonymShare
		}
		for _, s := range own {
			g[s] = 1
		}
		for _, s := range not {
			delete(g, s)
		}
		if len(g) > 0 {
			groups = append(groups, g)
		}
	}
	for i := 0; i < len(stems); i++ {
		if i+1 < len(stems) {
			if phrase := stems[i] + " " + stems[i+1]; vocabulary[phrase] != nil {
				add(phrase, nil)
				i++
				continue
			}
		}
		add(stems[i], stems[i:i+1])
	}
	return groups
}
