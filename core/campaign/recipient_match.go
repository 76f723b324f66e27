package campaign

import (
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// Adding people matches them against the roster: the same recipientId, the
// same sourceSystem+externalId, or the same email is the same person.

// identity is what an input names a person by, normalised for matching.
type identity struct {
	id, email, source string
}

// identityOf reads the identities of in.
func identityOf(in RecipientInput) identity {
	k := identity{id: strings.TrimSpace(in.RecipientID), email: core.NormalizeEmail(in.Email)}
	ss, eid := strings.TrimSpace(in.SourceSystem), strings.TrimSpace(in.ExternalID)
	if ss != "" && eid != "" {
		k.source = ss + "\x00" + eid
	}
	return k
}

// rosterIndex finds roster people by their identities.
type rosterIndex struct {
	people   []person
	byID     map[string]int
	byEmail  map[string]int
	bySource map[string]int
}

func indexRoster(people []person) rosterIndex {
	ix := rosterIndex{people: people, byID: map[string]int{}, byEmail: map[string]int{}, bySource: map[string]int{}}
	for i, p := range people {
		ix.byID[p.id] = i
		if p.Email != "" {
			ix.byEmail[p.Email] = i
		}
		if k := p.sourceKey(); k != "" {
			ix.bySource[k] = i
		}
	}
	return ix
}

// match returns the position in the roster of the person k names and the
// identifiers that matched, or -1 for a new person. It returns NOT_FOUND naming path.recipientId for a
// recipientId not on the roster, and RECIPIENT_IDENTITY_CONFLICT naming
// path when k's identities belong to different people.
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
	return found, strings.Join(by, " and "), nil
}

// duplicateInRequest is DUPLICATE_RECIPIENT naming the first item that
// names the same person as an earlier item (same recipientId,
// sourceSystem+externalId or email), or nil.
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
