package campaign

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// Adding people matches them against the roster: the same recipientId, the
// same SourceSystem+externalId, the same email or the same profileUrl is
// the same person. Identities of different people conflict, and so does
// a SourceSystem or externalId other than the one the matched person
// already has: a stable identity, once set, never changes through an add
// (RECIPIENT_IDENTITY_CONFLICT). Every roster write (add_recipients,
// add_to_playbook, update_campaign's recipients) matches through match.

// identity is what an input names a person by, normalised for matching.
type Identity struct {
	ID, Email, Source string
	// SourceSystem and externalId are the input's, each alone (source is
	// the pair, when both are sent).
	SourceSystem, ExternalID string
	// profile is the normalised profileUrl ("" when absent or invalid:
	// ApplyRecipient names an invalid one).
	Profile string
	// named is the normalised name and company of an add that sends no
	// other identifier (AddIdentityOf), else "".
	Named string
}

// identityOf reads the identities of in.
func identityOf(in RecipientInput) Identity {
	k := Identity{ID: strings.TrimSpace(in.RecipientID), Email: core.NormalizeEmail(in.Email)}
	k.SourceSystem, k.ExternalID = strings.TrimSpace(in.SourceSystem), strings.TrimSpace(in.ExternalID)
	if k.SourceSystem != "" && k.ExternalID != "" {
		k.Source = k.SourceSystem + "\x00" + k.ExternalID
	}
	if in.ProfileURL != "" {
		if u, problem := NormalizeLinkedInProfile(in.ProfileURL); problem == "" {
			k.Profile = u
		}
	}
	return k
}

// RosterIndex finds roster people by their identities.
type RosterIndex struct {
	people    []Person
	byID      map[string]int
	byEmail   map[string]int
	bySource  map[string]int
	byProfile map[string]int // the first person with the profileUrl
	byName    map[string][]int
}

func IndexRoster(people []Person) RosterIndex {
	ix := RosterIndex{people: people, byID: map[string]int{}, byEmail: map[string]int{}, bySource: map[string]int{}, byProfile: map[string]int{}, byName: map[string][]int{}}
	for i, p := range people {
		ix.indexName(i)
		ix.byID[p.ID] = i
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
// SourceSystem+externalId than k sends (naming path.sourceSystem or
// path.externalId).
func (ix RosterIndex) Match(k Identity, path string) (int, string, error) {
	found := -1
	var by []string
	try := func(i int, ok bool, what string) error {
		if !ok {
			return nil
		}
		if found >= 0 && found != i {
			return core.FieldError(core.CodeRecipientIdentityConflict, path,
				"its %s belongs to %s but its %s belongs to %s; send one person's identifiers only",
				by[0], ix.people[found].ID, what, ix.people[i].ID)
		}
		found = i
		by = append(by, what)
		return nil
	}
	if k.ID != "" {
		i, ok := ix.byID[k.ID]
		if !ok {
			return -1, "", core.FieldError(core.CodeNotFound, FieldAt(path, "recipientId"), "%s is not on this campaign's roster; read the campaign for its people", core.Clip(k.ID, 60))
		}
		_ = try(i, true, "recipientId")
	}
	if k.Source != "" {
		i, ok := ix.bySource[k.Source]
		if err := try(i, ok, "sourceSystem+externalId"); err != nil {
			return -1, "", err
		}
	}
	if k.Email != "" {
		i, ok := ix.byEmail[k.Email]
		if err := try(i, ok, "email"); err != nil {
			return -1, "", err
		}
	}
	if k.Profile != "" {
		// Two people may share a profileUrl from before it was matched on:
		// the person already found agrees when they have it.
		if found < 0 || ix.people[found].ProfileURL != k.Profile {
			i, ok := ix.byProfile[k.Profile]
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
	if found < 0 && k.Named != "" {
		return ix.matchName(k, path)
	}
	return found, strings.Join(by, " and "), nil
}

// keepsStableIdentity is RECIPIENT_IDENTITY_CONFLICT when k, which matched
// cur by what, sends a SourceSystem or externalId other than the ones cur
// has: once both are set they never change through an add. Filling them
// where cur has none is not a change.
func keepsStableIdentity(cur Person, k Identity, path, what string) error {
	if cur.sourceKey() == "" {
		return nil
	}
	for _, f := range []struct{ field, sent, stored string }{
		{"sourceSystem", k.SourceSystem, cur.SourceSystem},
		{"externalId", k.ExternalID, cur.ExternalID},
	} {
		if f.sent == "" || f.sent == f.stored {
			continue
		}
		return core.FieldError(core.CodeRecipientIdentityConflict, FieldAt(path, f.field),
			"is %q, but the %s matches %s, whose sourceSystem+externalId is %q+%q and never changes; send that person's own identifiers, or add the other record as another person with its own email",
			core.Clip(f.sent, 60), what, cur.ID, core.Clip(cur.SourceSystem, 60), core.Clip(cur.ExternalID, 60))
	}
	return nil
}

// duplicateInRequest is DUPLICATE_RECIPIENT naming the first item that
// names the same person as an earlier item (same recipientId,
// SourceSystem+externalId or email), or nil. A profileUrl twice is not
// one: rosters kept people sharing one before profileUrl was matched on.
func duplicateInRequest(items []RecipientInput) error {
	seen := map[string]int{}
	for j, in := range items {
		k := identityOf(in)
		for _, key := range []struct{ kind, value string }{{"recipientId", k.ID}, {"sourceSystem+externalId", k.Source}, {"email", k.Email}} {
			if key.value == "" {
				continue
			}
			if i, ok := seen[key.kind+"\x00"+key.value]; ok {
				return core.FieldError(core.CodeDuplicateRecipient, fmt.Sprintf("recipients[%d]", j),
					"is the same person as recipients[%d] (same %s); send each person once", i, key.kind)
			}
		}
		for _, key := range []struct{ kind, value string }{{"recipientId", k.ID}, {"sourceSystem+externalId", k.Source}, {"email", k.Email}} {
			if key.value != "" {
				seen[key.kind+"\x00"+key.value] = j
			}
		}
	}
	return nil
}
