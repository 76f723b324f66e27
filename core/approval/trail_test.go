package approval_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/gift"
)

// Every gift says who prepared it (the key, the connected app and its
// person, or a person) and who decided it (a person, or the auto-approve
// rule at its policy version) and when; the gift's events carry the same.
func TestGiftsRecordWhoPreparedAndDecided(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	w.env.TopUp(t, w.owner, 100_000)
	w.workFundsArrived()
	keyName := w.keyName()

	// A key's add, auto-approved.
	auto := w.playbook("gourmet-snack-crate", 1_000_000, 10_000)
	res := w.add(auto.ID, "1")
	g := w.gift(res.Approval.SendID)
	require.Equal(t, &gift.PreparedBy{Kind: "key", Name: keyName, PersonEmail: w.env.OwnerEmail}, g.PreparedBy)
	c, err := w.env.App.Campaigns.GetCampaign(ctx, w.owner, auto.ID)
	require.NoError(t, err)
	require.Equal(t, &gift.DecidedBy{Kind: "rule", Name: "Auto-approve", RuleVersion: c.PolicyVersion}, g.DecidedBy)
	require.NotNil(t, g.DecidedAt)
	require.Equal(t, g.CreatedAt.UTC(), *g.DecidedAt)
	exp, err := w.env.App.Campaigns.ExportCampaign(ctx, w.owner, auto.ID)
	require.NoError(t, err)
	require.Contains(t, string(exp.CSV), ",key: "+keyName+",rule: Auto-approve (policy version "+strconv.FormatInt(c.PolicyVersion, 10)+"),"+g.DecidedAt.Format(time.RFC3339))
	require.NotContains(t, string(exp.CSV), w.env.OwnerEmail, "the export carries no email")

	// A connected app's add, approved by the signed-in owner.
	conn := w.connection("Claude")
	manual := w.playbook("gourmet-snack-crate", 1_000_000, 0)
	added, err := w.env.App.Approvals.AddToPlaybook(ctx, conn, manual.ID, approval.PlaybookPersonAdd{Recipient: newPerson("2")})
	require.NoError(t, err)
	approved, err := w.env.App.Approvals.ApproveGift(ctx, w.owner, approval.QueueDecision{CampaignID: manual.ID, RecipientID: added.RecipientID})
	require.NoError(t, err)
	require.Equal(t, &gift.PreparedBy{Kind: "connection", Name: "Claude", PersonEmail: w.env.OwnerEmail}, approved.PreparedBy)
	require.Equal(t, "person", approved.DecidedBy.Kind)
	require.Equal(t, w.env.OwnerEmail, approved.DecidedBy.Email)
	require.NotEmpty(t, approved.DecidedBy.Name)
	require.Equal(t, approved.PreparedBy, w.gift(approved.ID).PreparedBy, "read back as recorded")

	// The events say the same.
	var found bool
	for _, ev := range w.events(core.EventSendCreated) {
		if ev.SendID == approved.ID {
			found = true
			require.Contains(t, string(ev.Data), `"preparedBy": {"kind": "connection", "name": "Claude"`)
			require.Contains(t, string(ev.Data), `"decidedBy": {"kind": "person"`)
		}
	}
	require.True(t, found)
}

// gift reads gift id as the owner.
func (w *playbooks) gift(id string) gift.Gift {
	w.t.Helper()
	g, err := w.env.App.Gifts.Get(context.Background(), w.owner, id)
	require.NoError(w.t, err)
	return g
}

// keyName is the name of the owner's key.
func (w *playbooks) keyName() string {
	w.t.Helper()
	var name string
	require.NoError(w.t, w.env.App.DB.QueryRow(context.Background(),
		`SELECT name FROM api_keys WHERE id = $1`, w.key.CredentialID).Scan(&name))
	return name
}

// connection is the owner connected through an OAuth app named client.
func (w *playbooks) connection(client string) core.Principal {
	w.t.Helper()
	return w.env.ConnectedApp(w.t, client)
}
