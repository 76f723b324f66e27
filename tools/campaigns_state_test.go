package tools_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
)

func TestUpdateCampaignVersions(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	pb := c.playbook("engraved-walnut-desk-organizer", obj{"message": "Thanks {{firstName}}"})
	id := pb["id"].(string)

	// Keys must send the version; a stale one is POLICY_CHANGED; neither changes anything.
	e := c.fails(c.key, "update_campaign", obj{"id": id, "name": "Renamed"}, core.CodeValidation, "expectedPolicyVersion")
	require.Contains(t, e.Message, "required")
	c.fails(c.key, "update_campaign", obj{"id": id, "name": "Renamed", "expectedPolicyVersion": 7}, core.CodePolicyChanged, "expectedPolicyVersion")
	c.fails(c.conn, "update_campaign", obj{"id": id, "name": "Renamed"}, core.CodeValidation, "expectedPolicyVersion")
	require.Equal(t, "Closed-won thanks", c.get(id)["name"])
	c.unchanged(id, 1, 0)

	got := c.ok(c.key, "update_campaign", obj{"id": id, "name": "Renamed", "expectedPolicyVersion": 1})
	require.Equal(t, "Renamed", got["name"])
	require.EqualValues(t, 2, got["policyVersion"])
	// Only supplied fields change.
	require.Equal(t, "Thanks {{firstName}}", got["message"])
	// The old version is now stale.
	c.fails(c.key, "update_campaign", obj{"id": id, "name": "Again", "expectedPolicyVersion": 1}, core.CodePolicyChanged, "expectedPolicyVersion")

	// A signed-in person may leave the version out.
	got = c.ok(c.session, "update_campaign", obj{"id": id, "description": "for the AE team"})
	require.EqualValues(t, 3, got["policyVersion"])

	// A write that changes nothing keeps the version.
	got = c.ok(c.key, "update_campaign", obj{"id": id, "name": "Renamed", "expectedPolicyVersion": 3})
	require.EqualValues(t, 3, got["policyVersion"])

	// Empty strings clear; null is refused; unknown fields are refused.
	got = c.ok(c.key, "update_campaign", obj{"id": id, "meetingUrl": "https://cal.example/sam", "expectedPolicyVersion": 3})
	require.Equal(t, "https://cal.example/sam", got["meetingUrl"])
	got = c.ok(c.key, "update_campaign", obj{"id": id, "meetingUrl": "", "expectedPolicyVersion": 4})
	require.Equal(t, "", got["meetingUrl"])
	c.fails(c.key, "update_campaign", obj{"id": id, "name": nil, "expectedPolicyVersion": 5}, core.CodeValidation, "name")
	c.fails(c.key, "update_campaign", obj{"id": id, "spentCents": 0, "expectedPolicyVersion": 5}, core.CodeValidation, "spentCents")
	c.fails(c.key, "update_campaign", obj{"id": id, "expectedPolicyVersion": 0}, core.CodeValidation, "expectedPolicyVersion")
	c.fails(c.key, "update_campaign", obj{"id": id, "expectedPolicyVersion": 9007199254740992}, core.CodeValidation, "expectedPolicyVersion")
	c.fails(c.key, "update_campaign", obj{"id": "cmp_000000000000000000000000", "name": "x", "expectedPolicyVersion": 1}, core.CodeNotFound, "id")
	c.unchanged(id, 5, 0)

	// Changing the gift: it must be current, and a playbook's default per-person limit follows its price.
	c.fails(c.key, "update_campaign", obj{"id": id, "productId": "engraved-rollerball-pen", "expectedPolicyVersion": 5}, core.CodeGiftRetired, "productId")
	c.fails(c.key, "update_campaign", obj{"id": id, "productId": "nope", "expectedPolicyVersion": 5}, core.CodeValidation, "productId")
	got = c.ok(c.key, "update_campaign", obj{"id": id, "productId": "gourmet-snack-crate", "expectedPolicyVersion": 5})
	require.EqualValues(t, 9000, got["perPersonCents"])
	// Lettering must fit the gift.
	c.fails(c.key, "update_campaign", obj{"id": id, "customization": obj{"displayText": "Hi"}, "expectedPolicyVersion": 6}, core.CodeValidation, "customization.displayText")
	// A playbook of 2000 sends cannot become a batch without lowering maxSends.
	c.fails(c.key, "update_campaign", obj{"id": id, "mode": "batch", "expectedPolicyVersion": 6}, core.CodeValidation, "maxSends")
	got = c.ok(c.key, "update_campaign", obj{"id": id, "mode": "batch", "maxSends": 20, "budgetCents": 500000, "expectedPolicyVersion": 6})
	require.Equal(t, "batch", got["mode"])
	c.fails(c.key, "update_campaign", obj{"id": id, "perPersonCents": 600000, "expectedPolicyVersion": 7}, core.CodeValidation, "perPersonCents")
	c.unchanged(id, 7, 0)
}

func TestCampaignStatusTable(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	pb := c.playbook("gourmet-snack-crate", obj{"message": "Enjoy, {{firstName}}"})
	id := pb["id"].(string)
	review := c.env.SiteURL + "/campaigns/" + id + "?review=1"

	// Keys and connections can never turn a campaign on.
	e := c.fails(c.key, "update_campaign", obj{"id": id, "status": "active", "expectedPolicyVersion": 1}, core.CodeHumanApprovalRequired, "status")
	require.Equal(t, review, e.URL)
	e = c.fails(c.conn, "update_campaign", obj{"id": id, "status": "active", "expectedPolicyVersion": 1}, core.CodeHumanApprovalRequired, "status")
	require.Equal(t, review, e.URL)
	c.unchanged(id, 1, 0)
	require.Equal(t, "draft", c.get(id)["status"])

	// A signed-in person turns a playbook on; any role may.
	_, memberSession := c.member()
	got := c.ok(memberSession, "update_campaign", obj{"id": id, "status": "active"})
	require.Equal(t, "active", got["status"])
	require.EqualValues(t, 2, got["policyVersion"])

	// A key's content edit returns it to draft for review.
	got = c.ok(c.key, "update_campaign", obj{"id": id, "message": "Enjoy this, {{firstName}}", "expectedPolicyVersion": 2})
	require.Equal(t, "draft", got["status"])
	require.EqualValues(t, 3, got["policyVersion"])

	// A signed-in person's edit keeps it on.
	c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	got = c.ok(c.session, "update_campaign", obj{"id": id, "name": "Edited by a person"})
	require.Equal(t, "active", got["status"])

	// Any key pauses; a key's edit of a paused campaign keeps it paused.
	memberKey, _ := c.member()
	v := version(got)
	got = c.ok(memberKey, "update_campaign", obj{"id": id, "status": "paused", "expectedPolicyVersion": v})
	require.Equal(t, "paused", got["status"])
	got = c.ok(c.key, "update_campaign", obj{"id": id, "name": "Paused edit", "expectedPolicyVersion": version(got)})
	require.Equal(t, "paused", got["status"])
	// Connections cannot pause or complete, nor edit what is not a draft.
	e = c.fails(c.conn, "update_campaign", obj{"id": id, "status": "completed", "expectedPolicyVersion": version(got)}, core.CodeHumanApprovalRequired, "status")
	require.Equal(t, review, e.URL)
	e = c.fails(c.conn, "update_campaign", obj{"id": id, "name": "By a connection", "expectedPolicyVersion": version(got)}, core.CodeHumanApprovalRequired, "")
	require.Equal(t, review, e.URL)
	// draft is never asked for.
	c.fails(c.key, "update_campaign", obj{"id": id, "status": "draft", "expectedPolicyVersion": version(got)}, core.CodeValidation, "status")
	c.unchanged(id, version(got), 0)

	// A signed-in person turns a paused campaign back on.
	got = c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	require.Equal(t, "active", got["status"])

	// Completed is final: every change is refused, by anyone.
	got = c.ok(c.key, "update_campaign", obj{"id": id, "status": "completed", "expectedPolicyVersion": version(got)})
	require.Equal(t, "completed", got["status"])
	v = version(got)
	c.fails(c.key, "update_campaign", obj{"id": id, "name": "x", "expectedPolicyVersion": v}, core.CodeCampaignCompleted, "")
	c.fails(c.session, "update_campaign", obj{"id": id, "status": "active"}, core.CodeCampaignCompleted, "")
	c.fails(c.key, "update_campaign", obj{"id": id, "status": "paused", "expectedPolicyVersion": v}, core.CodeCampaignCompleted, "")
	c.fails(c.key, "add_recipients", obj{"id": id, "recipients": []obj{person("1")}}, core.CodeCampaignCompleted, "")
	c.fails(c.key, "manage_recipients", obj{"id": id, "action": "remove", "recipientIds": []string{"recipient_x"}, "expectedPolicyVersion": v}, core.CodeCampaignCompleted, "")
	c.unchanged(id, v, 0)

	// Batches and single gifts are turned on at checkout, not by a PATCH of a draft.
	b := c.batch("gourmet-snack-crate", obj{"recipients": []obj{person("1")}, "message": "Hi"})
	bid := b["id"].(string)
	e = c.fails(c.session, "update_campaign", obj{"id": bid, "status": "active"}, core.CodeInvalidRequestState, "status")
	require.Contains(t, e.Message, "checkout")
	c.fails(c.key, "update_campaign", obj{"id": bid, "status": "active", "expectedPolicyVersion": 1}, core.CodeHumanApprovalRequired, "status")
	c.unchanged(bid, 1, 1)
	// A paused batch is turned back on by a signed-in person.
	got = c.ok(c.key, "update_campaign", obj{"id": bid, "status": "paused", "expectedPolicyVersion": 1})
	got = c.ok(c.session, "update_campaign", obj{"id": bid, "status": "active"})
	require.Equal(t, "active", got["status"])

	// Connections edit drafts.
	d := c.playbook("gourmet-snack-crate", nil)
	got = c.ok(c.conn, "update_campaign", obj{"id": d["id"], "name": "Connection's draft", "expectedPolicyVersion": 1})
	require.Equal(t, "Connection's draft", got["name"])
	require.Equal(t, "draft", got["status"])
	// A connection cannot create an active campaign either.
	c.fails(c.conn, "create_campaign", obj{"name": "x", "mode": "always_on", "productId": "gourmet-snack-crate", "senderName": "S", "senderCompany": "A", "status": "active"}, core.CodeHumanApprovalRequired, "status")
}

func TestActivePlaybookAppend(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	pb := c.playbook("gourmet-snack-crate", obj{"message": "Enjoy, {{firstName}}", "recipients": []obj{person("1")}})
	id := pb["id"].(string)
	c.ok(c.session, "update_campaign", obj{"id": id, "status": "active"})
	on := c.get(id)
	v := version(on)
	first := people(on)[0]

	// Keeping everyone (by recipientId, unchanged) and appending needs no version and stays on.
	got := c.ok(c.key, "update_campaign", obj{"id": id, "recipients": []obj{{"recipientId": first["recipientId"]}, person("2")}})
	require.Equal(t, "active", got["status"])
	require.Equal(t, v, version(got), "an append to an active playbook keeps the version")
	require.Len(t, people(got), 2)
	require.Equal(t, first["recipientId"], people(got)[0]["recipientId"])
	// Matching by email works the same; a connection may append too.
	got = c.ok(c.conn, "update_campaign", obj{"id": id, "recipients": []obj{{"email": "P1@example.com"}, {"sourceSystem": "crm", "externalId": "ext-2"}, person("3")}})
	require.Equal(t, "active", got["status"])
	require.Len(t, people(got), 3)

	// An appended person needs a complete note on an active playbook.
	e := c.fails(c.key, "update_campaign", obj{"id": id, "recipients": []obj{person("1"), person("2"), person("3"), {"sourceSystem": "crm", "externalId": "x9"}}},
		core.CodeRecipientMessageRequired, "recipients[3].message")
	require.Contains(t, e.Message, "{{firstName}}")
	c.fails(c.key, "add_recipients", obj{"id": id, "recipients": []obj{{"sourceSystem": "crm", "externalId": "x9"}}}, core.CodeRecipientMessageRequired, "recipients[0].message")
	// Dropping someone or changing them is an edit: a version is needed.
	c.fails(c.key, "update_campaign", obj{"id": id, "recipients": []obj{person("1"), person("2")}}, core.CodeValidation, "expectedPolicyVersion")
	c.fails(c.key, "update_campaign", obj{"id": id, "recipients": []obj{{"email": "p1@example.com", "title": "CEO"}, person("2"), person("3")}}, core.CodeValidation, "expectedPolicyVersion")
	// Other fields with the recipients are an edit too.
	c.fails(c.key, "update_campaign", obj{"id": id, "name": "x", "recipients": []obj{person("1"), person("2"), person("3"), person("4")}}, core.CodeValidation, "expectedPolicyVersion")
	c.unchanged(id, v, 3)
	require.Equal(t, "active", c.get(id)["status"])

	// add_recipients on an active playbook: no version, stays on, same version.
	added := c.ok(c.key, "add_recipients", obj{"id": id, "recipients": []obj{person("4"), person("1")}})
	require.Equal(t, "active", added["status"])
	require.Equal(t, v, version(added))
	require.Len(t, added["added"], 1)
	require.Len(t, added["skipped"], 1)

	// With the version, dropping a person returns the playbook to draft.
	got = c.ok(c.key, "update_campaign", obj{"id": id, "recipients": []obj{person("1"), person("2")}, "expectedPolicyVersion": v})
	require.Equal(t, "draft", got["status"])
	require.Len(t, people(got), 2)
	require.EqualValues(t, v+1, version(got))
}

func TestLimitsBelowCommitments(t *testing.T) {
	t.Parallel()
	c := newCampaigns(t)
	ctx := context.Background()
	pb := c.playbook("gourmet-snack-crate", obj{"message": "Hi {{firstName}}", "monthlyBudgetCents": 100000, "recipients": []obj{person("1"), person("2"), person("3")}})
	id := pb["id"].(string)
	for _, r := range people(pb)[:2] {
		_, err := c.env.App.Approvals.InsertSend(ctx, c.key, approval.SendParams{CampaignID: id, RecipientID: r["recipientId"].(string), TotalCents: 9000})
		require.NoError(t, err)
	}
	got := c.get(id)
	require.EqualValues(t, 18000, got["spentCents"])
	require.EqualValues(t, 2, got["sentCount"])
	require.NotEmpty(t, people(got)[0]["sendId"])

	c.fails(c.key, "update_campaign", obj{"id": id, "budgetCents": 17999, "perPersonCents": 9000, "expectedPolicyVersion": 1}, core.CodeLimitsBelowCommitments, "budgetCents")
	c.fails(c.key, "update_campaign", obj{"id": id, "maxSends": 1, "expectedPolicyVersion": 1}, core.CodeLimitsBelowCommitments, "maxSends")
	c.fails(c.key, "update_campaign", obj{"id": id, "monthlyBudgetCents": 17000, "expectedPolicyVersion": 1}, core.CodeLimitsBelowCommitments, "monthlyBudgetCents")
	// People with a gift can be neither removed nor changed.
	sent := people(got)[0]
	e := c.fails(c.key, "update_campaign", obj{"id": id, "recipients": []obj{person("2"), person("3")}, "expectedPolicyVersion": 1}, core.CodeInvalidRequestState, "recipients")
	require.Contains(t, e.Message, sent["recipientId"])
	c.fails(c.key, "update_campaign", obj{"id": id, "recipients": []obj{{"email": "p1@example.com", "title": "CFO"}, person("2"), person("3")}, "expectedPolicyVersion": 1}, core.CodeInvalidRequestState, "recipients[0]")
	c.fails(c.key, "manage_recipients", obj{"id": id, "action": "remove", "recipientIds": []any{sent["recipientId"]}, "expectedPolicyVersion": 1}, core.CodeInvalidRequestState, "recipientIds[0]")
	c.unchanged(id, 1, 3)

	// Limits at the commitments are fine; people without gifts can go.
	got = c.ok(c.key, "update_campaign", obj{"id": id, "budgetCents": 18000, "perPersonCents": 9000, "maxSends": 2, "monthlyBudgetCents": 18000, "expectedPolicyVersion": 1})
	require.EqualValues(t, 18000, got["budgetCents"])
	got = c.ok(c.key, "update_campaign", obj{"id": id, "recipients": []obj{person("1"), person("2")}, "expectedPolicyVersion": 2})
	require.Len(t, people(got), 2)
}
