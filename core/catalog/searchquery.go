package catalog

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// searchQuery is what search reads from query (or useCase) text.
type searchQuery struct {
	// groups are the concepts to match, each with its words of the same meaning.
	groups []termGroup
	// excludeFood, excludeAlcohol, excludePortrait and excludeArtwork are
	// the exclusion flags the text asks for ("no alcohol", "photo-free").
	excludeFood, excludeAlcohol, excludePortrait, excludeArtwork bool
	// notStems are the stems of the excluded words: a gift with one in its
	// headline is left out, and they never match.
	notStems []string
	// excluded are the excluded words as written, for nextStep.
	excluded []string
	// requireKnownShipping is set when the text asks for a delivery priced
	// in advance ("known shipping", "free delivery").
	requireKnownShipping bool
	// knownShippingText is that request as written ("known shipping").
	knownShippingText string
	// budgetCents is an amount written in the text ("about $60"), with a
	// tenth more for an approximate one; 0 when none.
	budgetCents int64
	// budgetText is that amount as written ("about $60").
	budgetText string
}

// negators start an exclusion: "no alcohol", "without a logo".
var negators = map[string]bool{"no": true, "not": true, "without": true, "excluding": true, "except": true,
	"minus": true, "avoid": true, "avoiding": true, "never": true, "nothing": true, "non": true, "nor": true,
	"don't": true, "doesn't": true, "isn't": true, "shouldn't": true, "can't": true, "cannot": true, "mustn't": true}

// negationFillers may stand between a negator and the word it excludes:
// "without any alcohol", "does not need our artwork".
var negationFillers = map[string]bool{"any": true, "a": true, "an": true, "the": true, "our": true, "your": true,
	"their": true, "need": true, "needs": true, "needing": true, "require": true, "requires": true, "requiring": true,
	"contain": true, "contains": true, "containing": true, "include": true, "includes": true, "including": true,
	"with": true, "have": true, "has": true, "involve": true, "involves": true, "be": true, "is": true}

// approxWords before an amount make it approximate.
var approxWords = map[string]bool{"about": true, "around": true, "roughly": true, "approximately": true,
	"approx": true, "circa": true, "ish": true}

// shippingWords name delivery, and knownWords before or after one of them
// ask for a delivery priced in advance: "known shipping", "shipping
// included", "free delivery".
var (
	shippingWords = map[string]bool{"shipping": true, "delivery": true, "postage": true}
	knownWords    = map[string]bool{"known": true, "fixed": true, "included": true, "includes": true, "free": true,
		"priced": true, "prepaid": true, "flat": true}
)

// currencyWords after a number make it an amount: "60 dollars".
var currencyWords = map[string]bool{"dollar": true, "dollars": true, "usd": true, "bucks": true}

// exclusionFlag says which exclusion flag a word names, or "" for none.
func exclusionFlag(w string) string {
	switch w {
	case "alcohol", "alcoholic", "booze", "boozy", "liquor", "liquors", "spirits":
		return "alcohol"
	case "food", "foods", "edible", "edibles":
		return "food"
	case "portrait", "portraits", "photo", "photos", "picture", "pictures", "headshot", "headshots", "likeness":
		return "portrait"
	case "artwork", "artworks", "logo", "logos", "branding", "branded", "brand":
		return "artwork"
	}
	return ""
}

// parseQuery reads text: exclusions ("no X", "without X", "X-free" and
// "non-X" for the flag words, "-X"; "gluten-free" stays words to match), an
// amount, a request for known delivery, and the remaining words as
// term groups, with the vocabulary's words of the same meaning.
func parseQuery(text string) searchQuery {
	var q searchQuery
	tokens := tokenize(text)
	negated := make([]bool, len(tokens))
	for i, t := range tokens {
		switch {
		case t.minus && !isNumber(t.word):
			negated[i] = true
		case negators[t.word]:
			j := i + 1
			for j < len(tokens) && negationFillers[tokens[j].word] {
				j++
			}
			// "no alcohol or food": the negation carries over or/nor, and
			// over and when the next word is a flag word too.
			for j < len(tokens) && !isStopword(tokens[j].word) && !isNumber(tokens[j].word) {
				negated[j] = true
				next := j + 2
				if next >= len(tokens) || !(tokens[j+1].word == "or" || tokens[j+1].word == "nor" ||
					tokens[j+1].word == "and" && exclusionFlag(tokens[next].word) != "") {
					break
				}
				j = next
			}
		case t.word == "free" && i > 0 && exclusionFlag(tokens[i-1].word) != "":
			negated[i-1], negated[i] = true, true
		}
		if strings.HasPrefix(t.word, "non") && exclusionFlag(strings.TrimPrefix(t.word, "non")) != "" {
			negated[i] = true
			tokens[i].word = strings.TrimPrefix(t.word, "non")
		}
	}
	q.readAmount(tokens)
	known := q.readKnownShipping(tokens, negated)
	var kept []string
	for i, t := range tokens {
		switch {
		case known[i]:
		case negated[i]:
			q.exclude(t.word)
		case !isStopword(t.word) && !isNumber(t.word) && !currencyWords[t.word]:
			kept = append(kept, stem(t.word))
		}
	}
	q.groups = expandTerms(kept, q.notStems)
	return q
}

// exclude records an excluded word.
func (q *searchQuery) exclude(w string) {
	switch exclusionFlag(w) {
	case "alcohol":
		q.excludeAlcohol = true
	case "food":
		q.excludeFood = true
	case "portrait":
		q.excludePortrait = true
	case "artwork":
		q.excludeArtwork = true
	}
	if s := stem(w); !slices.Contains(q.notStems, s) {
		q.notStems = append(q.notStems, s)
		q.excluded = append(q.excluded, w)
	}
}

// readAmount finds amounts in dollars ("$60", "60 dollars") and keeps the
// largest, a tenth more when it is approximate ("about $60", "~$60").
func (q *searchQuery) readAmount(tokens []token) {
	for i, t := range tokens {
		if !isNumber(t.word) || !(t.dollar || i+1 < len(tokens) && currencyWords[tokens[i+1].word]) {
			continue
		}
		dollars, err := strconv.ParseFloat(strings.ReplaceAll(t.word, ",", ""), 64)
		if err != nil || dollars <= 0 || dollars > 1e6 {
			continue
		}
		approx := t.approx || i > 0 && approxWords[tokens[i-1].word] || i+1 < len(tokens) && tokens[i+1].word == "ish"
		cents := int64(math.Round(dollars * 100))
		written := "$" + t.word
		if approx {
			cents += cents / 10
			written = "about " + written
		}
		if cents > q.budgetCents {
			q.budgetCents, q.budgetText = cents, written
		}
	}
}

// readKnownShipping finds a request for known delivery ("known shipping",
// "delivery included") not under a negation, and returns the tokens it
// used, which are not search terms.
func (q *searchQuery) readKnownShipping(tokens []token, negated []bool) []bool {
	used := make([]bool, len(tokens))
	for i := 0; i+1 < len(tokens); i++ {
		a, b := tokens[i].word, tokens[i+1].word
		if negated[i] || negated[i+1] || !(knownWords[a] && shippingWords[b] || shippingWords[a] && knownWords[b]) {
			continue
		}
		used[i], used[i+1] = true, true
		if !q.requireKnownShipping {
			q.requireKnownShipping, q.knownShippingText = true, a+" "+b
		}
	}
	return used
}

// understood says in words what was read from the query besides its terms,
// or "" when nothing was.
func (q searchQuery) understood(hardBudget bool) string {
	var parts []string
	if len(q.excluded) > 0 {
		parts = append(parts, fmt.Sprintf("left out gifts it excludes (%s) and did not match those words", strings.Join(q.excluded, ", ")))
	}
	if q.requireKnownShipping {
		parts = append(parts, fmt.Sprintf("left out gifts whose delivery is not priced yet (%q)", q.knownShippingText))
	}
	if q.budgetCents > 0 && !hardBudget {
		parts = append(parts, fmt.Sprintf("ranked gifts within %d cents first for %q (pass budgetCents to hold a budget)", q.budgetCents, q.budgetText))
	}
	if len(parts) == 0 {
		return ""
	}
	return "From the query, search " + strings.Join(parts, ", and ") + ". "
}
