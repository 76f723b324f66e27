package core

import "fmt"

// The Activity page and its CSV say each action in one plain sentence,
// naming who did it first and where any money went.

// Words names the actor in a sentence: the person, "Key 'HubSpot agent'",
// "The app 'Claude' (connected by ana@example.com)", "The auto-approve
// rule (version 3)", or Giftwell.
func (x Actor) Words() string {
	switch x.Kind {
	case ActorPerson:
		return orWords(x.Name, orWords(x.Email, "A person who has left"))
	case ActorKey:
		if x.Name == "" {
			return "A removed key"
		}
		return "Key '" + x.Name + "'"
	case ActorConnection:
		app := "A connected app"
		if x.Name != "" {
			app = "The app '" + x.Name + "'"
		}
		if x.Email != "" {
			app += " (connected by " + x.Email + ")"
		}
		return app
	case ActorRule:
		if x.RuleVersion > 0 {
			return fmt.Sprintf("The auto-approve rule (version %d)", x.RuleVersion)
		}
		return "The auto-approve rule"
	}
	return GiftwellActorName
}

// KindWords says what kind of actor x is, in a word: person, key, app,
// rule or Giftwell.
func (x Actor) KindWords() string {
	switch x.Kind {
	case ActorPerson:
		return "person"
	case ActorKey:
		return "key"
	case ActorConnection:
		return "app"
	case ActorRule:
		return "rule"
	}
	return GiftwellActorName
}

// Sentence says the action in plain words: "Ana Ruiz approved a $120 gift
// for Sam Lee on Closed-won thank-you, paid from the balance".
func (x Activity) Sentence() string {
	who := x.Actor.Words()
	on := x.onWords()
	amount := Dollars(x.AmountCents)
	var s string
	switch x.Kind {
	case ActivityPrepared:
		s = fmt.Sprintf("%s prepared a gift for %s%s", who, x.recipientWords(), on)
	case ActivityApproved:
		paid := "paid from the balance"
		if x.Subject == "checkout" {
			paid = "paid by card at checkout"
		}
		s = fmt.Sprintf("%s approved a %s gift for %s%s, %s", who, amount, x.recipientWords(), on, paid)
	case ActivitySkipped:
		s = fmt.Sprintf("%s skipped %s%s", who, x.recipientWords(), on)
		if x.Subject != "" {
			s += ": " + x.Subject
		}
	case ActivityUnskipped:
		s = fmt.Sprintf("%s put %s back in the queue%s", who, x.recipientWords(), on)
	case ActivityCheckoutPaid:
		s = fmt.Sprintf("%s paid %s by card for %s%s", who, amount, orWords(x.Subject, "gifts"), on)
	case ActivityTopupPaid:
		s = fmt.Sprintf("%s added %s to the balance by card", who, amount)
	case ActivityRefunded:
		s = fmt.Sprintf("%s refunded the %s gift for %s%s %s", who, amount, x.recipientWords(), on, orWords(x.Subject, "to the balance"))
	case ActivityLimitsChanged:
		s = fmt.Sprintf("%s changed the spending limits%s to %s", who, on, x.Subject)
	case ActivityAutoApproveChanged:
		s = fmt.Sprintf("%s set auto-approve%s to %s", who, on, x.Subject)
	case ActivityKeyCreated:
		s = fmt.Sprintf("%s created the key '%s'", who, x.Subject)
	case ActivityKeyRevoked:
		s = fmt.Sprintf("%s revoked the key '%s'", who, x.Subject)
	case ActivityAppConnected:
		s = fmt.Sprintf("%s connected the app '%s'", who, orWords(x.Subject, "without a name"))
	case ActivityAppDisconnected:
		s = fmt.Sprintf("%s disconnected the app '%s'", who, orWords(x.Subject, "without a name"))
	default:
		s = who + " did something"
	}
	if x.Mode == ModeTest && x.AmountCents > 0 {
		s += " (test mode, no real money)"
	}
	return s
}

// recipientWords names the person an action was about.
func (x Activity) recipientWords() string { return orWords(x.Recipient, "a person") }

// onWords names the playbook an action was on (" on Closed-won thank-you").
func (x Activity) onWords() string {
	if x.CampaignName == "" {
		return ""
	}
	return " on " + x.CampaignName
}

// orWords is s, or alt when s is empty.
func orWords(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
