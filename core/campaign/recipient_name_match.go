package campaign

import (
	"strings"

	"github.com/giftwell/giftwell/core"
)

// One person, one gift. An add that names a person by name (and company)
// only, with no recipientId, SourceSystem, externalId, email or profileUrl,
// has no stable identity to match on; sent again after a timeout it would
// be a second person and a second gift. So an add (add_to_playbook,
// add_recipients) of such a person matches the roster person with the same
// name and company, compared without case and with runs of spaces as one
// space (an absent company matches only an absent company): that person is
// answered as already on the roster (alreadyQueued, skipped). Two roster
// people with that name and company make the add ambiguous:
// RECIPIENT_IDENTITY_CONFLICT, asking for the person's recipientId or an
// identifier. Roster replacements (update_campaign's recipients) do not
// match on names. See docs/decisions/.

// AddIdentityOf reads the identities of in for an add: identityOf, plus the
// normalised name and company when in sends no other identifier.
func AddIdentityOf(in RecipientInput) Identity {
	k := identityOf(in)
	if k.ID == "" && k.Email == "" && k.SourceSystem == "" && k.ExternalID == "" && strings.TrimSpace(in.ProfileURL) == "" {
		k.Named = nameKey(in.Name, in.Company)
	}
	return k
}

// nameKey is the normalised name and company a name-only add matches on:
// lowercased, spaces collapsed; "" without a name.
func nameKey(name, company string) string {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	n := norm(name)
	if n == "" {
		return ""
	}
	return n + "\x00" + norm(company)
}

// indexName indexes ix.people[i] by name and company.
func (ix *RosterIndex) indexName(i int) {
	p := ix.people[i]
	if k := nameKey(p.Name, p.Company); k != "" {
		ix.byName[k] = append(ix.byName[k], i)
	}
}

// addNamed appends a person added by the same write to ix, indexed by name
// and company, so that the same name-only person later in the request
// matches them; it returns their position in ix.people.
func (ix *RosterIndex) addNamed(p Person) int {
	ix.people = append(ix.people, p)
	i := len(ix.people) - 1
	ix.indexName(i)
	return i
}

// matchName is match for a name-only add k: the one person with k's name
// and company, -1 for none, and RECIPIENT_IDENTITY_CONFLICT naming path
// when several have them.
func (ix RosterIndex) matchName(k Identity, path string) (int, string, error) {
	found := ix.byName[k.Named]
	switch len(found) {
	case 0:
		return -1, "", nil
	case 1:
		return found[0], "name and company", nil
	}
	ids := make([]string, 0, 3)
	for _, i := range found[:min(3, len(found))] {
		ids = append(ids, ix.people[i].ID)
	}
	return -1, "", core.FieldError(core.CodeRecipientIdentityConflict, path,
		"names %d people on the roster by name and company alone (%s); send the recipientId of the one you mean, or an email, profileUrl or sourceSystem+externalId that tells them apart",
		len(found), strings.Join(ids, ", "))
}
