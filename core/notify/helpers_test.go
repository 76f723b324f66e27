package notify_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/notify"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// desk is a workspace whose signed-in owner runs playbooks that an agent
// (the owner's key) adds people to.
type desk struct {
	t     *testing.T
	env   *apptest.Env
	owner core.Principal // signed in
	key   core.Principal
	// seen are the notify emails already returned by newEmails.
	seen map[string]bool
}

func newDesk(t *testing.T) *desk {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	return &desk{t: t, env: env, owner: owner, key: key, seen: map[string]bool{}}
}

// playbook creates an active playbook of a $90 gift with auto-approve up
// to perGift (0: off).
func (d *desk) playbook(name string, perGift int64) campaign.Campaign {
	d.t.Helper()
	in := campaign.CampaignInput{
		Name: name, Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: 10_000_000,
	}
	c, err := d.env.App.Campaigns.CreateCampaign(context.Background(), d.owner, in)
	require.NoError(d.t, err)
	if perGift > 0 {
		c, err = d.env.App.Approvals.SetAutoApprove(context.Background(), d.owner, c.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: &perGift})
		require.NoError(d.t, err)
	}
	return c
}

// add adds person n to playbook id as the agent.
func (d *desk) add(id, n string) approval.AddPersonResult {
	d.t.Helper()
	res, err := d.env.App.Approvals.AddToPlaybook(context.Background(), d.key, id, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: "Person " + n, Company: "Co " + n, SourceSystem: "crm", ExternalID: "ext-" + n, Email: "p" + n + "@example.com",
	}})
	require.NoError(d.t, err, "add %s", n)
	return res
}

// work works the waiting email jobs, as River would, and returns what each did.
func (d *desk) work() []notify.NoticeResult {
	d.t.Helper()
	var out []notify.NoticeResult
	for _, job := range apptest.WorkJobs(d.t, d.env.App, &notify.NoticeWorker{Notify: d.env.App.Notify}) {
		require.Contains(d.t, []rivertype.JobState{rivertype.JobStateCompleted, rivertype.JobStateScheduled}, job.State, "errors: %v", job.Errors)
		var res notify.NoticeResult
		if o := job.Output(); len(o) > 0 {
			require.NoError(d.t, json.Unmarshal(o, &res))
		}
		out = append(out, res)
	}
	return out
}

// jobs are the unfinished email jobs.
func (d *desk) jobs() []*rivertype.JobRow {
	d.t.Helper()
	return apptest.Jobs(d.t, d.env.App, notify.NoticeArgs{}.Kind())
}

// newEmails are the notify emails (those with an unsubscribe header)
// written to the outbox since the last call, oldest first.
func (d *desk) newEmails() []db.EmailOutbox {
	d.t.Helper()
	rows, err := db.New(d.env.App.DB).EmailOutboxListByWorkspace(context.Background(), &d.env.WorkspaceID)
	require.NoError(d.t, err)
	var out []db.EmailOutbox
	for _, r := range rows {
		if r.ListUnsubscribe == "" || d.seen[r.ID] {
			continue
		}
		d.seen[r.ID] = true
		out = append(out, r)
	}
	return out
}

// deliver sends the queued emails through a LogSender writing JSON lines
// to a buffer, and returns the lines.
func (d *desk) deliver() []map[string]any {
	d.t.Helper()
	var buf apptest.LogBuffer
	d.env.DeliverEmails(d.t, identity.LogSender{Log: slog.New(slog.NewJSONHandler(&buf, nil))})
	var out []map[string]any
	for line := range strings.Lines(buf.String()) {
		var m map[string]any
		require.NoError(d.t, json.Unmarshal([]byte(line), &m))
		out = append(out, m)
		d.t.Logf("logged email: %s", strings.TrimSpace(line))
	}
	return out
}

// sign signs a new person with role in and returns them and their principal.
func (d *desk) sign(role core.Role) (apptest.Person, core.Principal) {
	d.t.Helper()
	who := d.env.AddPerson(d.t, role)
	_, p := d.env.SignIn(d.t, who.Email)
	return who, p
}

// later moves the service's clock on by dt.
func (d *desk) later(dt time.Duration) { d.env.Clock.Advance(dt) }

// choices are p's choices as kind -> on.
func (d *desk) choices(p core.Principal) map[notify.Kind]bool {
	d.t.Helper()
	cs, err := d.env.App.Notify.Choices(context.Background(), p)
	require.NoError(d.t, err)
	out := map[notify.Kind]bool{}
	for _, c := range cs {
		out[c.Kind] = c.On
	}
	return out
}
