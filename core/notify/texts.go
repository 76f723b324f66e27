package notify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/sql/db"
)

// maxReasons is how many reasons a waiting email names.
const maxReasons = 3

// reason is one reason people wait, in the queue's words, with how many.
type reason struct {
	Why    string
	People int
}

// waiting is what a waiting email says: how many people wait, what their
// gifts cost together, and why they wait, most common first.
type waiting struct {
	Name    string
	People  int
	Cents   int64
	Reasons []reason
}

// summarize counts the waiting people of items (not the scheduled, whom
// auto-approve decides), their total, and their reasons: each reason's
// text is the queue's why of its first person (QueueItem.Why, the texts
// the web app, MCP and REST show).
func summarize(items []approval.QueueItem) waiting {
	var w waiting
	at := map[campaign.ApprovalReason]int{}
	for _, it := range items {
		if it.State != campaign.ApprovalWaiting {
			continue
		}
		w.Name = it.CampaignName
		w.People++
		w.Cents += it.PriceCents
		if i, ok := at[it.WaitsFor]; ok {
			w.Reasons[i].People++
			continue
		}
		at[it.WaitsFor] = len(w.Reasons)
		w.Reasons = append(w.Reasons, reason{Why: it.Why, People: 1})
	}
	slices.SortStableFunc(w.Reasons, func(a, b reason) int { return b.People - a.People })
	if len(w.Reasons) > maxReasons {
		w.Reasons = w.Reasons[:maxReasons]
	}
	return w
}

// funds is what a balance_stopped email says: how many people wait only
// for funds, on which playbooks, and what to add.
type funds struct {
	People    int
	AddCents  int64
	Playbooks []string
}

// fundsWait reads, from the workspace's queue, the people who wait only
// for funds and the amount that pays for all of them.
func fundsWait(items []approval.QueueItem) funds {
	var f funds
	for _, it := range items {
		if it.FundsShortCents <= 0 {
			continue
		}
		f.People++
		f.AddCents = it.FundsShortCents
		if !slices.Contains(f.Playbooks, it.CampaignName) {
			f.Playbooks = append(f.Playbooks, it.CampaignName)
		}
	}
	return f
}

// people is "1 person" or "n people".
func people(n int) string {
	if n == 1 {
		return "1 person"
	}
	return fmt.Sprintf("%d people", n)
}

// waitingMessage is the email about people waiting on playbook campaignID.
func (s *Service) waitingMessage(campaignID string, w waiting) message {
	verb := "wait"
	if w.People == 1 {
		verb = "waits"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s for your approval on the playbook %q: %s in gifts, charged only when approved.\n\n", people(w.People), verb, w.Name, core.Dollars(w.Cents))
	b.WriteString("Why they wait:\n")
	for _, r := range w.Reasons {
		fmt.Fprintf(&b, "- %s: %s\n", people(r.People), r.Why)
	}
	fmt.Fprintf(&b, "\nReview and decide: %s\n", s.Config.QueueURL(campaignID))
	return message{
		Subject: fmt.Sprintf("%s %s for approval on %s", people(w.People), verb, w.Name),
		Text:    b.String(),
	}
}

// balanceMessage is the email saying auto-approve stopped for the balance.
func (s *Service) balanceMessage(f funds) message {
	var b strings.Builder
	fmt.Fprintf(&b, "Auto-approve stopped: the balance cannot pay for the next gifts, so %s %s for funds on %s.\n\n",
		people(f.People), map[bool]string{true: "waits", false: "wait"}[f.People == 1], strings.Join(quoted(f.Playbooks), ", "))
	fmt.Fprintf(&b, "%s %s\n\n", campaign.FundsWhy(f.AddCents, f.People), campaign.FundsRedecideWhy)
	fmt.Fprintf(&b, "Top up the balance: %s\n", s.Config.BalanceURL())
	fmt.Fprintf(&b, "See who waits: %s\n", s.Config.SiteURL+"/")
	return message{
		Subject: fmt.Sprintf("Auto-approve stopped: add %s to the balance", core.Dollars(f.AddCents)),
		Text:    b.String(),
	}
}

// endedMessage is the email to a campaign's owner about its gifts that a
// recipient declined or that expired.
func (s *Service) endedMessage(campaignID, name string, gifts []db.NotificationEndedGiftsRow) message {
	var b strings.Builder
	declined, expired := 0, 0
	fmt.Fprintf(&b, "On your campaign %q:\n\n", name)
	for _, g := range gifts {
		who := g.RecipientName
		if who == "" {
			who = "A recipient"
		}
		if g.Status == "declined" {
			declined++
			fmt.Fprintf(&b, "- %s declined their gift (%s).\n", who, core.Dollars(g.TotalCents))
		} else {
			expired++
			fmt.Fprintf(&b, "- The gift link for %s expired unused (%s).\n", who, core.Dollars(g.TotalCents))
		}
	}
	fmt.Fprintf(&b, "\nThe campaign's page says where each gift's money went and offers a new gift or a refund: %s\n", s.Config.CampaignURL(campaignID))
	var subject string
	switch {
	case expired == 0:
		subject = fmt.Sprintf("%s declined on %s", gifts1(declined), name)
	case declined == 0:
		subject = fmt.Sprintf("%s expired on %s", gifts1(expired), name)
	default:
		subject = fmt.Sprintf("%s declined and %d expired on %s", gifts1(declined), expired, name)
	}
	return message{Subject: subject, Text: b.String()}
}

// gifts1 is "1 gift" or "n gifts".
func gifts1(n int) string {
	if n == 1 {
		return "1 gift"
	}
	return fmt.Sprintf("%d gifts", n)
}

// quoted quotes each name.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// footer ends every email: why it came, the one-click unsubscribe of its
// kind, and where to choose.
func footer(kind Kind, unsubscribe, settings string) string {
	return fmt.Sprintf("\n--\nYou get this email because %q is on for you in Giftwell.\nStop these emails: %s\nChoose which emails you get: %s\n",
		kind.Label(), unsubscribe, settings)
}

// isPerson reports whether a campaign's created_by names a person.
func isPerson(createdBy string) bool { return strings.HasPrefix(createdBy, core.PrefixUser) }
