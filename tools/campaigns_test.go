package tools_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestCreateCampaignDefaults(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)

	// engraved-walnut-desk-organizer costs 6800 + 1200 shipping.
	pb := c.playbook("engraved-walnut-desk-organizer", obj{"message": "Thanks {{firstName}}!"})
	require.Regexp(t, `^cmp_[0-9a-f]{24}$`, pb["id"])
	require.Equal(t, "always_on", pb["mode"])
	require.Equal(t, "draft", pb["status"])
	require.EqualValues(t, 100_000_000, pb["budgetCents"])
	require.EqualValues(t, 8000, pb["perPersonCents"])
	require.EqualValues(t, 2000, pb["maxSends"])
	require.EqualValues(t, 1, pb["policyVersion"])
	require.EqualValues(t, 0, pb["spentCents"])
	require.EqualValues(t, 0, pb["sentCount"])
	require.Nil(t, pb["monthlyBudgetCents"])
	require.Equal(t, "workflow", pb["recipientSource"])
	require.Equal(t, false, pb["requiresPayment"])
	require.Equal(t, c.env.SiteURL+"/campaigns/"+pb["id"].(string)+"?review=1", pb["reviewUrl"])
	require.Empty(t, pb["recipients"])
	require.Equal(t, obj{}, pb["customization"])

	// mode defaults to batch, which needs its limits.
	e := c.fails(c.key, "create_campaign", obj{"name": "B", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A"}, core.CodeValidation, "budgetCents")
	require.Contains(t, e.Fields, "perPersonCents")
	require.Contains(t, e.Fields, "maxSends")
	b := c.batch("gourmet-snack-crate", obj{"mode": nil})
	require.Equal(t, "batch", b["mode"])
	require.Equal(t, "manual", b["recipientSource"])
	require.Equal(t, true, b["requiresPayment"])
}

func TestCreateCampaignRefusesBadValues(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	base := func(extra obj) obj {
		args := obj{"name": "N", "mode": "batch", "productId": "engraved-walnut-desk-organizer", "senderName": "S", "senderCompany": "A",
			"budgetCents": 100000, "perPersonCents": 10000, "maxSends": 10}
		for k, v := range extra {
			if v == nil {
				delete(args, k)
			} else {
				args[k] = v
			}
		}
		return args
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, tc := range []struct {
		extra obj
		code  core.Code
		field string
	}{
		{obj{"name": nil}, core.CodeValidation, "name"},
		{obj{"name": ""}, core.CodeValidation, "name"},
		{obj{"name": "   "}, core.CodeValidation, "name"},
		{obj{"name": long(201)}, core.CodeValidation, "name"},
		{obj{"senderName": nil}, core.CodeValidation, "senderName"},
		{obj{"senderCompany": long(201)}, core.CodeValidation, "senderCompany"},
		{obj{"description": long(2001)}, core.CodeValidation, "description"},
		{obj{"productId": nil}, core.CodeValidation, "productId"},
		{obj{"productId": "made-up-gift"}, core.CodeValidation, "productId"},
		{obj{"productId": "engraved-rollerball-pen"}, core.CodeGiftRetired, "productId"},
		{obj{"productId": "moss-terrarium"}, core.CodeGiftRetired, "productId"},
		{obj{"productId": "brut-champagne-celebration"}, core.CodeGiftUnavailable, "productId"},
		{obj{"productId": "custom-knit-socks"}, core.CodePriceQuoteRequired, "productId"},
		{obj{"productId": "custom-sneakers"}, core.CodePriceQuoteRequired, "productId"},
		{obj{"mode": "weekly"}, core.CodeValidation, "mode"},
		{obj{"budgetCents": 0}, core.CodeValidation, "budgetCents"},
		{obj{"budgetCents": 100_000_001}, core.CodeValidation, "budgetCents"},
		{obj{"perPersonCents": 10_000_001}, core.CodeValidation, "perPersonCents"},
		{obj{"perPersonCents": 200000}, core.CodeValidation, "perPersonCents"},
		{obj{"maxSends": 501}, core.CodeValidation, "maxSends"},
		{obj{"maxSends": 2001}, core.CodeValidation, "maxSends"},
		{obj{"mode": "single", "maxSends": 600}, core.CodeValidation, "maxSends"},
		{obj{"maxSends": nil}, core.CodeValidation, "maxSends"},
		{obj{"monthlyBudgetCents": 99}, core.CodeValidation, "monthlyBudgetCents"},
		{obj{"message": long(1001)}, core.CodeValidation, "message"},
		{obj{"message": long(501)}, core.CodeValidation, "message"},
		{obj{"message": "Hi {{lastName}}"}, core.CodeValidation, "message"},
		{obj{"meetingUrl": "ftp://cal.example/x"}, core.CodeValidation, "meetingUrl"},
		{obj{"meetingUrl": "not a url"}, core.CodeValidation, "meetingUrl"},
		{obj{"recipientSource": "csv"}, core.CodeValidation, "recipientSource"},
		{obj{"customization": obj{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6", "g": "7", "h": "8", "i": "9"}}, core.CodeValidation, "customization"},
		{obj{"customization": obj{"note": long(401)}}, core.CodeValidation, "customization.note"},
		{obj{"customization": obj{"displayText": "Way too long a first line for this"}}, core.CodeValidation, "customization.displayText"},
		{obj{"customization": obj{"displayText": "Jane\nDoe\nThird"}}, core.CodeValidation, "customization.displayText"},
		{obj{"customization": obj{"displayText": "Jane #1"}}, core.CodeValidation, "customization.displayText"},
		{obj{"productId": "gourmet-snack-crate", "customization": obj{"displayText": "Jane"}}, core.CodeValidation, "customization.displayText"},
		{obj{"customization": obj{"logoAssetId": "logo.png"}}, core.CodeValidation, "customization.logoAssetId"},
		{obj{"customization": obj{"giftLinkWelcome": "Hi {{name}}"}}, core.CodeValidation, "customization.giftLinkWelcome"},
		{obj{"customization": obj{"giftLinkContactEmail": "sam at acme"}}, core.CodeValidation, "customization.giftLinkContactEmail"},
		{obj{"customization": obj{"n": 3}}, core.CodeValidation, "customization.n"},
		{obj{"attribution": obj{"source": long(201)}}, core.CodeValidation, "attribution.source"},
		{obj{"attribution": obj{"opportunityId": long(201)}}, core.CodeValidation, "attribution.opportunityId"},
		{obj{"attribution": obj{"metadata": obj{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6", "g": "7", "h": "8", "i": "9", "j": "10", "k": "11"}}}, core.CodeValidation, "attribution.metadata"},
		{obj{"attribution": obj{"ssn": "no"}}, core.CodeValidation, "attribution.ssn"},
		{obj{"idempotencyKey": "short"}, core.CodeValidation, "idempotencyKey"},
		{obj{"idempotencyKey": long(151)}, core.CodeValidation, "idempotencyKey"},
		{obj{"policyVersion": 3}, core.CodeValidation, "policyVersion"},
		{obj{"status": "paused"}, core.CodeValidation, "status"},
		{obj{"status": "active"}, core.CodeHumanApprovalRequired, "status"},
		{obj{"recipients": []obj{{"name": "A", "recipientId": "recipient_0123"}}}, core.CodeValidation, "recipients[0].recipientId"},
		{obj{"recipients": []obj{{"name": "A"}, {"email": "x@example.com"}}}, core.CodeValidation, "recipients[1]"},
		{obj{"recipients": []obj{{"name": "A", "email": "a@example.com"}, {"name": "B", "email": "A@Example.com"}}}, core.CodeDuplicateRecipient, "recipients[1]"},
		{obj{"recipients": []obj{{"name": "A", "assetIds": []string{"asset_1", "asset_2", "asset_3", "asset_4", "asset_5", "asset_6"}}}}, core.CodeTooManyArtworkFiles, "recipients[0].assetIds"},
		{obj{"recipients": []obj{{"name": "A", "zip": "7870"}}}, core.CodeValidation, "recipients[0].addressMode"},
		{obj{"maxSends": 1, "recipients": []obj{{"name": "A"}, {"name": "B"}}}, core.CodeValidation, "maxSends"},
		{obj{"budgetCents": 15000, "recipients": []obj{{"name": "A"}, {"name": "B"}}}, core.CodeValidation, "budgetCents"},
		{obj{"message": "Hi {{company}}, " + long(480), "recipients": []obj{{"name": "A", "company": long(30)}}}, core.CodeValidation, "message"},
		{obj{"recipients": []obj{{"name": "A", "company": "C", "message": "Hi {{company}} " + long(497)}}}, core.CodeValidation, "recipients[0].message"},
	} {
		e := c.fails(c.key, "create_campaign", base(tc.extra), tc.code, tc.field)
		if tc.code == core.CodeHumanApprovalRequired {
			require.Equal(t, c.env.SiteURL+"/campaigns", e.URL)
		}
	}
	// No refusal created anything.
	list, err := c.call(c.key, "list_campaigns", obj{})
	require.NoError(t, err)
	require.Empty(t, list)

	// Exactly 500 characters after personalization is fine.
	ok := c.ok(c.key, "create_campaign", base(obj{"message": "{{company}}" + long(497), "recipients": []obj{{"name": "A", "company": "abc"}}}))
	require.Len(t, people(ok)[0]["resolvedMessage"], 500)
	// A draft may stay incomplete: a placeholder without a value.
	ok = c.ok(c.key, "create_campaign", base(obj{"message": "Hi {{custom}}", "recipients": []obj{{"name": "A"}}}))
	require.Empty(t, people(ok)[0]["resolvedMessage"])
	require.Contains(t, people(ok)[0]["noteProblem"], "{{custom}}")
}

func TestCreateCampaignIsIdempotent(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	body := obj{"name": "Renewals", "mode": "batch", "productId": "gourmet-snack-crate", "senderName": "Sam", "senderCompany": "Acme",
		"budgetCents": 90000, "perPersonCents": 9000, "maxSends": 10, "idempotencyKey": "renewals-2026-q3",
		"recipients": []obj{person("1"), person("2")}}
	first := c.ok(c.key, "create_campaign", body)
	again := c.ok(c.key, "create_campaign", body)
	require.Equal(t, first["id"], again["id"])
	require.Equal(t, people(first)[0]["recipientId"], people(again)[0]["recipientId"])

	// The same body in another key order is the same body.
	reordered := `{"idempotencyKey":"renewals-2026-q3","maxSends":10,"perPersonCents":9000,"budgetCents":90000,"senderCompany":"Acme","senderName":"Sam",` +
		`"productId":"gourmet-snack-crate","mode":"batch","name":"Renewals","recipients":[` +
		`{"email":"p1@example.com","externalId":"ext-1","sourceSystem":"crm","company":"Co 1","name":"Person 1"},` +
		`{"email":"p2@example.com","externalId":"ext-2","sourceSystem":"crm","company":"Co 2","name":"Person 2"}]}`
	require.Equal(t, first["id"], c.ok(c.key, "create_campaign", reordered)["id"])

	changed := obj{}
	for k, v := range body {
		changed[k] = v
	}
	changed["name"] = "Renewals (edited)"
	c.fails(c.key, "create_campaign", changed, core.CodeIdempotencyConflict, "idempotencyKey")

	// A member of the same workspace resending the same body gets the same campaign.
	member, _ := c.member()
	require.Equal(t, first["id"], c.ok(member, "create_campaign", body)["id"])

	// Concurrent duplicates create exactly one campaign.
	body["idempotencyKey"] = "concurrent-key-1"
	var wg sync.WaitGroup
	ids := make([]string, 8)
	errs := make([]error, 8)
	for i := range ids {
		wg.Go(func() {
			out, err := c.call(c.key, "create_campaign", body)
			errs[i] = err
			if err == nil {
				ids[i] = out.(obj)["id"].(string)
			}
		})
	}
	wg.Wait()
	for i := range ids {
		require.NoError(t, errs[i])
		require.Equal(t, ids[0], ids[i])
	}
	list, err := c.call(c.key, "list_campaigns", obj{})
	require.NoError(t, err)
	require.Len(t, list, 2)
}

func TestListAndGetCampaigns(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	pb := c.playbook("engraved-walnut-desk-organizer", nil)
	b := c.batch("gourmet-snack-crate", obj{"recipients": []obj{person("1"), person("2")}})
	single := c.batch("gourmet-snack-crate", obj{"mode": "single", "maxSends": 1, "recipients": []obj{person("3")}})

	all, err := c.call(c.key, "list_campaigns", obj{})
	require.NoError(t, err)
	var ids []any
	for _, x := range all.([]any) {
		item := x.(obj)
		ids = append(ids, item["id"])
		require.NotContains(t, item, "recipients", "lists leave rosters out")
	}
	require.Equal(t, []any{single["id"], b["id"], pb["id"]}, ids, "newest first")
	require.EqualValues(t, 2, all.([]any)[1].(obj)["recipientCount"])

	only, err := c.call(c.key, "list_campaigns", obj{"mode": "always_on"})
	require.NoError(t, err)
	require.Len(t, only, 1)
	require.Equal(t, pb["id"], only.([]any)[0].(obj)["id"])
	c.fails(c.key, "list_campaigns", obj{"mode": "weekly"}, core.CodeValidation, "mode")

	got := c.get(b["id"].(string))
	require.Len(t, people(got), 2)
	require.Regexp(t, `^recipient_[0-9a-f]{24}$`, people(got)[0]["recipientId"])
	require.Equal(t, "p1@example.com", people(got)[0]["email"])
	c.fails(c.key, "get_campaign", obj{"id": "cmp_000000000000000000000000"}, core.CodeNotFound, "id")
	c.fails(c.key, "get_campaign", obj{}, core.CodeValidation, "id")

	// Another workspace's campaign is not found.
	other := newCampaigns(t)
	other.fails(other.key, "get_campaign", obj{"id": b["id"]}, core.CodeNotFound, "id")
	list, err := other.call(other.key, "list_campaigns", obj{})
	require.NoError(t, err)
	require.Empty(t, list)
}
