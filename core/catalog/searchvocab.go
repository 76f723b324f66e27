package catalog

import (
	"fmt"
	"maps"
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
	{"new customer", "onboarding welcome closed-won"},
	{"new client", "onboarding welcome closed-won"},
	{"new account", "onboarding welcome closed-won"},
	{"welcome", "onboarding"},
	{"kickoff", "onboarding"},
	{"new hire", "onboarding"},
	{"new employee", "onboarding"},
	{"first day", "onboarding"},
	{"first week", "onboarding"},
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
	{"milestone", "milestones celebration keepsake engraved framed"},
	{"anniversary", "milestones celebration keepsake engraved framed"},
	{"birthday", "milestones celebration treats self-care engraved"},
	{"keepsake", "engraved framed monogram etched embossed debossed illustration"},
	{"memento", "keepsake engraved framed monogram etched embossed debossed illustration"},
	{"commemorate", "keepsake engraved framed monogram etched embossed debossed illustration"},
	{"commemorative", "keepsake engraved framed monogram etched embossed debossed illustration"},
	{"promoted", "promotions"},
	{"ceo", "executive"},
	{"cfo", "executive"},
	{"cto", "executive"},
	{"vp", "executive"},
	{"founder", "executive"},
	{"boss", "executive"},
	{"cro", "executive"},
	{"coo", "executive"},
	{"cmo", "executive"},
	{"cio", "executive"},
	{"ciso", "executive"},
	{"svp", "executive"},
	{"evp", "executive"},
	{"president", "executive"},
	{"director", "executive"},
	{"c suite", "executive"},
	{"executive sponsor", "executive"},
	{"decision maker", "executive"},
	{"high end", "premium executive"},
	{"luxury", "premium"},
	{"luxurious", "premium"},
	{"upscale", "premium"},
	{"splurge", "premium"},
	{"leader", "executive leadership"},
	{"christmas", "holiday"},
	{"festive", "holiday"},
	{"seasonal", "holiday"},
	{"year end", "holiday"},
	{"end year", "holiday"},
	{"new year", "holiday"},
	{"conference", "event"},
	{"trade show", "event conference"},
	{"tradeshow", "event conference"},
	{"booth", "event conference"},
	{"expo", "event conference"},
	{"offsite", "event"},
	{"retreat", "event"},
	{"webinar", "event prospecting"},
	{"summit", "event conference"},
	{"prospect", "prospecting"},
	{"outreach", "prospecting"},
	{"lead", "prospecting"},
	{"demo", "meeting"},
	{"renew", "renewals"},
	{"retention", "renewals"},
	{"churn", "renewals"},
	{"churn save", "renewals"},
	{"risk", "renewals"},
	{"unhappy", "renewals"},
	{"upset", "renewals"},
	{"apology", "renewals"},
	{"sorry", "renewals"},
	{"win back", "renewals"},
	{"key account", "renewals executive"},
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
	{"bourbon", "whiskey spirits rocks"},
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
	{"basket", "crate gourmet"},
	{"hamper", "crate gourmet"},
	{"gourmet", "gourmet food"},
	{"foodie", "gourmet kitchen"},
	{"food lover", "gourmet kitchen"},
	{"chef", "kitchen kitchenware gourmet"},
	{"cook", "kitchen kitchenware gourmet"},
	{"cooking", "kitchen kitchenware gourmet"},
	{"share", "snacks treats crate tin serving chocolate"},
	{"shareable", "snacks treats crate tin serving chocolate"},
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
	{"remotely", "desk office"},
	{"distributed", "desk office"},
	{"wfh", "desk office"},
	{"work home", "desk office"},
	{"home office", "desk office"},
	{"workspace", "desk office"},
	{"green", "plant"},
	{"greenery", "plant"},
	{"garden", "plant"},
	{"reading", "book"},
	{"notebook", "notepad"},
	{"notepad", "notebook"},
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
	{"art", "print illustration framed"},
	{"art print", "art print illustration framed"},
	{"framed art", "art print illustration framed"},
	{"wall art", "art print illustration framed"},
	{"desk plant", "plant succulent"},
	{"office plant", "plant succulent"},
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
// group of itself and its meanings. A group with the stems of an earlier
// one is left out ("new hire, first week" is one concept). Stems in not
// never match.
func expandTerms(stems, not []string) []termGroup {
	var groups []termGroup
	seen := map[string]bool{}
	add := func(key string, own []string) {
		g := termGroup{stems: map[string]float64{}, context: contextWords[key]}
		for _, s := range vocabulary[key] {
			g.stems[s] = synonymShare
		}
		for _, s := range own {
			g.stems[s] = 1
		}
		for _, s := range not {
			delete(g.stems, s)
		}
		same := slices.Sorted(maps.Keys(g.stems))
		if len(same) == 0 || seen[strings.Join(same, " ")] {
			return
		}
		seen[strings.Join(same, " ")] = true
		groups = append(groups, g)
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
