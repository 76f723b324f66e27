package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// Auto-approve bounds from the spec's Limits.
const (
	MinPerGiftMaxCents = 100
	MaxPerGiftMaxCents = 100_000
)

// AutoApproveSettings is what POST /campaigns/{id}/auto-approve takes.
// Absent limits keep the stored ones: the rule's per-gift limit and the
// campaign's monthlyBudgetCents (shared with PATCH).
type AutoApproveSettings struct {
	Enabled               bool   `json:"enabled" jsonschema:"true turns auto-approve on (or keeps it on with the limits sent); false turns it off and keeps its limits"`
	PerGiftMaxCents       *int64 `json:"perGiftMaxCents,omitempty" jsonschema:"the most one auto-approved gift may cost, in USD cents (100-100000); absent keeps the stored limit" schema:"type=integer,minimum=100,maximum=100000"`
	MonthlyBudgetCents    *int64 `json:"monthlyBudgetCents,omitempty" jsonschema:"the playbook's spend cap per UTC calendar month, in USD cents (100-100000000); absent keeps the campaign's" schema:"type=integer,minimum=100,maximum=100000000"`
	ExpectedPolicyVersion int64  `json:"expectedPolicyVersion,omitempty" jsonschema:"the policyVersion the person last saw; a stale one is POLICY_CHANGED" schema:"minimum=1,maximum=9007199254740991"`
}

// SetAutoApprove sets the auto-approve rule of playbook id for a signed-in
// person, in one transaction with a compare-and-swap on policyVersion, and
// returns the campaign with its rule and new version. A request that
// changes nothing returns the campaign as it is.
//
// Turning it on needs a monthly budget (sent, or already on the campaign)
// and a per-gift limit (sent, or kept from an earlier rule) no higher than
// that budget. Turning it off keeps the limits. Turning it on records who
// (enabledBy, a user ID) and when (enabledAt); changes while it stays on
// keep them.
//
// Codes: AUTH_REQUIRED; HUMAN_APPROVAL_REQUIRED with the review URL (keys
// and connections); TEAM_MANAGER_REQUIRED (a member turning it on, or
// raising the per-gift limit or the monthly budget while it is on);
// VALIDATION_ERROR naming perGiftMaxCents or monthlyBudgetCents (out of
// bounds; per-gift limit missing or above the monthly budget when turning
// on); MONTHLY_BUDGET_REQUIRED; NOT_FOUND; CAMPAIGN_COMPLETED; NOT_ALWAYS_ON
// (a batch or single); POLICY_CHANGED (a stale expectedPolicyVersion, or a
// concurrent write); LIMITS_BELOW_COMMITMENTS (a monthly budget below this
// month's committed spend); the place of CHECKOUT_LOCKED.
func (a *Service) SetAutoApprove(ctx context.Context, p core.Principal, id string, in AutoApproveSettings) (campaign.Campaign, error) {
	if err := core.Authorize(p, core.ActLowerAutoApprove, a.Config.ReviewURL(id)); err != nil {
		return campaign.Campaign{}, err
	}
	if err := CheckAutoApproveBounds(in); err != nil {
		return campaign.Campaign{}, err
	}
	var out campaign.Campaign
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		q := db.New(tx)
		c, err := campaign.LockRecord(ctx, q, p.WorkspaceID, id)
		if err != nil {
			return err
		}
		if c.Status == campaign.StatusCompleted {
			return campaign.CampaignCompleted(c.ID)
		}
		if !c.Mode.Playbook() {
			return core.Errorf(core.CodeNotAlwaysOn, "campaign %s is a %s, not a playbook; auto-approve is for playbooks (mode always_on)", c.ID, c.Mode)
		}
		if err := campaign.CheckVersion(p, c, in.ExpectedPolicyVersion, false); err != nil {
			return err
		}
		if err := a.Campaigns.CheckoutLock(ctx, q, c); err != nil {
			return err
		}
		rule, monthly, err := nextAutoApprove(c, in)
		if err != nil {
			return err
		}
		after := c.Settings.Clone()
		after.MonthlyBudgetCents = monthly
		if err := a.Campaigns.AuthorizeSpendLimits(p, c.ID, campaign.SpendLimitsOf(c.Settings, c.AutoApprove), campaign.SpendLimitsOf(after, rule)); err != nil {
			return err
		}
		if reflect.DeepEqual(rule, c.AutoApprove) && reflect.DeepEqual(monthly, c.MonthlyBudgetCents) {
			out, err = a.Campaigns.CampaignTx(ctx, q, c.WorkspaceID, c.ID)
			return err
		}
		now := a.Clock.Now()
		if rule.On() && !c.AutoApprove.On() {
			rule.EnabledBy, rule.EnabledAt = p.UserID, &now
		}
		if !reflect.DeepEqual(monthly, c.MonthlyBudgetCents) {
			next := c.Settings.Clone()
			next.MonthlyBudgetCents = monthly
			com, err := a.Campaigns.LoadCommitments(ctx, q, c.ID)
			if err != nil {
				return err
			}
			if err := campaign.CheckCommitments(next, com); err != nil {
				return err
			}
		}
		if err := writeAutoApprove(ctx, q, c, rule, monthly, now); err != nil {
			return err
		}
		if err := a.RecordActivity(ctx, tx, p, core.ActivityRecord{
			Kind: core.ActivityAutoApproveChanged, CampaignID: c.ID, Subject: autoApproveWords(rule, monthly, c.PolicyVersion+1),
		}); err != nil {
			return err
		}
		out, err = a.Campaigns.CampaignTx(ctx, q, c.WorkspaceID, c.ID)
		return err
	})
	if err != nil {
		return campaign.Campaign{}, core.AsCoreError(err)
	}
	return out, nil
}

// CheckAutoApproveBounds is VALIDATION_ERROR naming each limit of in out of
// the spec's bounds, every one at once, or nil; it reads nothing stored (a
// form checks the limits it could read with it, beside those it could not).
func CheckAutoApproveBounds(in AutoApproveSettings) error {
	var pr campaign.Problems
	if v := in.PerGiftMaxCents; v != nil && (*v < MinPerGiftMaxCents || *v > MaxPerGiftMaxCents) {
		pr.Add("perGiftMaxCents", "must be %d-%d cents", MinPerGiftMaxCents, MaxPerGiftMaxCents)
	}
	if v := in.MonthlyBudgetCents; v != nil && (*v < campaign.MinMonthlyBudgetCents || *v > campaign.MaxMonthlyBudgetCents) {
		pr.Add("monthlyBudgetCents", "must be %d-%d cents", campaign.MinMonthlyBudgetCents, campaign.MaxMonthlyBudgetCents)
	}
	if in.ExpectedPolicyVersion < 0 || in.ExpectedPolicyVersion > campaign.MaxPolicyVersion {
		pr.Add("expectedPolicyVersion", "must be 1-%d", int64(campaign.MaxPolicyVersion))
	}
	return pr.Err()
}

// nextAutoApprove is the rule and monthly budget the request leaves on c,
// with enabledBy and enabledAt as stored. Turning it on without a monthly
// budget is MONTHLY_BUDGET_REQUIRED (naming perGiftMaxCents too when it is
// also missing); without a per-gift limit, or with one above the budget,
// VALIDATION_ERROR naming perGiftMaxCents. Turning off a
// playbook that never had a rule, without a per-gift limit, leaves no rule
// (nil).
func nextAutoApprove(c campaign.Record, in AutoApproveSettings) (*campaign.AutoApprove, *int64, error) {
	monthly := c.MonthlyBudgetCents
	if in.MonthlyBudgetCents != nil {
		v := *in.MonthlyBudgetCents
		monthly = &v
	}
	var rule campaign.AutoApprove
	if c.AutoApprove != nil {
		rule = *c.AutoApprove
	}
	if in.PerGiftMaxCents != nil {
		rule.PerGiftMaxCents = *in.PerGiftMaxCents
	}
	rule.Enabled = in.Enabled
	if !in.Enabled {
		if c.AutoApprove == nil && in.PerGiftMaxCents == nil {
			return nil, monthly, nil
		}
		return &rule, monthly, nil
	}
	var pr core.Problems
	if monthly == nil {
		pr.Add("monthlyBudgetCents", "is required to turn auto-approve on: send monthlyBudgetCents (%d-%d cents), the playbook's spend cap per UTC month",
			campaign.MinMonthlyBudgetCents, campaign.MaxMonthlyBudgetCents)
	}
	switch {
	case rule.PerGiftMaxCents == 0:
		pr.Add("perGiftMaxCents", "is required to turn auto-approve on: the most one auto-approved gift may cost (%d-%d cents, at most the monthly budget)", MinPerGiftMaxCents, MaxPerGiftMaxCents)
	case monthly != nil && rule.PerGiftMaxCents > *monthly:
		pr.Add("perGiftMaxCents", "is %d cents, above the monthly budget of %d cents; it must be at most the monthly budget", rule.PerGiftMaxCents, *monthly)
	}
	if err := pr.Err(); err != nil {
		if monthly == nil {
			// The spec's own code for a missing budget, naming the per-gift
			// limit's problem too when it has one.
			e := core.AsError(err)
			e.Code = core.CodeMonthlyBudgetRequired
			return nil, nil, e
		}
		return nil, nil, err
	}
	return &rule, monthly, nil
}

// writeAutoApprove stores rule and monthly over c with a compare-and-swap on
// c's version, adding one to it. POLICY_CHANGED when c's version moved.
func writeAutoApprove(ctx context.Context, q *db.Queries, c campaign.Record, rule *campaign.AutoApprove, monthly *int64, now time.Time) error {
	var stored []byte // nil stores NULL: no rule
	if rule != nil {
		var err error
		if stored, err = json.Marshal(rule); err != nil {
			return core.Internal(err)
		}
	}
	n, err := q.CampaignUpdateAutoApprove(ctx, db.CampaignUpdateAutoApproveParams{
		AutoApprove: stored, MonthlyBudgetCents: monthly, NewPolicyVersion: c.PolicyVersion + 1, UpdatedAt: now,
		WorkspaceID: c.WorkspaceID, ID: c.ID, ExpectedPolicyVersion: c.PolicyVersion,
	})
	if err != nil {
		return core.Internal(err)
	}
	if n == 0 {
		return campaign.PolicyChanged(c.PolicyVersion)
	}
	return nil
}

// autoApproveWords says in plain words what a change left the rule at, for
// the Activity page: on or off, its limits, and the policy version.
func autoApproveWords(rule *campaign.AutoApprove, monthly *int64, version int64) string {
	state := "off"
	if rule != nil && rule.Enabled {
		state = "on, up to " + core.Dollars(rule.PerGiftMaxCents) + " a gift"
	}
	if monthly != nil {
		state += ", " + core.Dollars(*monthly) + " a month"
	}
	return fmt.Sprintf("%s (version %d)", state, version)
}
