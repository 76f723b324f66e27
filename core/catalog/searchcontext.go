package catalog

// contextWords are the stems of the words that say whom a gift is for or
// that thank in general ("for our champion", "the whole team", "a thank-you
// for a client"): nearly every gift suits them, so they rank gifts a little
// and never narrow a search (see termGroup). A gift-giving query is mostly
// written around them; the words left say which gift.
var contextWords = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range textStems(`customer customers client clients account accounts champion champions sponsor sponsors
		contact contacts buyer buyers stakeholder stakeholders user users team teams whole colleague colleagues coworker coworkers
		staff employee employees folks everyone thank thanks appreciation grateful gratitude`) {
		m[s] = true
	}
	return m
}()
