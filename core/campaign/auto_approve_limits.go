package campaign

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// While auto-approve is on it spends without a person, within limits a
// signed-in owner or admin set. Every write that can move one of those
// limits compares them before and after and asks AuthorizeSpendLimits:
// raising any of them (or turning auto-approve on) is ActRaiseAutoApprove,
// lowering is open to every role the write itself allows.

// spendLimits are the limits that bound what auto-approve may spend from a
// playbook, and whether its rule is on.
type spendLimits struct {
	autoApprove    bool
	budgetCents    int64
	maxSends       int
	perPersonCents int64
	// monthlyBudgetCents is nil when the playbook has no monthly cap.
	monthlyBudgetCents *int64
	// perGiftMaxCents is the rule's per-gift limit (0: no rule).
	perGiftMaxCents int64
}

// SpendLimitsOf are the limits of campaign state s under rule (nil: none).
func SpendLimitsOf(s Settings, rule *AutoApprove) spendLimits {
	l := spendLimits{budgetCents: s.BudgetCents, maxSends: s.MaxSends, perPersonCents: s.PerPersonCents, monthlyBudgetCents: s.MonthlyBudgetCents}
	if rule != nil {
		l.autoApprove, l.perGiftMaxCents = rule.Enabled, rule.PerGiftMaxCents
	}
	return l
}

// limitRaise is one limit that a write raises, in the spec's field name.
type limitRaise struct {
	field    string
	from, to string
}

// raises lists the limits after holds above before, in the spec's order.
// A monthly budget removed is a raise; one set where there was none is not.
func (before spendLimits) raises(after spendLimits) []limitRaise {
	var out []limitRaise
	cents := func(field string, from, to int64) {
		if to > from {
			out = append(out, limitRaise{field, core.Dollars(from), core.Dollars(to)})
		}
	}
	cents("budgetCents", before.budgetCents, after.budgetCents)
	if after.maxSends > before.maxSends {
		out = append(out, limitRaise{"maxSends", fmt.Sprint(before.maxSends), fmt.Sprint(after.maxSends)})
	}
	cents("perPersonCents", before.perPersonCents, after.perPersonCents)
	switch b, a := before.monthlyBudgetCents, after.monthlyBudgetCents; {
	case b == nil:
	case a == nil:
		out = append(out, limitRaise{"monthlyBudgetCents", core.Dollars(*b), "no monthly cap"})
	default:
		cents("monthlyBudgetCents", *b, *a)
	}
	cents("perGiftMaxCents", before.perGiftMaxCents, after.perGiftMaxCents)
	return out
}

// AuthorizeSpendLimits decides whether p may move campaign campaignID's
// limits from before to after. Nothing is asked while auto-approve is off
// afterwards (turning it off or lowering is always open). Turning it on,
// or raising any limit while it is on (budgetCents, maxSends,
// perPersonCents, monthlyBudgetCents, perGiftMaxCents), needs a signed-in
// owner or admin: TEAM_MANAGER_REQUIRED for a member, HUMAN_APPROVAL_REQUIRED
// with the review URL for a key or connection, naming each limit raised.
func (a *Service) AuthorizeSpendLimits(p core.Principal, campaignID string, before, after spendLimits) error {
	if !after.autoApprove {
		return nil
	}
	var raised []limitRaise
	if before.autoApprove {
		if raised = before.raises(after); len(raised) == 0 {
			return nil
		}
	}
	err := core.Authorize(p, core.ActRaiseAutoApprove, a.Config.ReviewURL(campaignID))
	if err == nil {
		return nil
	}
	e := core.AsError(err)
	if len(raised) == 0 {
		e.Message = "only a signed-in owner or admin turns auto-approve on; a member may lower its limits or turn it off"
		return e
	}
	var msg strings.Builder
	e.Fields = nil
	for _, r := range raised {
		e.Fields = append(e.Fields, r.field)
		fmt.Fprintf(&msg, "%s: would rise from %s to %s; ", r.field, r.from, r.to)
	}
	msg.WriteString("while auto-approve is on, only a signed-in owner or admin raises the limits that bound what it spends; a member may lower them or turn auto-approve off")
	if e.Code == core.CodeHumanApprovalRequired {
		msg.WriteString("; a signed-in owner or admin does it at the url")
	}
	e.Message = msg.String()
	return e
}
