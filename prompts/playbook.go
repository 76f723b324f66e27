package prompts

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core/campaign"
)

// onError is the recovery paragraph every prompt ends with.
const onError = `On any error, follow its nextAction: open_url → hand its url to a person and stop;
ask_user → ask the user for the missing or corrected input; retry_later → wait retryAfterMs, then
send the same request; reread_and_retry → read current state first; stop → stop and explain.`

// startPlaybook guides an agent from a goal to a running playbook
// (spec, What the service does §4).
func startPlaybook() Prompt {
	return Prompt{
		Name:  "start_playbook",
		Title: "Start a gifting playbook",
		Description: "Step-by-step instructions for setting up a playbook (an always_on campaign that gifts one " +
			"person per trigger): choose a gift, create the draft, hand the review URL to a person, then add people " +
			"and hand approvals and top-ups to an owner or admin. Returns instructions only; changes nothing.",
		Arguments: []Argument{
			{Name: "goal", Description: "What the gifts are for, e.g. \"thank new customers after their first order\" or \"book meetings with VPs of Sales\".", Required: true, MaxLength: 500},
			{Name: "budget", Description: "Optional budget per gift in USD, e.g. \"75\" or \"$75\". Ask the user when absent.", MaxLength: 50},
		},
		render: func(a map[string]string) string {
			var b strings.Builder
			fmt.Fprintf(&b, "Set up a Giftwell playbook for this goal: %s\n\n", a["goal"])
			if a["budget"] != "" {
				fmt.Fprintf(&b, "Budget per gift, as the user gave it: %s. Pass it to search_gifts as budgetCents in integer USD cents ($75 is 7500).\n\n", a["budget"])
			} else {
				b.WriteString("No budget per gift was given: ask the user for one before choosing a gift.\n\n")
			}
			b.WriteString(`A playbook (mode always_on) gifts one person per trigger; people are added over the API one at a time.
This prompt changed nothing. Follow these steps in order:

1. Read the rules once: call get_workflow_guide (or read the giftwell://guide resource). Note the
   workspace mode: in test nothing ships and gift links must not reach real prospects; in live only
   verified gifts can be ordered and each person needs a sender-supplied US address (addressMode known).
2. Choose a gift with search_gifts (query or useCase from the goal, budgetCents). Never choose a retired
   gift, one with available false or priceQuoteRequired, or one with priceCents 0. Prefer
   shippingQuoteRequired false when the budget must hold exactly or auto-approve will be used. Use the
   productId exactly as returned; never invent one. Confirm the gift with the user, quoting
   priceCents + shippingCents as the price per gift; a gift with shippingQuoteRequired has no delivery
   in its price yet, so never present it as a delivered total.
3. Create the draft with create_campaign: mode "always_on", name, productId, senderName, senderCompany,
   a shared message of at most 500 characters (placeholders {{firstName}}, {{name}}, {{company}},
   {{custom}}), no recipients, and an idempotencyKey (8-150 characters) that you reuse with an identical
   body if you must resend. Nothing is charged.
4. Hand the review URL to a signed-in teammate: the workflow guide's reviewUrlTemplate with the new
   campaign's ID ({site_url}/campaigns/<campaign_id>?review=1). Only a signed-in person can turn the
   playbook on; an owner or admin can also set auto-approve and a monthly budget. Wait until they confirm.
5. For each trigger, add one person with add_to_playbook {id, recipient}: include sourceSystem and
   externalId (a resend with the same pair is safe), name and company, and a message when the shared note
   does not fit. Read approval.state: auto_approved is paid; scheduled is not paid yet and may still end
   up waiting; waiting means an owner or admin must approve, so hand them the approvalUrl with the
   reason and blockers (and topUpUrl when the result has one). PLAYBOOK_OFF means the playbook is not on yet: hand the url to a
   teammate, then resend the same add.
6. Call get_balance; when lowBalance is true, hand topUpUrl to an owner or admin. You never approve,
   skip, pay or add funds.
7. Read gift links (get_gift_link_records or list_campaign_gift_links) and send them through the
   customer's own tools; Giftwell emails no one. Never build a link, payment or download URL from an ID.
8. Track with get_tracking or list_tracking_events (store nextCursor after every poll). Record an outcome
   only when the user reports it.

If add_to_playbook is not among your tools, this endpoint does not run playbooks: use
prepare_batch_campaign instead.

`)
			b.WriteString(onError)
			return b.String()
		},
	}
}

// addPeopleToPlaybook guides an agent through adding people to an existing
// playbook and handing on the people who wait.
func addPeopleToPlaybook() Prompt {
	return Prompt{
		Name:  "add_people_to_playbook",
		Title: "Add people to a playbook",
		Description: "Instructions for adding people to an existing playbook one per trigger, reading each " +
			"person's approval state and handing waiting people and top-ups to an owner or admin. Returns " +
			"instructions only; changes nothing.",
		Arguments: []Argument{
			{Name: "campaignId", Description: "The playbook's campaign ID (cmp_...), as list_campaigns returns it.", Required: true, MaxLength: 200},
		},
		render: func(a map[string]string) string {
			var b strings.Builder
			fmt.Fprintf(&b, "Add people to the playbook %s, one person per trigger. This prompt changed nothing.\n\n", a["campaignId"])
			b.WriteString(`1. Call get_campaign with this ID. It must have mode always_on and status active. If it is draft or
   paused, hand the review URL ({site_url}/campaigns/<campaign_id>?review=1) to a signed-in teammate and
   stop: adds would return PLAYBOOK_OFF. Call get_gift with its productId to learn what each person needs:
   recipientDetails answers, a portrait, artwork, lettering, or for alcohol adultRecipientConfirmed
   (never inferred).
2. For each person call add_to_playbook {id, recipient}. Give sourceSystem and externalId (the stable
   identity: the call is idempotent on it, and alreadyQueued true means the person was already added),
   name, company and title, email when known, and a message when the shared note needs overriding (at
   most 500 characters after placeholders). In live mode each person needs addressMode known and a US
   address. Research notes go in context; never put personal data or secrets in attribution.
3. Read approval.state for each person (the giftwell://guide/approval resource says the same):
` + approvalStateLines() + `   - RECIPIENT_SKIPPED: an owner or admin skipped this person; do not re-add them.
   Without sourceSystem+externalId, email or profileUrl a person is matched by name and company: two
   different people who share both need an identifier each.
   A result with statusChange means the playbook changed status (an edit returned it to draft): hand
   statusChange.reviewUrl to a signed-in teammate before adding more.
4. PLAYBOOK_BUSY: nothing was saved; wait retryAfterMs and resend the same add.
   RECIPIENT_MESSAGE_REQUIRED: write a note of at most 500 characters and resend.
5. Call get_balance. When lowBalance is true, hand topUpUrl to an owner or admin. Adding funds does not
   approve people already waiting; an owner or admin approves them in the queue (list_queue shows who
   waits and why).
6. Once gifts are approved, read gift links (get_gift_link_records) and track them (get_tracking).

`)
			b.WriteString(onError)
			return b.String()
		},
	}
}

// approvalStateLines lists every approval state with its meaning, one
// bullet each, indented for a numbered step.
func approvalStateLines() string {
	var b strings.Builder
	for _, s := range campaign.ApprovalStates() {
		fmt.Fprintf(&b, "   - %s: %s\n", s, s.Meaning())
	}
	return b.String()
}
