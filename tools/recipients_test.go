package tools_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

func TestAddRecipientsIdentityFormsAndNormalisation(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	// illustrated-city-print asks for details.city (required) and details.companyWebsite (a url).
	b := c.batch("illustrated-city-print", obj{"maxSends": 10})
	id := b["id"].(string)

	got := c.ok(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 1, "recipients": []obj{
		{"name": "Name Only"},
		{"profileUrl": "uk.linkedin.com/in/Profile-Only/?trk=x"},
		{"sourceSystem": "hubspot", "externalId": "42"},
		{"name": "Known Address", "email": "  Known@Example.COM ", "addressMode": "known", "address": "1 Congress Ave", "city": "Austin",
			"state": "texas", "zip": "787011234", "details": obj{"city": "Austin, TX", "companyWebsite": "https://example.com"},
			"photo": obj{"source": "linkedin", "profileUrl": "https://www.linkedin.com/in/known/"}, "assetIds": []string{c.env.ReadyArtwork(t, "artwork")},
			"importId": "imp_1", "importRowId": "3", "customTag": "tea", "context": "met at SaaStr", "title": "VP Sales"},
	}})
	require.EqualValues(t, 2, got["policyVersion"])
	require.Len(t, got["added"], 4)
	require.Empty(t, got["skipped"])
	roster := people(got)
	require.Equal(t, "https://www.linkedin.com/in/profile-only", roster[1]["profileUrl"])
	require.Equal(t, "known@example.com", roster[3]["email"])
	require.Equal(t, "TX", roster[3]["state"])
	require.Equal(t, "78701-1234", roster[3]["zip"])
	require.Equal(t, "US", roster[3]["country"])
	require.Equal(t, "known", roster[3]["addressMode"])
	require.Equal(t, "confirm", roster[0]["addressMode"])
	require.Equal(t, obj{"source": "linkedin", "profileUrl": "https://www.linkedin.com/in/known"}, roster[3]["photo"])

	// Every rule refuses its bad value by path, and a refusal changes nothing.
	long := strings.Repeat("x", 201)
	for _, tc := range []struct {
		person obj
		code   core.Code
		field  string
	}{
		{obj{"email": "only@example.com"}, core.CodeValidation, "recipients[0]"},
		{obj{"company": "Acme", "title": "CEO"}, core.CodeValidation, "recipients[0]"},
		{obj{"sourceSystem": "hubspot"}, core.CodeValidation, "recipients[0].externalId"},
		{obj{"name": "A", "profileUrl": "https://www.linkedin.com/sales/lead/ACwAAA"}, core.CodeValidation, "recipients[0].profileUrl"},
		{obj{"name": "A", "profileUrl": "https://www.linkedin.com/company/acme/"}, core.CodeValidation, "recipients[0].profileUrl"},
		{obj{"name": "A", "profileUrl": "https://www.linkedin.com/pub/jane-doe/1/23/456"}, core.CodeValidation, "recipients[0].profileUrl"},
		{obj{"name": "A", "profileUrl": "https://example.com/in/jane"}, core.CodeValidation, "recipients[0].profileUrl"},
		{obj{"name": "A", "email": "nope"}, core.CodeValidation, "recipients[0].email"},
		{obj{"name": "A", "addressMode": "known", "address": "1 Main", "city": "Austin", "state": "Ontario", "zip": "78701"}, core.CodeValidation, "recipients[0].state"},
		{obj{"name": "A", "addressMode": "known", "address": "1 Main", "city": "Austin", "state": "TX", "zip": "787"}, core.CodeValidation, "recipients[0].zip"},
		{obj{"name": "A", "addressMode": "known", "address": "1 Main", "city": "Austin", "state": "TX", "zip": "78701", "country": "MX"}, core.CodeValidation, "recipients[0].country"},
		{obj{"name": "A", "addressMode": "known", "address": "1 Main", "state": "TX", "zip": "78701"}, core.CodeValidation, "recipients[0].city"},
		{obj{"name": "A", "addressMode": "mailbox"}, core.CodeValidation, "recipients[0].addressMode"},
		{obj{"name": "A", "city": "Austin"}, core.CodeValidation, "recipients[0].addressMode"},
		{obj{"name": "A", "details": obj{"favouriteColour": "blue"}}, core.CodeValidation, "recipients[0].details.favouriteColour"},
		{obj{"name": "A", "details": obj{"companyWebsite": "not a url"}}, core.CodeValidation, "recipients[0].details.companyWebsite"},
		{obj{"name": "A", "details": obj{"city": strings.Repeat("c", 81)}}, core.CodeValidation, "recipients[0].details.city"},
		{obj{"name": "A", "importId": "imp_1"}, core.CodeValidation, "recipients[0].importRowId"},
		{obj{"name": "A", "assetIds": []string{"asset_1", "asset_2", "asset_3", "asset_4", "asset_5", "asset_6"}}, core.CodeTooManyArtworkFiles, "recipients[0].assetIds"},
		{obj{"name": "A", "assetIds": []string{"logo.png"}}, core.CodeValidation, "recipients[0].assetIds[0]"},
		{obj{"name": "A", "photo": obj{"source": "upload"}}, core.CodeValidation, "recipients[0].photo.assetId"},
		{obj{"name": "A", "photo": obj{"source": "linkedin", "profileUrl": "https://www.linkedin.com/company/x"}}, core.CodeValidation, "recipients[0].photo.profileUrl"},
		{obj{"name": "A", "photo": obj{"source": "camera"}}, core.CodeValidation, "recipients[0].photo.source"},
		{obj{"name": "A", "photo": obj{"source": "upload", "assetId": "asset_1", "url": "x"}}, core.CodeValidation, "recipients[0].photo.url"},
		{obj{"name": "A", "customTag": long}, core.CodeValidation, "recipients[0].customTag"},
		{obj{"name": "A", "message": "Hi {{nickname}}"}, core.CodeRecipientMessageRequired, "recipients[0].message"},
		{obj{"name": "A", "adultRecipientConfirmed": "yes"}, core.CodeValidation, "recipients[0].adultRecipientConfirmed"},
		{obj{"name": "A", "favouriteColour": "blue"}, core.CodeValidation, "recipients[0].favouriteColour"},
		{obj{"name": long}, core.CodeValidation, "recipients[0].name"},
	} {
		c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{tc.person}}, tc.code, tc.field)
	}
	// The path follows the person's position in the request.
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{{"name": "fine"}, {"name": "B", "zip": "1"}}}, core.CodeValidation, "recipients[1].addressMode")
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{}}, core.CodeValidation, "recipients")
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2}, core.CodeValidation, "recipients")
	c.unchanged(id, 2, 4)
}

func TestAddRecipientsMatching(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	b := c.batch("gourmet-snack-crate", obj{"maxSends": 10, "recipients": []obj{person("1"), person("2")}})
	id := b["id"].(string)
	roster := people(b)

	got := c.ok(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 1, "recipients": []obj{
		{"recipientId": roster[0]["recipientId"]},
		{"name": "Other name", "sourceSystem": "crm", "externalId": "ext-2"},
		{"name": "Email twin", "email": "P1@EXAMPLE.com"},
		person("3"),
	}})
	require.Len(t, got["added"], 1)
	skipped := got["skipped"].([]any)
	require.Len(t, skipped, 3)
	require.Equal(t, obj{"index": 0.0, "recipientId": roster[0]["recipientId"], "reason": "already on the roster (same recipientId)"}, skipped[0])
	require.Equal(t, roster[1]["recipientId"], skipped[1].(obj)["recipientId"])
	require.Contains(t, skipped[1].(obj)["reason"], "sourceSystem+externalId")
	require.Contains(t, skipped[2].(obj)["reason"], "email")
	require.Len(t, people(got), 3)
	require.Equal(t, "Person 1", people(got)[0]["name"], "a skipped person is left as they are")
	require.EqualValues(t, 2, got["policyVersion"])

	// Adding only people already there changes nothing, not even the version.
	same := c.ok(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{person("1")}})
	require.EqualValues(t, 2, same["policyVersion"])
	require.Empty(t, same["added"])

	// Identifiers of different people conflict; the same person twice is a duplicate.
	e := c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		{"name": "Mixed", "sourceSystem": "crm", "externalId": "ext-1", "email": "p2@example.com"},
	}}, core.CodeRecipientIdentityConflict, "recipients[0]")
	require.Contains(t, e.Message, roster[0]["recipientId"])
	require.Contains(t, e.Message, roster[1]["recipientId"])
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		{"name": "Mixed", "recipientId": roster[0]["recipientId"], "email": "p2@example.com"},
	}}, core.CodeRecipientIdentityConflict, "recipients[0]")
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		person("9"), {"name": "Again", "email": "P9@example.com"},
	}}, core.CodeDuplicateRecipient, "recipients[1]")
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		{"name": "A", "sourceSystem": "crm", "externalId": "new"}, {"name": "B", "sourceSystem": "crm", "externalId": "new"},
	}}, core.CodeDuplicateRecipient, "recipients[1]")
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		{"recipientId": "recipient_000000000000000000000000"},
	}}, core.CodeNotFound, "recipients[0].recipientId")
	// Versions: missing and stale.
	c.fails(c.key, "add_recipients", obj{"id": id, "recipients": []obj{person("8")}}, core.CodeValidation, "expectedPolicyVersion")
	c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 1, "recipients": []obj{person("8")}}, core.CodePolicyChanged, "expectedPolicyVersion")
	c.fails(c.key, "add_recipients", obj{"id": "cmp_000000000000000000000000", "expectedPolicyVersion": 1, "recipients": []obj{person("8")}}, core.CodeNotFound, "id")
	c.unchanged(id, 2, 3)

	// PATCH matching: the same rules, with merges; an item naming a person twice is a duplicate.
	c.fails(c.key, "update_campaign", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		{"recipientId": roster[0]["recipientId"]}, {"email": "p1@example.com"},
	}}, core.CodeDuplicateRecipient, "recipients[1]")
	merged := c.ok(c.key, "update_campaign", obj{"id": id, "expectedPolicyVersion": 2, "recipients": []obj{
		{"recipientId": roster[0]["recipientId"], "title": "CFO"}, {"email": "p2@example.com"}, {"sourceSystem": "crm", "externalId": "ext-3"},
	}})
	require.Equal(t, "CFO", people(merged)[0]["title"])
	require.Equal(t, "Person 1", people(merged)[0]["name"], "fields not sent are kept")
	require.EqualValues(t, 3, merged["policyVersion"])
}

func TestAddRecipientsBatchLimitsAndStatus(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	// gourmet-snack-crate costs 9000; perPersonCents 9000, one send.
	b := c.batch("gourmet-snack-crate", obj{"budgetCents": 9000, "perPersonCents": 9000, "maxSends": 1, "recipients": []obj{person("1")}})
	id := b["id"].(string)
	got := c.ok(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 1, "recipients": []obj{person("2"), person("3")}})
	require.EqualValues(t, 3, got["maxSends"], "limits expand to fit")
	require.EqualValues(t, 27000, got["budgetCents"])
	require.EqualValues(t, 2, got["policyVersion"])
	require.Equal(t, "draft", got["status"])

	// An active batch returns to draft when people are added.
	c.ok(c.key, "update_campaign", obj{"id": id, "status": "paused", "expectedPolicyVersion": 2})
	on := c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	require.Equal(t, "active", on["status"])
	got = c.ok(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": version(on), "recipients": []obj{person("4")}})
	require.Equal(t, "draft", got["status"])
	require.EqualValues(t, version(on)+1, version(got))

	// A paused batch stays paused.
	paused := c.ok(c.key, "update_campaign", obj{"id": id, "status": "paused", "expectedPolicyVersion": version(got)})
	got = c.ok(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": version(paused), "recipients": []obj{person("5")}})
	require.Equal(t, "paused", got["status"])

	// An explicit maxSends below the roster is refused on PATCH; one that fits is kept.
	c.fails(c.key, "update_campaign", obj{"id": id, "maxSends": 4, "expectedPolicyVersion": version(got)}, core.CodeValidation, "maxSends")
	c.unchanged(id, version(got), 5)
}

func TestRosterSizeLimits(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	batch := func(from, n int) []obj {
		out := make([]obj, n)
		for i := range out {
			out[i] = obj{"name": fmt.Sprintf("P%d", from+i), "email": fmt.Sprintf("p%d@example.com", from+i)}
		}
		return out
	}
	b := c.batch("gourmet-snack-crate", obj{"budgetCents": 100_000_000, "perPersonCents": 9000, "maxSends": 500, "recipients": batch(0, 500)})
	id := b["id"].(string)
	require.Len(t, people(b), campaign.DefaultRosterLimit)
	require.EqualValues(t, 500, b["rosterCounts"].(obj)["total"])
	e := c.fails(c.key, "add_recipients", obj{"id": id, "expectedPolicyVersion": 1, "recipients": batch(500, 1)}, core.CodeValidation, "recipients")
	require.Contains(t, e.Message, "at most 500")
	c.unchanged(id, 1, 500)

	// One call adds at most 500 people.
	pb := c.playbook("gourmet-snack-crate", obj{"message": "Hi"})
	pid := pb["id"].(string)
	c.fails(c.key, "add_recipients", obj{"id": pid, "expectedPolicyVersion": 1, "recipients": batch(0, 501)}, core.CodeValidation, "recipients")
	// A playbook holds 2000.
	v := 1.0
	for i := range 4 {
		got := c.ok(c.key, "add_recipients", obj{"id": pid, "expectedPolicyVersion": v, "recipients": batch(i*500, 500)})
		v = version(got)
	}
	c.fails(c.key, "add_recipients", obj{"id": pid, "expectedPolicyVersion": v, "recipients": batch(2000, 1)}, core.CodeValidation, "recipients")
	require.EqualValues(t, 2000, c.get(pid)["recipientCount"])
	// A playbook of 2000 people cannot become a batch.
	c.fails(c.key, "update_campaign", obj{"id": pid, "mode": "batch", "maxSends": 500, "expectedPolicyVersion": v}, core.CodeValidation, "recipients")
}

func TestManageRecipients(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	b := c.batch("gourmet-snack-crate", obj{"message": "Hello {{firstName}}", "recipients": []obj{person("1"), person("2"), person("3")}})
	id := b["id"].(string)
	roster := people(b)
	require.Equal(t, "Hello Person", roster[0]["resolvedMessage"])

	got := c.ok(c.key, "manage_recipients", obj{"id": id, "action": "message", "recipientIds": []any{roster[0]["recipientId"]}, "emails": []string{"P2@example.com"},
		"message": "Dear {{name}} of {{company}}", "expectedPolicyVersion": 1})
	require.Equal(t, "message", got["action"])
	require.Equal(t, []any{roster[0]["recipientId"], roster[1]["recipientId"]}, got["recipientIds"])
	require.EqualValues(t, 2, got["policyVersion"])
	require.Equal(t, "Dear Person 1 of Co 1", people(got)[0]["resolvedMessage"], "a person's message overrides the shared note")
	require.Equal(t, "Hello Person", people(got)[2]["resolvedMessage"])

	// An empty message clears the override.
	got = c.ok(c.key, "manage_recipients", obj{"id": id, "action": "message", "recipientIds": []any{roster[0]["recipientId"]}, "expectedPolicyVersion": 2})
	require.Equal(t, "Hello Person", people(got)[0]["resolvedMessage"])
	require.Empty(t, people(got)[0]["message"])

	for _, tc := range []struct {
		args  obj
		code  core.Code
		field string
	}{
		{obj{"action": "remove", "recipientIds": []any{roster[2]["recipientId"]}}, core.CodeValidation, "expectedPolicyVersion"},
		{obj{"action": "remove", "recipientIds": []any{roster[2]["recipientId"]}, "expectedPolicyVersion": 1}, core.CodePolicyChanged, "expectedPolicyVersion"},
		{obj{"action": "archive", "recipientIds": []any{roster[2]["recipientId"]}, "expectedPolicyVersion": 3}, core.CodeValidation, "action"},
		{obj{"action": "remove", "expectedPolicyVersion": 3}, core.CodeValidation, "recipientIds"},
		{obj{"action": "remove", "recipientIds": []any{roster[2]["recipientId"]}, "message": "x", "expectedPolicyVersion": 3}, core.CodeValidation, "message"},
		{obj{"action": "message", "recipientIds": []any{roster[2]["recipientId"]}, "message": "Hi {{nickname}}", "expectedPolicyVersion": 3}, core.CodeValidation, "message"},
		{obj{"action": "message", "recipientIds": []any{roster[2]["recipientId"]}, "message": "{{company}}" + strings.Repeat("x", 497), "expectedPolicyVersion": 3}, core.CodeValidation, "message"},
		{obj{"action": "remove", "recipientIds": []any{"recipient_000000000000000000000000"}, "expectedPolicyVersion": 3}, core.CodeNotFound, "recipientIds[0]"},
		{obj{"action": "remove", "emails": []string{"nobody@example.com"}, "expectedPolicyVersion": 3}, core.CodeNotFound, "emails[0]"},
		{obj{"action": "remove", "recipientIds": []any{roster[2]["recipientId"]}, "emails": []string{"p3@example.com"}, "expectedPolicyVersion": 3}, core.CodeDuplicateRecipient, "emails[0]"},
		{obj{"action": "remove", "recipientIds": make([]string, 501), "expectedPolicyVersion": 3}, core.CodeValidation, "recipientIds"},
	} {
		tc.args["id"] = id
		c.fails(c.key, "manage_recipients", tc.args, tc.code, tc.field)
	}
	c.unchanged(id, 3, 3)

	got = c.ok(c.key, "manage_recipients", obj{"id": id, "action": "remove", "emails": []string{"p3@example.com"}, "expectedPolicyVersion": 3})
	require.Len(t, people(got), 2)
	require.EqualValues(t, 4, got["policyVersion"])

	// A person with a gift cannot change.
	_, err := c.env.App.Approvals.InsertSend(context.Background(), c.key, approval.SendParams{CampaignID: id, RecipientID: roster[0]["recipientId"].(string), TotalCents: 9000})
	require.NoError(t, err)
	c.fails(c.key, "manage_recipients", obj{"id": id, "action": "message", "recipientIds": []any{roster[0]["recipientId"]}, "message": "x", "expectedPolicyVersion": 4},
		core.CodeInvalidRequestState, "recipientIds[0]")
	c.unchanged(id, 4, 2)
}
