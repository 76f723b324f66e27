package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// requirePicture checks that the page's picture matched by sel has loaded
// (a natural width), says what it shows and fits the box it sits in.
func requirePicture(t *testing.T, b *browser, sel, alt string) {
	t.Helper()
	q := `document.querySelector(` + jsString(sel) + `)`
	b.poll(q + ` && ` + q + `.complete && ` + q + `.naturalWidth > 0 && String(` + q + `.naturalWidth)`)
	require.Equal(t, alt, b.poll(q+`.alt`))
	require.Equal(t, "lazy", b.poll(q+`.getAttribute("loading")`))
	require.Equal(t, "true", b.poll(`String(`+q+`.getBoundingClientRect().width <= `+q+`.parentElement.clientWidth + 1)`), "the picture fits its box")
}

// The gift's picture shows, loaded and described, on the recipient's gift
// link page, the gift's page, the campaign's page and in the approval queue.
func TestBrowserGiftPictures(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	product, err := h.env.App.Catalog.Get(t.Context(), "gourmet-snack-crate")
	require.NoError(t, err)
	w := h.giftWorld()
	_, path := h.linkGift("Ada Lovelace")

	recipient := newBrowser(t)
	recipient.do(chromedp.EmulateViewport(390, 844))
	recipient.open(h.site + path)
	requirePicture(t, recipient, "#gift img.product-picture", product.ImageLabel)
	require.NotContains(t, recipient.text("main"), "Pictured:")
	require.Equal(t, "true", recipient.poll(`String(document.documentElement.scrollWidth <= window.innerWidth)`), "no sideways scrolling on a phone")
	require.Equal(t, product.Image, recipient.poll(`document.querySelector("#gift img").getAttribute("src")`))
	recipient.saveScreenshot("gift-link-picture")

	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)
	b.open(h.site + "/gifts/" + w.Ada)
	requirePicture(t, b, "#gift-facts img.product-picture", product.ImageLabel)
	b.saveScreenshot("gift-picture")

	b.open(h.site + "/campaigns/" + w.CampaignID + "?review=1")
	requirePicture(t, b, "main img.product-picture", product.ImageLabel)

	b.open(h.site + "/?queue=" + w.CampaignID)
	requirePicture(t, b, "#queue img.product-thumb", product.ImageLabel)
	b.saveScreenshot("queue-picture")

	b.do(chromedp.EmulateViewport(390, 844))
	b.open(h.site + "/gifts/" + w.Ada)
	requirePicture(t, b, "#gift-facts img.product-picture", product.ImageLabel)
	b.saveScreenshot("gift-picture-phone")
}
