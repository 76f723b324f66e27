package approval_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// playbooks is a workspace where a signed-in owner runs playbooks and an
// agent (the owner's key) adds people.
type playbooks struct {
	t     *testing.T
	env   *apptest.Env
	owner core.Principal // signed in
	key   core.Principal
}

func newPlaybooks(t *testing.T) *playbooks {
	t.Helper()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	return &playbooks{t: t, env: env, owner: owner, key: key}
}

// playbook creates an active playbook of product with a monthly budget
// (0: none) and auto-approve up to perGift (0: off).
func (w *playbooks) playbook(product string, monthly, perGift int64) campaign.Campaign {
	w.t.Helper()
	c, err := w.env.App.Campaigns.CreateCampaign(context.Background(), w.owner, campaign.CampaignInput{
		Name: "Closed-won thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: product,
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks for choosing us, {{firstName}}!", MonthlyBudgetCents: monthly,
	})
	require.NoError(w.t, err)
	if perGift > 0 {
		w.autoApprove(c.ID, perGift)
	}
	return c
}

// runScheduled works the waiting approval jobs of the workspace, as River
// would, and returns how many scheduled people they decided.
func (w *playbooks) runScheduled() int {
	w.t.Helper()
	return workScheduled(w.t, w.env.App)
}

// workScheduled works app's waiting approval jobs, as River would,
// requires that each completed, and returns how many scheduled people
// they decided.
func workScheduled(t *testing.T, app *giftwell.App) int {
	t.Helper()
	n := 0
	for _, job := range apptest.WorkJobs(t, app, &approval.ScheduledApprovalWorker{Approvals: app.Approvals}) {
		require.Equal(t, rivertype.JobStateCompleted, job.State, "errors: %v", job.Errors)
		var out approval.ScheduledApprovalOutput
		require.NoError(t, json.Unmarshal(job.Output(), &out))
		n += out.Decided
	}
	return n
}

// autoApprove turns auto-approve on for campaign id, up to perGift.
func (w *playbooks) autoApprove(id string, perGift int64) {
	w.t.Helper()
	rule, err := json.Marshal(campaign.AutoApprove{Enabled: perGift > 0, PerGiftMaxCents: perGift, EnabledBy: w.env.OwnerID})
	require.NoError(w.t, err)
	_, err = db.New(w.env.App.DB).CampaignSetAutoApprove(context.Background(), db.CampaignSetAutoApproveParams{
		AutoApprove: rule, UpdatedAt: apptest.Epoch, WorkspaceID: w.env.WorkspaceID, ID: id,
	})
	require.NoError(w.t, err)
}

// add adds person n (an identity, a name and an email) to playbook id as the agent.
func (w *playbooks) add(id, n string) approval.AddPersonResult {
	w.t.Helper()
	res, err := w.env.App.Approvals.AddToPlaybook(context.Background(), w.key, id, approval.PlaybookPersonAdd{Recipient: newPerson(n)})
	require.NoError(w.t, err, "add %s", n)
	return res
}

func newPerson(n string) campaign.RecipientInput {
	return campaign.RecipientInput{Name: "Person " + n, Company: "Co " + n, SourceSystem: "crm", ExternalID: "ext-" + n, Email: "p" + n + "@example.com"}
}

// holdBalance locks the workspace's test balance in a transaction of its
// own, as another approval paying would, until the test rolls it back (or
// ends): adds meanwhile are scheduled.
func (w *playbooks) holdBalance() pgx.Tx {
	w.t.Helper()
	ctx := context.Background()
	tx, err := w.env.App.DB.Begin(ctx)
	require.NoError(w.t, err)
	w.t.Cleanup(func() { _ = tx.Rollback(ctx) })
	_, err = db.New(tx).BalanceGetForUpdate(ctx, db.BalanceGetForUpdateParams{WorkspaceID: w.env.WorkspaceID, Mode: "test"})
	require.NoError(w.t, err)
	return tx
}

// approvalJobQueued reports whether playbook id has an approval job queued
// that has not taken its last look (playbook_approval_jobs).
func (w *playbooks) approvalJobQueued(id string) bool {
	w.t.Helper()
	queued, err := db.New(w.env.App.DB).PlaybookApprovalJobQueued(context.Background(), id)
	require.NoError(w.t, err)
	return queued
}

// state reads a roster person's approval state and reason.
func (w *playbooks) state(campaignID, recipientID string) (campaign.ApprovalState, campaign.ApprovalReason) {
	w.t.Helper()
	r, err := db.New(w.env.App.DB).RecipientGetForApproval(context.Background(), db.RecipientGetForApprovalParams{CampaignID: campaignID, ID: recipientID})
	require.NoError(w.t, err)
	return campaign.ApprovalState(r.ApprovalState), campaign.ApprovalReason(r.ApprovalReason)
}

// events are the workspace's events of typ, oldest first.
func (w *playbooks) events(typ core.EventType) []db.Event {
	w.t.Helper()
	rows, err := db.New(w.env.App.DB).EventListByWorkspace(context.Background(), db.EventListByWorkspaceParams{WorkspaceID: w.env.WorkspaceID, MaxRows: 10_000})
	require.NoError(w.t, err)
	var out []db.Event
	for i := len(rows) - 1; i >= 0; i-- {
		if core.EventType(rows[i].Type) == typ {
			out = append(out, rows[i])
		}
	}
	return out
}

// balance is the owner's balance in the test mode.
func (w *playbooks) balance() int64 {
	w.t.Helper()
	b, err := w.env.App.Approvals.Balance(context.Background(), w.owner)
	require.NoError(w.t, err)
	return b.Cents
}

// requireOneDebitPerGift checks, across the whole database of the
// workspace, that every gift has exactly one debit of its total and every
// debit a gift, and that the balance equals the ledger.
func (w *playbooks) requireOneDebitPerGift() (gifts int) {
	w.t.Helper()
	ctx := context.Background()
	var orphanGifts, orphanDebits, wrong int
	require.NoError(w.t, w.env.App.DB.QueryRow(ctx, `
		SELECT
		  (SELECT count(*) FROM sends s WHERE s.workspace_id = $1 AND s.funded_by = 'balance'
		     AND (SELECT count(*) FROM ledger_entries l WHERE l.send_id = s.id AND l.kind = 'debit') <> 1),
		  (SELECT count(*) FROM ledger_entries l WHERE l.workspace_id = $1 AND l.kind = 'debit'
		     AND NOT EXISTS (SELECT 1 FROM sends s WHERE s.id = l.send_id)),
		  (SELECT count(*) FROM sends s JOIN ledger_entries l ON l.send_id = s.id AND l.kind = 'debit'
		     WHERE s.workspace_id = $1 AND l.cents <> -s.total_cents),
		  (SELECT count(*) FROM sends s WHERE s.workspace_id = $1)`, w.env.WorkspaceID).
		Scan(&orphanGifts, &orphanDebits, &wrong, &gifts))
	require.Zero(w.t, orphanGifts, "gifts without exactly one debit")
	require.Zero(w.t, orphanDebits, "debits without a gift")
	require.Zero(w.t, wrong, "debits of another amount than the gift")
	w.env.RequireLedgerConsistent(w.t, w.owner)
	return gifts
}
