package web_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/tools"
)

// developerWords are what a page for people must not show: a tool's name,
// an HTTP verb before a path, a raw ID, a snake_case word. Developer pages
// (keys, webhooks) may, and so may a folded <details> (the support details).
var developerWords = func() []*regexp.Regexp {
	var names []string
	for _, tl := range tools.All(nil) {
		names = append(names, regexp.QuoteMeta(tl.Name))
	}
	prefixes := []string{core.PrefixWorkspace, core.PrefixUser, core.PrefixCampaign, core.PrefixRecipient, core.PrefixSend,
		core.PrefixAsset, core.PrefixCheckout, core.PrefixLedger, core.PrefixEvent, core.PrefixWebhook, core.PrefixDelivery,
		core.PrefixImport, core.PrefixExport, core.PrefixInvite, core.PrefixKey, core.PrefixRefund, core.PrefixQuote, core.PrefixActivity, "top_", "sbx_", "ogr_"}
	return []*regexp.Regexp{
		regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`),
		regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE) /`),
		regexp.MustCompile(`\b(` + strings.Join(prefixes, "|") + `)[0-9a-z]{6,}`),
		regexp.MustCompile(`\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b`),
	}
}()

// stateWords are the state enums a person must not read as a value on
// its own (a table cell, a fact, a line): the spec's words for a program.
var stateWords = map[string]bool{
	string(gift.SendAwaitingAddress): true, string(gift.SendInProduction): true,
	string(billing.CheckoutConsumed): true, string(billing.CheckoutCreating): true,
	string(gift.OrderNone): true, string(gift.OrderPlaced): true,
	"paid": true, "open": true, "shipped": true, "delivered": true, "ready": true,
}

// visibleTextScript is the page's text as a person sees it, without the
// content of folded <details>.
const visibleTextScript = `(() => {
  for (const d of document.querySelectorAll("details:not([open])")) {
    for (const c of d.children) if (c.tagName !== "SUMMARY") c.style.display = "none";
  }
  return document.body.innerText;
})()`

// Every page for people speaks in plain words: no tool names, HTTP verbs,
// raw IDs, snake_case or state enums in its visible text.
func TestBrowserEveryPageSpeaksPlainWords(t *testing.T) {
	t.Parallel()
	h := newHooks(t)
	w := h.pagesWorld()
	var b *browser
	var problems []string
	for i, p := range peoplePages {
		b = w.browserFor(b, i, 1280, 800)
		if p.Developer {
			continue
		}
		b.reach(p, w)
		text, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](visibleTextScript))
		require.NoError(t, err)
		for _, re := range developerWords {
			for _, m := range re.FindAllString(text, -1) {
				problems = append(problems, p.Name+": "+m)
			}
		}
		for _, seg := range regexp.MustCompile(`[\t\n]+`).Split(text, -1) {
			if stateWords[strings.TrimSpace(seg)] {
				problems = append(problems, p.Name+": the state "+strings.TrimSpace(seg))
			}
		}
	}
	require.Empty(t, problems, "pages for people show words for developers")
}
