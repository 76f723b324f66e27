package catalog

import (
	"slices"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
)

// Full-text ranking for search_gifts, in process: the catalog lives in
// memory (see Store), so search costs no database round trip. It mirrors
// PostgreSQL's english configuration: Snowball English stems and stop words,
// one weight per field as setweight gives (A name; B tagline, category,
// giftType, occasion; C fulfillmentKind; D description), with ts_rank's
// default weights {1.0, 0.4, 0.2, 0.1}.

// The field weights, as PostgreSQL's A, B, C and D.
const (
	weightA = 1.0
	weightB = 0.4
	weightC = 0.2
	weightD = 0.1
)

// token is one word of a text as the search reads it, with what was written
// just before it.
type token struct {
	word string
	// minus is a word written with a leading minus ("-alcohol"), as in a web search.
	minus bool
	// dollar is a word written after a dollar sign ("$60").
	dollar bool
	// approx is a word written after a tilde ("~$60").
	approx bool
}

// tokenize splits text into lowercase words of letters and digits; an
// apostrophe inside a word and a comma or point inside a number stay in it.
func tokenize(text string) []token {
	runes := []rune(strings.ToLower(strings.ReplaceAll(text, "’", "'")))
	isWord := func(i int) bool {
		r := runes[i]
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
		inside := i > 0 && i+1 < len(runes)
		switch r {
		case '\'':
			return inside && unicode.IsLetter(runes[i-1]) && unicode.IsLetter(runes[i+1])
		case ',', '.':
			return inside && unicode.IsDigit(runes[i-1]) && unicode.IsDigit(runes[i+1])
		}
		return false
	}
	var tokens []token
	sepStart := 0
	for i := 0; i < len(runes); {
		if !isWord(i) {
			i++
			continue
		}
		sep := string(runes[sepStart:i])
		j := i
		for j < len(runes) && isWord(j) {
			j++
		}
		trimmed := strings.TrimRight(sep, " ")
		tokens = append(tokens, token{
			word:   string(runes[i:j]),
			minus:  strings.HasSuffix(sep, "-") && (len(tokens) == 0 && sep == "-" || strings.HasSuffix(sep, " -")),
			dollar: strings.HasSuffix(trimmed, "$") || strings.HasSuffix(trimmed, "$~"),
			approx: strings.Contains(sep, "~"),
		})
		sepStart, i = j, j
	}
	return tokens
}

// stemExceptions keeps apart words the Snowball stemmer merges but a gift
// catalog must not: a customer is not a custom gift.
var stemExceptions = map[string]string{"customer": "customer", "customers": "customer"}

// stem returns the Snowball English stem of a lowercase word, without a
// possessive ("customer's" is customer).
func stem(w string) string {
	w = strings.TrimSuffix(w, "'s")
	if s, ok := stemExceptions[w]; ok {
		return s
	}
	return english.Stem(w, false)
}

// giftStopwords are words that say nothing about which gift, on top of
// Snowball's English stop words.
var giftStopwords = map[string]bool{}

func init() {
	for w := range strings.FieldsSeq(`gift gifts present presents send sending sent give giving get idea ideas good nice
		great best want wants need needs needed looking like something someone somebody anyone anything people person
		please thing things item items recipient recipients buy would could may might also one
		budget around approx approximately roughly circa ish max maximum least less price priced cost costs cents
		lot lots just really big`) {
		giftStopwords[w] = true
	}
}

// isStopword reports whether a lowercase word is left out of search terms.
func isStopword(w string) bool { return english.IsStopWord(w) || giftStopwords[w] }

// isNumber reports whether w is written in digits only (with commas or points).
func isNumber(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) && r != ',' && r != '.' }) < 0
}

// textStems returns the stems of the words of text that are neither stop
// words nor numbers, in order, repeats included.
func textStems(text string) []string {
	var stems []string
	for _, t := range tokenize(text) {
		if !isStopword(t.word) && !isNumber(t.word) {
			stems = append(stems, stem(t.word))
		}
	}
	return stems
}

// productDoc is one product as search reads it.
type productDoc struct {
	// weights is each stem's weight: that of the heaviest field it is in.
	weights map[string]float64
	// headline holds the stems of the fields that say what the gift is
	// (name, giftType, category, tagline): a word the query excludes in
	// one of them leaves the gift out.
	headline map[string]bool
}

// searchIndex holds one productDoc per product, in catalog order.
type searchIndex []productDoc

// newSearchIndex reads every product of products.
func newSearchIndex(products []Product) searchIndex {
	idx := make(searchIndex, len(products))
	for i := range products {
		idx[i] = newProductDoc(&products[i])
	}
	return idx
}

func newProductDoc(g *Product) productDoc {
	d := productDoc{weights: map[string]float64{}, headline: map[string]bool{}}
	for _, f := range []struct {
		weight   float64
		headline bool
		text     string
	}{
		{weightA, true, g.Name},
		{weightB, true, g.Tagline}, {weightB, true, g.Category}, {weightB, true, g.GiftType}, {weightB, false, g.Occasion},
		{weightC, false, string(g.FulfillmentKind)},
		{weightD, false, g.Description},
	} {
		for _, s := range textStems(f.text) {
			d.weights[s] = max(d.weights[s], f.weight)
			if f.headline {
				d.headline[s] = true
			}
		}
	}
	return d
}

// termGroup is one concept of a query: stems with the share of a match
// each earns (1 for the word written, less for a word of the same meaning).
type termGroup struct {
	// stems maps each stem to the share of a match it earns.
	stems map[string]float64
	// context is set for a word that says whom a gift is for or thanks in
	// general ("customer", "team", "thank you"): it ranks gifts a little
	// but never narrows them, since nearly every gift suits it.
	context bool
}

// contextShare is the share of a match a context word earns.
const contextShare = 0.25

// narrows reports whether groups have a concept that is not context:
// then only gifts matching one of them are kept.
func narrows(groups []termGroup) bool {
	return slices.ContainsFunc(groups, func(g termGroup) bool { return !g.context })
}

// score sums, over groups, the best weighted match of each in d, scaled by
// the share of the query's concepts d matches (as Lucene's coordination
// factor: a gift matching "desk" and "plant" ranks above one matching
// either strongly), plus a context share of its context words. matched
// reports whether d matches at least one concept.
func (d productDoc) score(groups []termGroup) (score float64, matched bool) {
	concepts, hits := 0, 0
	sum, context := 0.0, 0.0
	for _, g := range groups {
		best := 0.0
		for s, share := range g.stems {
			best = max(best, d.weights[s]*share)
		}
		switch {
		case g.context:
			context += best
		case best > 0:
			concepts, hits, sum = concepts+1, hits+1, sum+best
		default:
			concepts++
		}
	}
	if concepts > 0 {
		sum *= float64(hits) / float64(concepts)
	}
	return sum + contextShare*context, hits > 0
}

// excludes reports whether one of stems is in d's headline.
func (d productDoc) excludes(stems []string) bool {
	for _, s := range stems {
		if d.headline[s] {
			return true
		}
	}
	return false
}
