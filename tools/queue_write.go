package tools

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/gift"
)

// AddToPlaybookInput is add_to_playbook's input.
type AddToPlaybookInput struct {
	ID string `json:"id" jsonschema:"the active playbook's campaign ID (cmp_...)" schema:"minLength=1,maxLength=100"`
	approval.PlaybookPersonAdd
}

const descAddToPlaybook = "The playbook step: add one person to an active playbook, once per trigger, and read approval.state: auto_approved " +
	"(paid from the balance; sendId), waiting (nothing charged; reason says why; hand approvalUrl to a signed-in owner or admin) or scheduled " +
	"(only under load; auto-approve decides within seconds). Agents never approve. Send sourceSystem+externalId: a resend (or a name-only person with the same name and company) answers alreadyQueued with the person's state, " +
	"so retrying after a timeout is safe, and adding a waiting person again updates their fields. Needs a complete note, no expectedPolicyVersion. " +
	"PLAYBOOK_OFF: hand url to a teammate, then resend; PLAYBOOK_BUSY: resend after retryAfterMs; batches use add_recipients."

const descApproveGift = "Approve a waiting playbook person's gift: the gift is created and its price charged to the workspace's balance in one step. Only a signed-in owner or admin can; " +
	"keys and connections get HUMAN_APPROVAL_REQUIRED with the queue page: hand it to a person and stop. An approval does not wait for the people ahead in the queue. " +
	"Errors: INSUFFICIENT_BALANCE (url: add funds), BUDGET_CAP (send limit, playbook budget or monthly budget), REPEAT_REVIEW_REQUIRED (approve again with approveRepeat: true), " +
	"RECIPIENT_SKIPPED, LIVE_ADDRESSLESS_UNAVAILABLE, PRODUCT_UNVERIFIED, RECIPIENT_DETAILS_REQUIRED, PERSONALIZATION_REQUIRED, RECIPIENT_MESSAGE_REQUIRED, PLAYBOOK_OFF. " +
	"A person already approved returns their gift unchanged; nothing is charged twice."

const descSkipGift = "Skip a waiting playbook person, with an optional reason of up to 200 characters: they leave the queue and adding them again gives RECIPIENT_SKIPPED. " +
	"Only a signed-in owner or admin can; keys and connections get HUMAN_APPROVAL_REQUIRED with the queue page. Skipping a skipped person changes nothing; a person with a gift cannot be skipped. Returns {skipped: true}."

const descUnskipGift = "Clear a skip: the person waits in the queue again for an owner or admin (auto-approve does not run; adding the same person again runs it). " +
	"Only a signed-in owner or admin can; keys and connections get HUMAN_APPROVAL_REQUIRED with the queue page. A person who is not skipped is left as is. Returns {skipped: false}."

// queueWriteTools are the playbook's writes: an agent's add (TOOLS.md row
// 20) and a signed-in person's approve, skip and unskip (rows 47-49).
func queueWriteTools(app *giftwell.App) []Tool {
	queuePage := func(args json.RawMessage) string {
		var in struct {
			CampaignID string `json:"campaignId"`
		}
		_ = json.Unmarshal(args, &in)
		return app.Config.QueueURL(in.CampaignID)
	}
	return []Tool{
		Define("add_to_playbook", descAddToPlaybook, ScopeWrite, core.ActAddPeople,
			func(ctx context.Context, p core.Principal, in AddToPlaybookInput) (approval.AddPersonResult, error) {
				return app.Approvals.AddToPlaybook(ctx, p, in.ID, in.PlaybookPersonAdd)
			},
			Title("Add a person to a playbook"), Idempotent(), FieldsAs("recipient", "add_recipients", "recipients items"), REST(http.MethodPost, "/playbooks/{id}/people", http.StatusOK)),
		Define("approve_gift", descApproveGift, ScopeSignedIn, core.ActApprove,
			func(ctx context.Context, p core.Principal, in approval.QueueDecision) (gift.Gift, error) {
				return app.Approvals.ApproveGift(ctx, p, in)
			},
			Title("Approve a gift"), Idempotent(), PersonURL(queuePage), REST(http.MethodPost, "/queue/approve", http.StatusOK)),
		Define("skip_gift", descSkipGift, ScopeSignedIn, core.ActApprove,
			func(ctx context.Context, p core.Principal, in approval.QueueSkip) (approval.SkipResult, error) {
				return app.Approvals.SkipGift(ctx, p, in)
			},
			Title("Skip a waiting person"), Idempotent(), PersonURL(queuePage), REST(http.MethodPost, "/queue/skip", http.StatusOK)),
		Define("unskip_gift", descUnskipGift, ScopeSignedIn, core.ActApprove,
			func(ctx context.Context, p core.Principal, in approval.QueueUnskip) (approval.SkipResult, error) {
				return app.Approvals.UnskipGift(ctx, p, in)
			},
			Title("Unskip a person"), Idempotent(), PersonURL(queuePage), REST(http.MethodPost, "/queue/unskip", http.StatusOK)),
	}
}
