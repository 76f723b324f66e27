package resources

import (
	"context"
	"strings"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
)

// guideParts are the resources the workflow guide's documentation links to
// for its deeper text: every error code's recovery, what each person needs
// and the approval states and reasons. giftwell://guide holds them all.
func guideParts(app *giftwell.App) []Resource {
	return []Resource{
		{
			URI: RecoveryURI, Name: "guide-recovery", Title: "Recovering from errors",
			Description: "Every error code: what went wrong and what to do. The workflow guide's recovery keeps what to do.",
			MIMEType:    MIMEMarkdown,
			read: func(context.Context, core.Principal) (string, error) {
				var b strings.Builder
				renderRecovery(&b)
				return b.String(), nil
			},
		},
		{
			URI: RecipientsURI, Name: "guide-recipients", Title: "What each person needs",
			Description: "Identity, address, note, details, lettering, artwork, portrait and adult confirmation rules, in full.",
			MIMEType:    MIMEMarkdown,
			read: func(context.Context, core.Principal) (string, error) {
				var b strings.Builder
				err := renderRecipients(&b)
				return b.String(), err
			},
		},
		{
			URI: ApprovalURI, Name: "guide-approval", Title: "Approval states and reasons",
			Description: "What each approval state of a playbook person means (who has paid, what comes next) and why a waiting person waits.",
			MIMEType:    MIMEMarkdown,
			read: func(ctx context.Context, p core.Principal) (string, error) {
				g, err := app.Guide.WorkflowGuide(ctx, p)
				if err != nil {
					return "", err
				}
				var b strings.Builder
				renderApproval(&b, g.ApprovalReasons)
				return b.String(), nil
			},
		},
	}
}
