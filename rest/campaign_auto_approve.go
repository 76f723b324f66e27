package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/tools"
)

// autoApproveInput is POST /campaigns/{id}/auto-approve's arguments: the
// campaign and its settings.
type autoApproveInput struct {
	ID string `json:"id" jsonschema:"the campaign ID (cmp_...) of a playbook" schema:"minLength=1,maxLength=100"`
	core.AutoApproveSettings
}

const descSetAutoApprove = "Set a playbook's auto-approve rule: with enabled true, gifts within perGiftMaxCents (100-100000 cents) and the monthly budget " +
	"(monthlyBudgetCents, 100-100000000 cents, the campaign's own cap shared with PATCH) are approved without a person; enabled false turns it off and keeps the limits. " +
	"Absent limits keep the stored ones. Turning it on needs a monthly budget (MONTHLY_BUDGET_REQUIRED) and a per-gift limit no higher than it (VALIDATION_ERROR). " +
	"Only a signed-in person may: keys and connections get HUMAN_APPROVAL_REQUIRED with the review page; turning it on or raising a limit needs an owner or admin " +
	"(TEAM_MANAGER_REQUIRED), while any signed-in role may lower the limits or turn it off. A batch or single is NOT_ALWAYS_ON; a stale expectedPolicyVersion is POLICY_CHANGED. " +
	"Returns the campaign with autoApprove (enabledBy and enabledAt record who turned it on) and its new policyVersion."

// autoApproveOperations are the auto-approve routes, which have no tool of
// their own (TOOLS.md): POST /campaigns/{id}/auto-approve.
func autoApproveOperations() ([]operation, error) {
	input, err := tools.SchemaFor[autoApproveInput]()
	if err != nil {
		return nil, fmt.Errorf("rest: auto-approve input schema: %w", err)
	}
	data, err := payloadSchema[core.Campaign]()
	if err != nil {
		return nil, fmt.Errorf("rest: auto-approve schema: %w", err)
	}
	return []operation{{
		ID:          "set_auto_approve",
		Method:      http.MethodPost,
		Path:        "/campaigns/{id}/auto-approve",
		Summary:     "Set a playbook's auto-approve rule",
		Description: descSetAutoApprove,
		Status:      http.StatusOK,
		Access:      accessRequired,
		Input:       input,
		Data:        data,
		Out:         reflect.TypeFor[core.Campaign](),
		handle:      (*server).autoApproveHandler,
	}}, nil
}

// autoApproveHandler serves POST /campaigns/{id}/auto-approve. The
// arguments are checked against the input schema as a tool's are (unknown
// fields, types and bounds are VALIDATION_ERROR naming the field); core
// decides the rest.
func (s *server) autoApproveHandler(op *operation) http.HandlerFunc {
	set := tools.Define("set_auto_approve", op.Description, tools.ScopeSignedIn, core.ActLowerAutoApprove,
		func(ctx context.Context, p core.Principal, in autoApproveInput) (core.Campaign, error) {
			return s.app.SetAutoApprove(ctx, p, in.ID, in.AutoApproveSettings)
		},
		tools.PersonURL(func(args json.RawMessage) string {
			var in struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(args, &in)
			return s.app.Config.ReviewURL(in.ID)
		}))
	return func(w http.ResponseWriter, r *http.Request) {
		args, err := op.bind.args(r, bodyFrom(r.Context()))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		out, err := set.Call(r.Context(), principalFrom(r), args)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, op.Status, out)
	}
}
