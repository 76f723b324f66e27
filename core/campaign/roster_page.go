package campaign

import (
	"context"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
)

// A whole roster is large (about 820 bytes a person, 1.6 MB for a full
// playbook), so the MCP faces read it a page at a time: get_campaign takes
// rosterLimit and rosterCursor, and the writes that return a campaign
// return its first page. REST keeps the spec's whole roster.

const (
	// DefaultRosterLimit is how many roster people a page holds when no
	// rosterLimit is sent: a result stays under about 50 KB.
	DefaultRosterLimit = 50
	// MaxRosterLimit is the largest rosterLimit.
	MaxRosterLimit = 500
)

// RosterCounts counts a campaign's roster.
type RosterCounts struct {
	Total  int `json:"total" jsonschema:"people on the roster"`
	Gifted int `json:"gifted" jsonschema:"people with a gift (sendId)"`
}

// CampaignPage is a campaign with one page of its roster: Recipients holds
// at most the page's limit, RosterNextCursor reads on.
type CampaignPage struct {
	Campaign
	RosterCounts     RosterCounts `json:"rosterCounts" jsonschema:"the whole roster's counts"`
	RosterNextCursor *string      `json:"rosterNextCursor" jsonschema:"pass as get_campaign's rosterCursor for more; null at the end"`
}

// RosterPageInput names one page of a roster.
type RosterPageInput struct {
	// Limit is the page size, 1-MaxRosterLimit; 0 means DefaultRosterLimit.
	Limit int
	// Cursor is a rosterNextCursor, or empty for the first page.
	Cursor string
}

// rosterCursor is the decoded form of a rosterNextCursor: the roster index
// the next page starts at and the recipientId before it, so that a page
// read after people left still starts after the person last read.
type rosterCursor struct {
	Offset int    `json:"o"`
	After  string `json:"r"`
}

// rosterBind ties a roster cursor to its workspace and campaign.
func rosterBind(workspaceID, campaignID string) string { return workspaceID + "/" + campaignID }

// GetCampaignPage is GetCampaign with one page of the roster (in.Limit
// people from in.Cursor), the roster's counts and the cursor to read on. It
// returns VALIDATION_ERROR naming rosterCursor for a cursor not issued for
// this campaign, and the codes of GetCampaign.
func (a *Service) GetCampaignPage(ctx context.Context, p core.Principal, id string, in RosterPageInput) (CampaignPage, error) {
	c, err := a.GetCampaign(ctx, p, id)
	if err != nil {
		return CampaignPage{}, err
	}
	return PageRoster(c, p.WorkspaceID, in)
}

// PageRoster cuts c's roster to the page in names and counts it; a write's
// answer is its first page (in zero). It returns VALIDATION_ERROR naming
// rosterCursor for a cursor not issued for c in workspaceID.
func PageRoster(c Campaign, workspaceID string, in RosterPageInput) (CampaignPage, error) {
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultRosterLimit
	}
	limit = min(limit, MaxRosterLimit)
	all := c.Recipients
	out := CampaignPage{Campaign: c, RosterCounts: RosterCounts{Total: len(all)}}
	for _, r := range all {
		if r.SendID != "" {
			out.RosterCounts.Gifted++
		}
	}
	start := 0
	if in.Cursor != "" {
		var cur rosterCursor
		if !core.OpenCursor(in.Cursor, rosterBind(workspaceID, c.ID), catalog.CursorCheckLen, &cur) || cur.Offset < 0 {
			return CampaignPage{}, core.Invalid("rosterCursor", "is not a rosterNextCursor of this campaign; pass it unchanged, or omit it to start from the beginning")
		}
		start = min(cur.Offset, len(all))
		for i, r := range all {
			if r.RecipientID == cur.After {
				start = i + 1
				break
			}
		}
	}
	end := min(start+limit, len(all))
	out.Recipients = all[start:end]
	if end < len(all) {
		next := core.SealCursor(rosterCursor{Offset: end, After: all[end-1].RecipientID}, rosterBind(workspaceID, c.ID), catalog.CursorCheckLen)
		out.RosterNextCursor = &next
	}
	return out, nil
}

// FirstPage is c with the first DefaultRosterLimit people of its roster:
// what a write returns over MCP.
func FirstPage(c Campaign, workspaceID string) CampaignPage {
	page, _ := PageRoster(c, workspaceID, RosterPageInput{}) // no cursor: no error
	return page
}

// RecipientsAddedPage is add_recipients' answer with the roster's first page.
type RecipientsAddedPage struct {
	CampaignPage
	Added   []string           `json:"added" jsonschema:"recipientIds of the people added, in request order"`
	Skipped []SkippedRecipient `json:"skipped" jsonschema:"people already on the roster, left as they are"`
}

// Page is r with the roster's first page.
func (r RecipientsAdded) Page(workspaceID string) RecipientsAddedPage {
	return RecipientsAddedPage{CampaignPage: FirstPage(r.Campaign, workspaceID), Added: r.Added, Skipped: r.Skipped}
}

// RecipientsManagedPage is manage_recipients' answer with the roster's
// first page.
type RecipientsManagedPage struct {
	CampaignPage
	Action       RecipientAction `json:"action" jsonschema:"the action done" schema:"enum=message|remove"`
	RecipientIDs []string        `json:"recipientIds" jsonschema:"the people it was done to"`
}

// Page is r with the roster's first page.
func (r RecipientsManaged) Page(workspaceID string) RecipientsManagedPage {
	return RecipientsManagedPage{CampaignPage: FirstPage(r.Campaign, workspaceID), Action: r.Action, RecipientIDs: r.RecipientIDs}
}
