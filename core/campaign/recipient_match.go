package campaign

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// Adding people matches them against the roster: the same recipientId, the
// same sourceSystem+externalId, the same email or the same profileUrl is
// the same person. Identities of different people conflict, and so does
// a sourceSystem or externalId other than the one the matched person
// already has: a stable identity, once set, never changes through an add
// (RECIPIENT_IDENTITY_CONFLICT). Every roster write (add_recipients,
// add_to_playbook, update_campaign's recipients) matches through match.

// identity is what an input names a person by, normalised for matching.
type identity struct {
	id, email, source string
	// sourceSystem and externalId are the input's, each alone (source is
	// the pair, when both are sent).
	sourceSystem, externalID string
	// profile is the normalised profileUrl ("" when absent or invalid:
	// applyRecipient names an invalid one).
	profile string
	// named is the normalised name and company of an add that sends no
	// other identifier (addIdentityOf), else "".
	named string
}

// identityOf reads the identities of in.
func identityOf(in RecipientInput) identity {
	k := identity{id: strings.TrimSpace(in.RecipientID), email: core.NormalizeEmail(in.Email)}
	k.sourceSystem, k.externalID = strings.TrimSpace(in.SourceSystem), strings.TrimSpace(in.ExternalID)
	if k.sourceSystem != "" && k.externalID != "" {
		k.source = k.sourceSystem + "\x00" + k.externalID
	}
	if in.ProfileURL != "" {
		if u, problem := NormalizeLinkedInProfile(in.ProfileURL); problem == "" {
			k.profile = u
		}
	}
	return k
}

// rosterIndex finds roster people by their identities.
type rosterIndex struct {
	people    []person
	byID      map[string]int
	byEmail   map[string]int
	bySource  map[string]int
	byProfile map[string]int // the first person with the profileUrl
	byName    map[string][]int
}

func indexRoster(people []person) rosterIndex {
	ix := rosterIndex{people: people, byID: map[string]int{}, byEmail: map[string]int{}, bySource: map[string]int{}, byProfile: map[string]int{}, byName: map[string][]int{}}
	for i, p := range people {
		ix.indexName(i)
		ix.byID[p.id] = i
		if p.Email != "" {
			ix.byEmail[p.Email] = i
		}
		if k := p.sourceKey(); k != "" {
			ix.bySource[k] = i
		}
		if _, seen := ix.byProfile[p.ProfileURL]; p.ProfileURL != "" && !seen {
			ix.byProfile[p.ProfileURL] = i
		}
	}
	return ix
}

// match returns the position in the roster of the person k names and the
// identifiers that matched, or -1 for a new person. It returns NOT_FOUND
// naming path.recipientId for a recipientId not on the roster, and
// RECIPIENT_IDENTITY_CONFLICT when k's identities belong to different
// people (naming path) or when the person they match has another
// sourceSystem+externalId than k sends (naming path.sourceSystem or
// path.externalId).
func (ix rosterIndex) match(k identity, path string) (int, string, error) {
	found := -1
	var by []string
	try := func(i int, ok bool, what string) error {
		if !ok {
			return nil
		}
		if found >= 0 && found != i {
			return core.FieldError(core.CodeRecipientIdentityConflict, path,
				"its %s belongs to %s but its %s belongs to %s; send one person's identifiers only",
				by[0], ix.people[found].id, what, ix.people[i].id)
		}
		found = i
		by = append(by, what)
		return nil
	}
	if k.id != "" {
		i, ok := ix.byID[k.id]
		if !ok {
			return -1, "", core.FieldError(core.CodeNotFound, at(path, "recipientId"), "%s is not on this campaign's roster; read the campaign for its people", core.Clip(k.id, 60))
		}
		_ = try(i, true, "recipientId")
	}
	if k.source != "" {
		i, ok := ix.bySource[k.source]
		if err := try(i, ok, "sourceSystem+externalId"); err != nil {
			return -1, "", err
		}
	}
	if k.email != "" {
		i, ok := ix.byEmail[k.email]
		if err := try(i, ok, "email"); err != nil {
			return -1, "", err
		}
	}
	if k.profile != "" {
		// Two people may share a profileUrl from before it was matched on:
		// the person already found agrees when they have it.
		if found < 0 || ix.people[found].ProfileURL != k.profile {
			i, ok := ix.byProfile[k.profile]
			if err := try(i, ok, "profileUrl"); err != nil {
				return -1, "", err
			}
		}
	}
	if found >= 0 {
		if err := keepsStableIdentity(ix.people[found], k, path, by[0]); err != nil {
			return -1, "", err
		}
	}
	if found < 0 && k.named != "" {
		return ix.matchName(k, path)
	}
	return found, strings.Join(by, " and "), nil
}

// keepsStableIdentity is RECIPIENT_IDENTITY_CONFLICT when k, which matched
// cur by what, sends a sourceSystem or externalId other than the ones cur
// has: once both are set they never change through an add. Filling them
// where cur has none is not a change.
func keepsStableIdentity(cur person, k identity, path, what string) error {
	if cur.sourceKey() == "" {
		return nil
	}
	for _, f := range []struct{ field, sent, stored string }{
		{"sourceSystem", k.sourceSystem, cur.SourceSystem},
		{"externalId", k.externalID, cur.ExternalID},
	} {
		if f.sent == "" || f.sent == f.stored {
			continue
		}
		return core.FieldError(core.CodeRecipientIdentityConflict, at(path, f.field),
			"is %q, but the %s matches %s, whose sourceSystem+externalId is %q+%q and never changes; send that person's own identifiers, or add the other record as another person with its own email",
			core.Clip(f.sent, 60), what, cur.id, core.Clip(cur.SourceSystem, 60), core.Clip(cur.ExternalID, 60))
	}
	return nil
}

// duplicateInRequest is DUPLICATE_RECIPIENT naming the first item that
// names the same person as an earlier item (same recipientId,
// sourceSystem+externalId or email), or nil. A profileUrl twice is not
// one: rosters kept people sharing one before profileUrl was matched on.
func duplicateInRequest(items []RecipientInput) error {
	seen := map[string]int{}
	for j, in := range items {
		k := identityOf(in)
		for _, key := range []struct{ kind, value string }{{"recipientId", k.id}, {"sourceSystem+externalId", k.source}, {"email", k.email}} {
			if key.value == "" {
				continue
			}
			if i, ok := seen[key.kind+"\x00"+key.value]; ok {
				return core.FieldError(core.CodeDuplicateRecipient, fmt.Sprintf("recipients[%d]", j),
					"is the same person as recipients[%d] (same %s); send each person once", i, key.kind)
			}
		}
		for _, key := range []struct{ kind, value string }{{"recipientId", k.id}, {"sourceSystem+externalId", k.source}, {"email", k.email}} {
			if key.value != "" {
				seen[key.kind+"\x00"+key.value] = j
			}
		}
	}
	return nil
}
