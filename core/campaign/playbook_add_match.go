package campaign

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// An add to an active playbook costs the same on an empty roster as on a
// full one, and adds of different people do not wait for each other:
//
//   - the playbook is locked FOR SHARE (lockPlaybookShared): every write to
//     the campaign itself, and every other roster write, locks it FOR
//     UPDATE and so never runs beside an add, but adds share it;
//   - each identity the add names (recipientId, sourceSystem+externalId,
//     email, profileUrl, or name and company) is locked for the
//     transaction (lockIdentities), so two adds of one person take turns
//     and the second finds the first's person;
//   - the people those identities can match are read through indexes
//     (loadCandidates) and matched exactly as against the whole roster;
//   - the roster's size comes from its counter and the next position from
//     an index (RecipientRosterSize); the database checks the 2,000-person
//     bound once more as the add commits (rosterBoundError), so concurrent
//     adds never take a roster past it and wait for each other only while
//     they commit.
//
// Auto-approve then takes the balance lock without waiting, as before: an
// add that meets another approval is scheduled.

// lockPlaybookShared reads campaign id of the workspace and locks it FOR
// SHARE for an add.
func lockPlaybookShared(ctx context.Context, q *db.Queries, workspaceID, id string) (campaignRecord, error) {
	row, err := q.CampaignGetForShare(ctx, db.CampaignGetForShareParams{WorkspaceID: workspaceID, ID: id})
	if core.IsNoRows(err) {
		return campaignRecord{}, campaignNotFound(id)
	}
	if err != nil {
		return campaignRecord{}, err // the caller tells a lock timeout apart
	}
	c, err := campaignFromRow(row)
	if err != nil {
		return campaignRecord{}, core.Internal(err)
	}
	return c, nil
}

// identityKeys are the lock keys of the identities k names on playbook
// campaignID, sorted.
func identityKeys(campaignID string, k identity) []string {
	var keys []string
	for _, f := range []struct{ kind, value string }{
		{"id", k.id}, {"source", k.source}, {"email", k.email}, {"profile", k.profile}, {"name", k.named},
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
func lockIdentities(ctx context.Context, q *db.Queries, campaignID string, k identity) error {
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
// recipientId, sourceSystem+externalId, email and profileUrl. A name-only
// add (k.named) matches by name and company, which no index holds in Go's
// normal form: it reads the roster, as every add did before.
func loadCandidates(ctx context.Context, q *db.Queries, campaignID string, k identity) (rosterView, error) {
	if k.named != "" {
		return loadRoster(ctx, q, campaignID)
	}
	rows, err := q.RecipientCandidatesForAdd(ctx, db.RecipientCandidatesForAddParams{
		CampaignID: campaignID, RecipientID: k.id, SourceSystem: k.sourceSystem, ExternalID: k.externalID,
		Email: k.email, ProfileUrl: k.profile,
	})
	if err != nil {
		return rosterView{}, core.Internal(err)
	}
	v := rosterView{people: make([]person, 0, len(rows))}
	for _, r := range rows {
		p, err := personFromRow(r)
		if err != nil {
			return rosterView{}, core.Internal(err)
		}
		v.people = append(v.people, p)
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
	var pr problems
	rosterFull(&pr, core.RecipientsPerPlaybook)
	return pr.errOnAdd()
}

// rosterFull is the problem of an add to a playbook holding people people.
func rosterFull(pr *problems, people int) {
	pr.add(playbookPath, "the playbook already holds %d people, the most a playbook holds; complete it and start a new playbook", people)
}
