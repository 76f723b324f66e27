package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/catalog"
)

// blockers maps each blocker's reason to the recipients (or "" for the
// campaign) it names.
func blockers(t *testing.T, pv obj) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, b := range pv["blockers"].([]any) {
		m := b.(obj)
		rid, _ := m["recipientId"].(string)
		out[m["reason"].(string)] = append(out[m["reason"].(string)], rid)
		require.NotEmpty(t, m["text"])
		require.NotEmpty(t, m["message"])
	}
	return out
}

// requirements maps each recipient to the kinds of their fulfilment requirements.
func requirements(pv obj) map[string][]string {
	out := map[string][]string{}
	for _, r := range pv["fulfillmentRequirements"].([]any) {
		m := r.(obj)
		out[m["recipientId"].(string)] = append(out[m["recipientId"].(string)], m["kind"].(string))
	}
	return out
}

func TestPreviewPricesAndBlockers(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	ctx := context.Background()

	// A batch of logo tumblers (4200 + 900, prepaid offer 5400) needing artwork.
	b := c.batch("logo-insulated-tumbler", obj{"message": "Cheers, {{firstName}} at {{company}}", "recipients": []obj{
		{"name": "Has Art", "company": "Acme", "assetIds": []string{c.env.ReadyArtwork(t, "artwork")}},
		{"name": "No Art", "company": "Acme"},
		{"name": "No Company"},
		{"name": "Gifted", "company": "Acme", "assetIds": []string{c.env.ReadyArtwork(t, "artwork")}},
	}})
	id := b["id"].(string)
	roster := people(b)
	_, err := c.env.App.Approvals.InsertSend(ctx, c.key, approval.SendParams{CampaignID: id, RecipientID: roster[3]["recipientId"].(string), TotalCents: 5100})
	require.NoError(t, err)

	pv := c.ok(c.key, "preview_campaign", obj{"id": id})
	require.Equal(t, id, pv["campaignId"])
	require.EqualValues(t, 1, pv["policyVersion"])
	require.EqualValues(t, 4, pv["recipientCount"])
	require.EqualValues(t, 1, pv["alreadySent"])
	require.EqualValues(t, 5100, pv["unitCents"])
	require.EqualValues(t, 3*5100, pv["totalCents"])
	require.Equal(t, "usd", pv["currency"])
	require.Equal(t, true, pv["deliveryIncluded"])
	require.Nil(t, pv["unavailableReason"])
	require.Equal(t, "review", pv["nextAction"])
	require.Equal(t, c.env.SiteURL+"/campaigns/"+id+"?review=1", pv["url"])
	offer := pv["prepaidOffer"].(obj)
	require.EqualValues(t, 5400, offer["unitCents"])
	require.EqualValues(t, 3*5400, offer["totalCents"])
	require.Contains(t, offer["shippingStates"], "TX")
	bl := blockers(t, pv)
	require.Equal(t, []string{roster[1]["recipientId"].(string), roster[2]["recipientId"].(string)}, bl["artwork_required"])
	require.Equal(t, []string{roster[2]["recipientId"].(string)}, bl["note_required"], "a placeholder without a value blocks approval")
	require.Len(t, bl, 2)
	// Test mode: recipients confirm their own addresses.
	req := requirements(pv)
	require.Equal(t, []string{"address_confirmation"}, req[roster[0]["recipientId"].(string)])
	require.NotContains(t, req, roster[3]["recipientId"], "people with a gift need nothing more")

	// A logo for everyone clears the artwork blockers; the preview moved nothing.
	c.ok(c.key, "update_campaign", obj{"id": id, "customization": obj{"logoAssetId": c.env.ReadyArtwork(t, "logo")}, "expectedPolicyVersion": 1})
	pv = c.ok(c.key, "preview_campaign", obj{"id": id})
	require.NotContains(t, blockers(t, pv), "artwork_required")
	c.unchanged(id, 2, 4)

	// Playbooks never show a prepaid offer.
	pb := c.playbook("logo-insulated-tumbler", obj{"message": "Hi"})
	pv = c.ok(c.key, "preview_campaign", obj{"id": pb["id"]})
	require.Nil(t, pv["prepaidOffer"])
	require.Empty(t, pv["blockers"], "an empty playbook is ready to be turned on")
	require.EqualValues(t, 0, pv["totalCents"])

	// Delivery not priced yet: excluded, and the preview says so.
	cheese := c.batch("artisan-cheese-board", obj{"message": "Hi", "recipients": []obj{person("1"), person("2")}})
	pv = c.ok(c.key, "preview_campaign", obj{"id": cheese["id"]})
	require.Equal(t, false, pv["deliveryIncluded"])
	require.EqualValues(t, 8900, pv["unitCents"])
	require.EqualValues(t, 17800, pv["totalCents"])
	require.Contains(t, pv["priceNote"], "Delivery is not priced yet")

	c.fails(c.key, "preview_campaign", obj{"id": "cmp_000000000000000000000000"}, core.CodeNotFound, "id")
}

func TestPreviewGiftRequirements(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	type check struct {
		product string
		extra   obj
		people  []obj
		// want maps a blocker reason to the people (by index, -1 the campaign) it names.
		want map[string][]int
		reqs map[int][]string
	}
	for _, tc := range []check{
		{product: "engraved-walnut-desk-organizer", people: []obj{person("1")},
			want: map[string][]int{"personalization_required": {-1}}},
		{product: "engraved-walnut-desk-organizer", extra: obj{"customization": obj{"displayText": "Jane Doe\n2026"}}, people: []obj{person("1")},
			want: map[string][]int{}},
		{product: "illustrated-city-print", people: []obj{person("1"), {"name": "B", "details": obj{"city": "Austin, TX"}}},
			want: map[string][]int{"details_required": {0}}},
		{product: "custom-portrait-illustration", people: []obj{person("1"),
			{"name": "Linked", "photo": obj{"source": "linkedin", "profileUrl": "linkedin.com/in/linked"}},
			{"name": "Uploaded", "photo": obj{"source": "upload", "assetId": c.env.ReadyArtwork(t, "portrait")}}},
			want: map[string][]int{"portrait_required": {0}}, reqs: map[int][]string{1: {"photo_sourcing", "address_confirmation"}, 2: {"address_confirmation"}}},
		{product: "bourbon-tasting-flight", people: []obj{person("1"), {"name": "Adult", "adultRecipientConfirmed": true}},
			want: map[string][]int{"adult_confirmation": {0}}},
		{product: "gourmet-snack-crate", extra: obj{"message": nil}, people: []obj{person("1"), {"name": "Own", "message": "Just for you"}},
			want: map[string][]int{"note_required": {0}}},
		{product: "gourmet-snack-crate", extra: obj{"perPersonCents": 5000}, people: []obj{person("1")},
			want: map[string][]int{"needs_review": {-1}}},
	} {
		extra := obj{"message": "Hello {{firstName}}", "recipients": tc.people}
		for k, v := range tc.extra {
			extra[k] = v
		}
		b := c.batch(tc.product, extra)
		roster := people(b)
		pv := c.ok(c.key, "preview_campaign", obj{"id": b["id"]})
		got := blockers(t, pv)
		want := map[string][]string{}
		for reason, who := range tc.want {
			for _, i := range who {
				rid := ""
				if i >= 0 {
					rid = roster[i]["recipientId"].(string)
				}
				want[reason] = append(want[reason], rid)
			}
		}
		require.Equal(t, want, got, "%s", tc.product)
		for i, kinds := range tc.reqs {
			require.Equal(t, kinds, requirements(pv)[roster[i]["recipientId"].(string)], "%s person %d", tc.product, i)
		}
	}
}

func TestPreviewLiveMode(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	live := c.key
	live.Mode = core.ModeLive
	known := obj{"name": "Known", "addressMode": "known", "address": "1 Main St", "city": "Austin", "state": "TX", "zip": "78701"}

	// Without a prepaid offer live gifts need sender-supplied addresses.
	b := c.batch("gourmet-snack-crate", obj{"message": "Hi", "recipients": []obj{person("1"), known}})
	roster := people(b)
	pv := c.ok(live, "preview_campaign", obj{"id": b["id"]})
	require.Equal(t, "provide_sender_address", pv["nextAction"])
	require.Equal(t, c.env.SiteURL+"/campaigns/"+b["id"].(string), pv["url"])
	require.Equal(t, []string{roster[0]["recipientId"].(string)}, blockers(t, pv)["address_required"])
	require.Equal(t, []string{"sender_address_required"}, requirements(pv)[roster[0]["recipientId"].(string)])
	require.NotContains(t, requirements(pv), roster[1]["recipientId"])

	// A prepaid offer lets live recipients confirm their own address.
	prepaid := c.batch("engraved-maple-cutting-board", obj{"message": "Hi", "customization": obj{"displayText": "Thanks"}, "recipients": []obj{person("1")}})
	pv = c.ok(live, "preview_campaign", obj{"id": prepaid["id"]})
	require.Equal(t, "review", pv["nextAction"])
	require.Empty(t, pv["blockers"])
	require.Equal(t, []string{"address_confirmation"}, requirements(pv)[people(prepaid)[0]["recipientId"].(string)])

	// A playbook never has the offer, so live playbooks need addresses.
	pb := c.playbook("engraved-maple-cutting-board", obj{"message": "Hi", "customization": obj{"displayText": "Thanks"}, "recipients": []obj{person("1")}})
	pv = c.ok(live, "preview_campaign", obj{"id": pb["id"]})
	require.Equal(t, "provide_sender_address", pv["nextAction"])

	// An unverified gift cannot be ordered live.
	unverified := c.batch("engraved-power-bank", obj{"message": "Hi", "recipients": []obj{known}})
	pv = c.ok(live, "preview_campaign", obj{"id": unverified["id"]})
	require.Contains(t, pv["unavailableReason"], "not verified")
	pv = c.ok(c.key, "preview_campaign", obj{"id": unverified["id"]})
	require.Nil(t, pv["unavailableReason"], "test mode orders unverified gifts")
}

func TestPreviewGiftRetiredAfterCreation(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	ctx := context.Background()
	b := c.batch("gourmet-snack-crate", obj{"message": "Hi", "recipients": []obj{person("1")}})

	products, err := catalog.EmbeddedCatalog()
	require.NoError(t, err)
	changed := make([]catalog.Product, len(products))
	copy(changed, products)
	for i := range changed {
		if changed[i].ID == "gourmet-snack-crate" {
			changed[i].Retired = true
		}
	}
	raw, err := json.Marshal(changed)
	require.NoError(t, err)
	_, err = catalog.ImportCatalog(ctx, c.env.App.DB, bytes.NewReader(raw))
	require.NoError(t, err)
	require.NoError(t, c.env.App.Catalog.Refresh(ctx))

	pv := c.ok(c.key, "preview_campaign", obj{"id": b["id"]})
	require.Contains(t, pv["unavailableReason"], "retired")
	require.Equal(t, []string{""}, blockers(t, pv)["gift_unavailable"])
	// It cannot be turned on with a retired gift.
	c.ok(c.key, "update_campaign", obj{"id": b["id"], "status": "paused", "expectedPolicyVersion": 1})
	c.fails(c.session, "update_campaign", obj{"id": b["id"], "status": "active"}, core.CodeGiftRetired, "productId")
	c.unchanged(b["id"].(string), 2, 1)
	// Keeping the stored gift is not choosing it again: other edits still work.
	got := c.ok(c.key, "update_campaign", obj{"id": b["id"], "name": "Still editable", "productId": "gourmet-snack-crate", "expectedPolicyVersion": 2})
	require.Equal(t, "Still editable", got["name"])
}
