package prompts

import (
	"fmt"
	"strings"
)

// prepareBatchCampaign guides an agent through preparing a batch campaign
// for a person to pay and launch.
func prepareBatchCampaign() Prompt {
	return Prompt{
		Name:  "prepare_batch_campaign",
		Title: "Prepare a batch campaign",
		Description: "Instructions for preparing a batch campaign (a fixed list of at most 500 people, paid by " +
			"card checkout that a signed-in owner or admin completes): choose a gift, create the draft, add " +
			"recipients, preview, and hand the review URL to a person. Returns instructions only; changes nothing.",
		Arguments: []Argument{
			{Name: "goal", Description: "Optional: what the gifts are for and who receives them, e.g. \"thank the 40 attendees of our dinner\".", MaxLength: 500},
		},
		render: func(a map[string]string) string {
			var b strings.Builder
			if a["goal"] != "" {
				fmt.Fprintf(&b, "Prepare a Giftwell batch campaign for this goal: %s\n\n", a["goal"])
			} else {
				b.WriteString("Prepare a Giftwell batch campaign. Ask the user what the gifts are for and who receives them.\n\n")
			}
			b.WriteString(`A batch is a fixed list of at most 500 people, paid by card checkout that a signed-in owner or admin
completes. When people arrive one at a time over weeks, a playbook fits better (start_playbook).
This prompt changed nothing. Follow these steps in order:

1. Call get_workflow_guide once and follow its batchSteps. Note the workspace mode (test: nothing ships).
2. Choose a gift with search_gifts: budgetCents per gift and recipientCount, so that
   campaignEstimateCents shows recipientCount × price. Never choose a retired gift, one with available
   false or priceQuoteRequired, or one with priceCents 0; prefer shippingQuoteRequired false when the
   budget must hold. Use the productId exactly as returned and confirm the gift and the estimate with the
   user.
3. Create the draft with create_campaign: mode "batch", name, productId, senderName, senderCompany,
   budgetCents, perPersonCents, maxSends (1-500), a shared message of at most 500 characters, and an
   idempotencyKey reused with an identical body on any resend.
4. Add people with add_recipients {id, expectedPolicyVersion, recipients (1-500)}, using the
   policyVersion returned by your last write. POLICY_CHANGED: call get_campaign and retry with its
   policyVersion. People already on the roster are skipped.
5. Call preview_campaign: read totalCents, blockers and nextAction. Fix what blocks (notes, gift
   details, photos, artwork, lettering) with update_campaign. If nextAction is provide_sender_address,
   give the user {site_url}/campaigns/<campaign_id> and stop. Only a preview that returns prepaidOffer
   lets recipients confirm their own address.
6. Hand the review URL ({site_url}/campaigns/<campaign_id>?review=1) to an owner or admin: they review,
   pay at checkout and launch. You never pay or launch, and a payment return URL does not prove payment.
7. After launch, read gift links (get_gift_link_records) and send them through the customer's own tools;
   Giftwell emails no one. Track with get_tracking and campaign_results.

`)
			b.WriteString(onError)
			return b.String()
		},
	}
}
