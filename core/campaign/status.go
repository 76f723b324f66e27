package campaign

import (
	"context"
	"fmt"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// The spec's Campaign status table, as UpdateCampaign, AddRecipients and
// ManageRecipients apply it:
//
//	(none)     create (key or connection)            -> draft; keys cannot create active (HUMAN_APPROVAL_REQUIRED)
//	draft      a signed-in person turns a playbook on -> active (batch and single go through checkout)
//	paused     a signed-in person turns it on         -> active
//	active     key edit of content                    -> draft (returned for review; policyVersion increases)
//	paused     key edit of content                    -> paused
//	any        PATCH status paused or completed       -> paused or completed (any key; not connections)
//	active playbook: adds, and a recipients-only PATCH that keeps everyone and appends, need no version and stay on
//	active batch/single or draft batch: adds need the version -> draft; limits expand to fit
//	completed  any change                             -> CAMPAIGN_COMPLETED
//	draft or paused playbook: add a person (add_to_playbook) -> PLAYBOOK_OFF (the playbook issue)
//	paid at checkout: become a playbook               -> MODE_LOCKED (modeLock)
//
// An open or paid checkout locks edits with CHECKOUT_LOCKED (CheckoutLock).

// CampaignCompleted is CAMPAIGN_COMPLETED: a completed campaign refuses every change.
func CampaignCompleted(id string) *core.Error {
	return core.Errorf(core.CodeCampaignCompleted, "campaign %s is completed and refuses every change; create a new campaign", id)
}

// CheckoutLock is where CHECKOUT_LOCKED is decided: a checkout in progress
// (creating, open or paid) locks a campaign's edits until it is cancelled
// or expires, or until its paid gifts are prepared (consumed). Every write
// to a campaign or its roster calls it inside its transaction, after
// locking the campaign; a checkout is opened under the same lock, so an
// edit and a checkout never both win. An unpaid checkout whose time is up
// no longer locks (core/billing records its expiry).
func (a *Service) CheckoutLock(ctx context.Context, q *db.Queries, c Record) error {
	id, state, busy, err := CheckoutInProgress(ctx, q, c.WorkspaceID, c.ID, a.Clock.Now())
	if err != nil || !busy {
		return err
	}
	return a.checkoutLocked(c, id, state)
}

// CheckoutLockOf is CheckoutLock with c's checkout in progress already
// read under c's lock (as CheckoutInProgress reads it; id "" for none).
func (a *Service) CheckoutLockOf(c Record, id, state string, expiresAt time.Time) error {
	if id == "" || CheckoutLapsed(state, expiresAt, a.Clock.Now()) {
		return nil
	}
	return a.checkoutLocked(c, id, state)
}

// checkoutLocked is the CHECKOUT_LOCKED refusal of an edit to c while
// checkout id is in state.
func (a *Service) checkoutLocked(c Record, id, state string) error {
	return &core.Error{Code: core.CodeCheckoutLocked, URL: a.Config.ReviewURL(c.ID),
		Message: fmt.Sprintf("campaign %s has checkout %s %s: edits wait until it is cancelled or expires, or until launch has prepared its paid gifts", c.ID, id, state)}
}

// modeLock is where MODE_LOCKED is decided: a campaign paid at checkout
// cannot become a playbook. UpdateCampaign calls it when a write changes a
// batch or single campaign's mode to always_on.
func (a *Service) modeLock(ctx context.Context, q *db.Queries, c Record) error {
	paid, err := q.CheckoutPaidExists(ctx, db.CheckoutPaidExistsParams{WorkspaceID: c.WorkspaceID, CampaignID: c.ID})
	if err != nil {
		return core.Internal(err)
	}
	if paid {
		return core.FieldError(core.CodeModeLocked, "mode", "campaign %s was paid at checkout and cannot become a playbook; create a playbook instead", c.ID)
	}
	return nil
}

// authorizeStatus decides whether p may ask for status: active needs a
// signed-in person (keys and connections get HUMAN_APPROVAL_REQUIRED with
// the review URL); paused and completed any key or person (connections get
// HUMAN_APPROVAL_REQUIRED); draft is never asked for (a key's content edit
// returns a campaign to draft by itself).
func (a *Service) authorizeStatus(p core.Principal, c Record, status CampaignStatus) error {
	url := a.Config.ReviewURL(c.ID)
	switch status {
	case StatusActive:
		if err := core.Authorize(p, core.ActActivate, url); err != nil {
			if e := core.AsError(err); e.Code == core.CodeHumanApprovalRequired {
				e.Message = "status: only a signed-in person turns a campaign on; hand the url to a person, who reviews it and turns it on"
				e.Fields = []string{"status"}
			}
			return err
		}
	case StatusPaused, StatusCompleted:
		if err := core.Authorize(p, core.ActPauseOrComplete, url); err != nil {
			if e := core.AsError(err); e.Code == core.CodeHumanApprovalRequired {
				e.Message = "status: a sign-in connection cannot pause or complete a campaign; hand the url to a person or use a workspace key"
				e.Fields = []string{"status"}
			}
			return err
		}
	case StatusDraft:
		if c.Status != StatusDraft {
			return core.Invalid("status", "cannot be set to draft: a key's edit returns an active campaign to draft by itself; to stop a campaign set paused or completed")
		}
	default:
		return core.Invalid("status", "must be one of draft, active, paused, completed")
	}
	return nil
}

// nextStatus is the status after a write by p to c. requested is the
// status the write asks for (nil: none); contentChanged whether it changes
// anything but the status; keepsOn whether it is an add to an active
// playbook, which stays on. A signed-in person's content edits keep the
// status (they are the reviewer); a key's or connection's return an active
// campaign to draft. A signed-in person turns a playbook or a paused
// campaign on; a draft batch or single is activated by paying at checkout
// (INVALID_REQUEST until the billing issue).
func nextStatus(p core.Principal, c Record, mode CampaignMode, requested *CampaignStatus, contentChanged, keepsOn bool) (CampaignStatus, error) {
	if requested != nil {
		if *requested == StatusActive && c.Status != StatusActive && !mode.Playbook() && c.Status != StatusPaused {
			return "", activatedAtCheckout(mode)
		}
		return *requested, nil
	}
	if contentChanged && !keepsOn && p.Via != core.ViaSession && c.Status == StatusActive {
		return StatusDraft, nil
	}
	return c.Status, nil
}

// activatedAtCheckout is INVALID_REQUEST (409): a draft batch or single
// is turned on by paying for it at checkout, which the billing issue adds.
func activatedAtCheckout(mode CampaignMode) *core.Error {
	return &core.Error{Code: core.CodeInvalidRequestState, Fields: []string{"status"},
		Message: "status: a " + string(mode) + " campaign is turned on by paying for it at checkout: a signed-in owner or admin does it at the review page (Pay and launch)"}
}

// CheckVersion applies the version rule of writes: keys and connections
// must send expectedPolicyVersion (VALIDATION_ERROR naming it) unless
// versionFree (an add to an active playbook); a version that is sent must
// be current (POLICY_CHANGED). A signed-in person may leave it out.
func CheckVersion(p core.Principal, c Record, expected int64, versionFree bool) error {
	if expected == 0 {
		if p.Via != core.ViaSession && !versionFree {
			return core.Invalid("expectedPolicyVersion", "is required: send the campaign's current policyVersion (%d when last written; read the campaign to be sure)", c.PolicyVersion)
		}
		return nil
	}
	if expected != c.PolicyVersion {
		return PolicyChanged(c.PolicyVersion)
	}
	return nil
}

// connectionDraftsOnly refuses a sign-in connection's edit of a campaign
// that is not a draft: connections create and edit drafts only.
func (a *Service) connectionDraftsOnly(p core.Principal, c Record) error {
	if p.Via == core.ViaConnection && c.Status != StatusDraft {
		return &core.Error{Code: core.CodeHumanApprovalRequired, URL: a.Config.ReviewURL(c.ID),
			Message: "sign-in connections edit drafts only; this campaign is " + string(c.Status) + ": hand the url to a person, or use a workspace key"}
	}
	return nil
}
