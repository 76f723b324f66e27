package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/notify"
)

// Ten adds in a minute bring one email to each approver, with the count,
// the total, the reason in the queue's words, the playbook's queue link and
// a one-click unsubscribe; a member gets none, and the log line of the
// LogSender keeps to, subject and text.
func TestTenAddsInAMinuteBringOneEmail(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	member, _ := d.sign(core.RoleMember)
	d.env.TopUp(t, d.owner, 1_000_000)
	pb := d.playbook("Closed-won thanks", 0)
	for i := range 10 {
		res := d.add(pb.ID, string(rune('a'+i)))
		require.Equal(t, campaign.ReasonAutoApproveOff, res.Approval.Reason)
		d.later(5 * time.Second) // ten adds over 50 seconds
	}
	require.LessOrEqual(t, len(d.jobs()), 2, "one job per playbook per 30-second slot, not one per add")
	d.work()

	emails := d.newEmails()
	require.Len(t, emails, 1, "one email, to the owner only")
	e := emails[0]
	require.Equal(t, d.env.OwnerEmail, e.ToAddress)
	require.NotEqual(t, member.Email, e.ToAddress)
	require.Equal(t, "10 people wait for approval on Closed-won thanks", e.Subject)
	require.Contains(t, e.Body, "10 people wait for your approval on the playbook \"Closed-won thanks\": $900.00 in gifts")
	require.Contains(t, e.Body, "- 10 people: ", "the reason, counted")
	require.Contains(t, e.Body, d.env.App.Config.QueueURL(pb.ID))
	require.Contains(t, e.Body, "Stop these emails: "+d.env.SiteURL+"/unsubscribe/")
	require.True(t, strings.HasPrefix(e.ListUnsubscribe, "<"+d.env.SiteURL+"/unsubscribe/"), e.ListUnsubscribe)
	require.Equal(t, identity.OneClickUnsubscribe, e.ListUnsubscribePost)
	for _, line := range strings.Split(e.Body, "\n") {
		require.NotContains(t, line, "auto_approve_off", "plain words")
	}

	lines := d.deliver()
	require.Len(t, lines, 1)
	require.Equal(t, d.env.OwnerEmail, lines[0]["to"])
	require.Equal(t, e.Subject, lines[0]["subject"])
	require.Equal(t, e.Body, lines[0]["text"])

	// Nothing more for the same ten people.
	d.work()
	require.Empty(t, d.newEmails())
}

// A second email comes no sooner than an hour after the first, and only
// while people still wait; none comes when nobody waits any more.
func TestAtMostOneEmailAnHourWhilePeopleWait(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	pb := d.playbook("Renewals", 0)
	d.add(pb.ID, "1")
	d.work()
	require.Len(t, d.newEmails(), 1)

	// Ten minutes on, another person: no email yet, one follow-up job.
	d.later(10 * time.Minute)
	d.add(pb.ID, "2")
	d.later(time.Minute)
	d.add(pb.ID, "3")
	res := d.work()
	require.NotEmpty(t, res)
	require.NotNil(t, res[0].Later)
	require.Empty(t, d.newEmails(), "within the hour")
	require.Len(t, d.jobs(), 1, "one follow-up for the end of the hour")

	// The follow-up run early sleeps on; run at the hour it sends.
	d.work()
	require.Empty(t, d.newEmails())
	require.Len(t, d.jobs(), 1)
	d.later(50 * time.Minute) // 61 minutes after the first email
	d.work()
	emails := d.newEmails()
	require.Len(t, emails, 1)
	require.Equal(t, "3 people wait for approval on Renewals", emails[0].Subject)
	require.Empty(t, d.jobs())

	// Another person, then everyone is decided before the hour is up: no email.
	d.later(5 * time.Minute)
	d.add(pb.ID, "4")
	d.work()
	require.Len(t, d.jobs(), 1)
	_, err := d.env.App.Approvals.SkipGroup(context.Background(), d.owner, approval.GroupDecision{CampaignID: pb.ID, People: 4})
	require.NoError(t, err)
	d.later(time.Hour)
	res = d.work()
	require.Len(t, res, 1)
	require.Zero(t, res[0].About, "nobody waits")
	require.Empty(t, d.newEmails())
	require.Empty(t, d.jobs())
}

// When auto-approve stops for the balance, approvers are told how much to
// add, with the top-up link; the adds bring no waiting email of their own.
func TestBalanceStoppedSaysTheAmountToAdd(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	pb := d.playbook("Closed-won thanks", 10_000) // $90 gifts, auto-approve up to $100
	for _, n := range []string{"1", "2", "3"} {
		res := d.add(pb.ID, n)
		require.Equal(t, campaign.ReasonLowBalance, res.Approval.Reason)
	}
	d.work()
	emails := d.newEmails()
	require.Len(t, emails, 1)
	e := emails[0]
	require.Equal(t, "Auto-approve stopped: add $270.00 to the balance", e.Subject)
	require.Contains(t, e.Body, campaign.FundsWhy(27_000, 3))
	require.Contains(t, e.Body, "Top up the balance: "+d.env.App.Config.BalanceURL())
	require.Contains(t, e.Body, "\"Closed-won thanks\"")
	d.deliver()

	// After a top-up that pays for everyone, nobody waits: nothing more.
	d.env.TopUp(t, d.owner, 100_000)
	d.add(pb.ID, "4")
	d.later(2 * time.Hour)
	d.work()
	require.Empty(t, d.newEmails())
}

// Each approver's own choices hold: an admin who turned waiting off gets
// no waiting email while the owner does; one who turned balance_stopped
// off keeps waiting.
func TestChoicesAreRespected(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	admin, adminP := d.sign(core.RoleAdmin)
	other, _ := d.sign(core.RoleAdmin)
	require.Equal(t, map[notify.Kind]bool{notify.KindWaiting: true, notify.KindBalanceStopped: true, notify.KindDeclinedExpired: false, notify.KindDigest: false}, d.choices(adminP), "defaults")
	_, err := d.env.App.Notify.SetChoices(context.Background(), adminP, []notify.Kind{notify.KindBalanceStopped, notify.KindDigest})
	require.NoError(t, err)
	require.Equal(t, map[notify.Kind]bool{notify.KindWaiting: false, notify.KindBalanceStopped: true, notify.KindDeclinedExpired: false, notify.KindDigest: true}, d.choices(adminP))

	pb := d.playbook("Renewals", 0)
	d.add(pb.ID, "1")
	d.work()
	var to []string
	for _, e := range d.newEmails() {
		to = append(to, e.ToAddress)
	}
	require.ElementsMatch(t, []string{d.env.OwnerEmail, other.Email}, to)
	require.NotContains(t, to, admin.Email)

	// The digest goes to the one who chose it.
	n, err := d.env.App.Notify.Digests(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	emails := d.newEmails()
	require.Len(t, emails, 1)
	require.Equal(t, admin.Email, emails[0].ToAddress)
	require.Equal(t, "Your Giftwell digest: 1 person waits", emails[0].Subject)
	require.Contains(t, emails[0].Body, "Renewals: 1 person, $90.00.")
	n, err = d.env.App.Notify.Digests(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "one digest a day")

	// A key cannot choose for a person.
	_, err = d.env.App.Notify.SetChoices(context.Background(), d.key, nil)
	require.Equal(t, core.CodeHumanApprovalRequired, core.ErrorCode(err))
	_, err = d.env.App.Notify.SetChoices(context.Background(), adminP, []notify.Kind{"weekly"})
	require.Equal(t, core.CodeValidation, core.ErrorCode(err))
}
