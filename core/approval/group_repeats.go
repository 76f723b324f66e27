package approval

import "github.com/giftwell/giftwell/core/campaign"

// groupGifted is who a group has paid a gift for so far, by identity:
// the people it decides come from several playbooks, and one may be the
// same person (by email, sourceSystem+externalId or profile, the
// identities SendPriorForRecipients matches) as another whose gift the
// group just made, which no read before the group's first write can
// see. The zero value is ready to use.
type groupGifted map[string][]groupGift

// groupGift is one gift a group made: its playbook and ID.
type groupGift struct {
	campaignID, sendID string
}

// identityKeysOf are the identities who is matched by as a repeat, each
// keyed by its kind.
func identityKeysOf(who campaign.Person) []string {
	var keys []string
	if who.Email != "" {
		keys = append(keys, "email\x00"+who.Email)
	}
	if who.SourceSystem != "" {
		keys = append(keys, "source\x00"+who.SourceSystem+"\x00"+who.ExternalID)
	}
	if who.ProfileURL != "" {
		keys = append(keys, "profile\x00"+who.ProfileURL)
	}
	return keys
}

// add records the gift sendID made for who of playbook campaignID.
func (g groupGifted) add(campaignID string, who campaign.Person, sendID string) {
	for _, k := range identityKeysOf(who) {
		g[k] = append(g[k], groupGift{campaignID: campaignID, sendID: sendID})
	}
}

// priorOf is a gift the group made for the same person as who through
// another playbook than campaignID, which makes who a repeat, or "".
func (g groupGifted) priorOf(campaignID string, who campaign.Person) string {
	for _, k := range identityKeysOf(who) {
		for _, made := range g[k] {
			if made.campaignID != campaignID {
				return made.sendID
			}
		}
	}
	return ""
}
