package approval

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// An add to an active playbook costs the same on an empty roster as on a
// full one, and adds of different people do not wait for each other:
//
//   - the playbook is locked FOR SHARE (lockPlaybookForAdd): every write to
//     the campaign itself, and every other roster write, locks it FOR
//     UPDATE and so never runs beside an add, but adds share it;
//   - each identity the add names (recipientId, SourceSystem+externalId,
//     email, profileUrl, or name and company) is locked for the
//     transaction (lockIdentities), so two adds of one person take turns
//     and the second finds the first's person;
//   - the people those identities can match are read through indexes
//     (loadCandidates) and matched exactly as against the whole roster;
//   - the roster's size comes from its counter and the next position from
//     an index, read as the playbook is locked (PlaybookLockForAdd); the
//     database checks the 2,000-person bound once more as the add commits
//     (rosterBoundError), so concurrent
//     adds never take a roster past it and wait for each other only while
//     they commit.
//
// Auto-approve then takes the balance lock without waiting, as before: an
// add that meets another approval is scheduled.

// lockPlaybookShared reads campaign id of the workspace and locks it FOR
// SHARE, as an add does (lockPlaybookForAdd).
func lockPlaybookShared(ctx context.Context, q *db.Queries, workspaceID, id string) (campaign.Record, error) {
	row, err := q.CampaignGetForShare(ctx, db.CampaignGetForShareParams{WorkspaceID: workspaceID, ID: id})
	if core.IsNoRows(err) {
		return campaign.Record{}, campaign.NotFound(id)
	}
	if err != nil {
		return campaign.Record{}, err // the caller tells a lock timeout apart
	}
	c, err := campaign.RecordFromRow(row)
	if err != nil {
		return campaign.Record{}, core.Internal(err)
	}
	return c, nil
}

// lockPlaybookForAdd locks playbook ask.ID of workspace ask.WorkspaceID
// FOR SHARE for an add and reads it, with what adding a new person needs
// (PlaybookLockForAdd: the roster's size and next position, the checkout in
// progress and the person's prior gift by ask's identities).
func lockPlaybookForAdd(ctx context.Context, q *db.Queries, ask db.PlaybookLockForAddParams) (campaign.Record, db.PlaybookLockForAddRow, error) {
	row, err := q.PlaybookLockForAdd(ctx, ask)
	if core.IsNoRows(err) {
		return campaign.Record{}, row, campaign.NotFound(ask.ID)
	}
	if err != nil {
		return campaign.Record{}, row, err // the caller tells a lock timeout apart
	}
	c, err := campaign.RecordFromRow(row.Campaign)
	if err != nil {
		return campaign.Record{}, row, core.Internal(err)
	}
	return c, row, nil
}

// identityKeys are the lock keys of the identities k names on playbook
// campaignID, sorted.
func identityKeys(campaignID string, k campaign.Identity) []string {
	var keys []string
	for _, f := range []struct{ kind, value string }{
		{"id", k.ID}, {"source", k.Source}, {"email", k.Email}, {"profile", k.Profile}, {"name", k.Named},
	} {
		if f.value != "" {
			// Text holds no NUL: the pair and name keys' separators become \x1f.
			keys = append(keys, strings.ReplaceAll("giftwell playbook add\x1f"+campaignID+"\x1f"+f.kind+"\x1f"+f.value, "\x00", "\x1f"))
		}
	}
	slices.Sort(keys)
	return keys
}

// lockIdentities locks, for the transaction of q, each identity k names on
// playbook campaignID.
func lockIdentities(ctx context.Context, q *db.Queries, campaignID string, k campaign.Identity) error {
	keys := identityKeys(campaignID, k)
	if len(keys) == 0 {
		return nil
	}
	if err := q.PlaybookAddLockIdentities(ctx, keys); err != nil {
		return core.Internal(err)
	}
	return nil
}

// loadCandidates reads the people of playbook campaignID whom k can match,
// in roster order (without their gifts): through the indexes on
// recipientId, SourceSystem+externalId, email and profileUrl. A name-only
// add (k.named) matches by name and company, which no index holds in Go's
// normal form: it reads the roster, as every add did before.
func loadCandidates(ctx context.Context, q *db.Queries, campaignID string, k campaign.Identity) (campaign.Roster, error) {
	if k.Named != "" {
		return campaign.LoadRoster(ctx, q, campaignID)
	}
	rows, err := q.RecipientCandidatesForAdd(ctx, db.RecipientCandidatesForAddParams{
		CampaignID: campaignID, RecipientID: k.ID, SourceSystem: k.SourceSystem, ExternalID: k.ExternalID,
		Email: k.Email, ProfileUrl: k.Profile,
	})
	if err != nil {
		return campaign.Roster{}, core.Internal(err)
	}
	v := campaign.Roster{People: make([]campaign.Person, 0, len(rows))}
	for _, r := range rows {
		p, err := campaign.PersonFromRow(r)
		if err != nil {
			return campaign.Roster{}, core.Internal(err)
		}
		v.People = append(v.People, p)
	}
	return v, nil
}

// rosterBoundConstraint names the check the database makes at the commit
// of a write that would take a roster past 2,000 people (migration 00022:
// campaign_roster_sizes and its deferred trigger).
const rosterBoundConstraint = "campaign_roster_bound"

// rosterBoundError is the add's answer when its commit failed the roster
// bound (other adds filled the roster meanwhile), or nil for any other err.
func rosterBoundError(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.ConstraintName != rosterBoundConstraint {
		return nil
	}
	var pr campaign.Problems
	rosterFull(&pr, core.RecipientsPerPlaybook)
	return pr.ErrOnAdd()
}

// rosterFull is the problem of an add to a playbook holding people people.
func rosterFull(pr *campaign.Problems, people int) {
	pr.Add(playbookPath, "the playbook already holds %d people, the most a playbook holds; complete it and start a new playbook", people)
}
