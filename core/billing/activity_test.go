package billing_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/internal/apptest"
)

// Every kind of action lands on the Activity page with who did it: the
// key or the connected app (and its person) that prepared a gift, the
// person or the auto-approve rule (and its version) that approved it, the
// person who skipped, paid, changed limits, made keys and connected apps,
// and Giftwell for a refund; filtered by actor, and never seen by another
// workspace or by a member.
func TestActivityNamesWhoDidEachAction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 2)
	app, owner := f.env.App, f.owner
	key, err := app.Connect.Authenticate(ctx, f.env.OwnerKey)
	require.NoError(t, err)

	// Money: a top-up, a card checkout paid and launched, a card refund.
	f.env.TopUp(t, owner, 100_000)
	_, gifts := paidAndLaunched(t, f)
	refund(t, f, gifts[0].ID)

	// Keys and apps.
	created, err := app.Identity.CreateAPIKeyFor(ctx, owner, "HubSpot agent")
	require.NoError(t, err)
	require.NoError(t, app.Identity.RevokeAPIKeyFor(ctx, owner, created.ID))
	require.NoError(t, app.Identity.RevokeAPIKeyFor(ctx, owner, created.ID), "revoking again records nothing")
	conn := f.env.ConnectedApp(t, "Claude")

	// A playbook: the rule approves a key's add, the owner approves a
	// connection's add, skips and unskips another, changes the limits.
	pb, err := app.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Closed-won thank-you", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MonthlyBudgetCents: 1_000_000,
	})
	require.NoError(t, err)
	on, err := app.Approvals.SetAutoApprove(ctx, owner, pb.ID, approval.AutoApproveSettings{Enabled: true, PerGiftMaxCents: ptr(int64(10_000))})
	require.NoError(t, err)
	byRule := addPerson(t, f, key, pb.ID, "Sam Lee")
	require.NotEmpty(t, byRule.Approval.SendID, "auto-approved")
	_, err = app.Approvals.SetAutoApprove(ctx, owner, pb.ID, approval.AutoApproveSettings{Enabled: false})
	require.NoError(t, err)
	byConn := addPerson(t, f, conn, pb.ID, "Ana Lopez")
	approved, err := app.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: pb.ID, RecipientID: byConn.RecipientID})
	require.NoError(t, err)
	skipped := addPerson(t, f, key, pb.ID, "Bo Chen")
	_, err = app.Approvals.SkipGift(ctx, owner, approval.QueueSkip{CampaignID: pb.ID, RecipientID: skipped.RecipientID, Reason: "=left the company"})
	require.NoError(t, err)
	_, err = app.Approvals.UnskipGift(ctx, owner, approval.QueueUnskip{CampaignID: pb.ID, RecipientID: skipped.RecipientID})
	require.NoError(t, err)
	refund(t, f, approved.ID) // a balance refund
	_, err = app.Campaigns.UpdateCampaign(ctx, owner, pb.ID, campaign.CampaignPatch{BudgetCents: ptr(int64(900_000))})
	require.NoError(t, err)
	require.NoError(t, app.Connect.DisconnectApp(ctx, owner, conn.CredentialID))

	all := readAll(t, app.Kernel, owner, core.ActivityFilter{})
	var ownerName string
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT name FROM users WHERE id = $1`, f.env.OwnerID).Scan(&ownerName))
	var keyName string
	require.NoError(t, app.DB.QueryRow(ctx, `SELECT name FROM api_keys WHERE id = $1`, key.CredentialID).Scan(&keyName))
	person := core.Actor{Kind: core.ActorPerson, Ref: f.env.OwnerID, Name: ownerName, Email: f.env.OwnerEmail}
	keyActor := core.Actor{Kind: core.ActorKey, Ref: key.CredentialID, Name: keyName, Email: f.env.OwnerEmail}
	connActor := core.Actor{Kind: core.ActorConnection, Ref: conn.CredentialID, Name: "Claude", Email: f.env.OwnerEmail}
	rule := core.Actor{Kind: core.ActorRule, Name: gift.AutoApproveName, RuleVersion: on.PolicyVersion}
	giftwellActor := core.Actor{Kind: core.ActorGiftwell, Name: core.GiftwellActorName}

	requireAction(t, all, core.ActivityPrepared, keyActor, "Sam Lee")
	requireAction(t, all, core.ActivityPrepared, connActor, "Ana Lopez")
	requireAction(t, all, core.ActivityApproved, rule, "Sam Lee")
	requireAction(t, all, core.ActivityApproved, person, "Ana Lopez")
	requireAction(t, all, core.ActivitySkipped, person, "Bo Chen")
	requireAction(t, all, core.ActivityUnskipped, person, "Bo Chen")
	requireAction(t, all, core.ActivityTopupPaid, person, "")
	requireAction(t, all, core.ActivityCheckoutPaid, person, "")
	requireAction(t, all, core.ActivityRefunded, giftwellActor, "Ana Lopez")
	requireAction(t, all, core.ActivityRefunded, giftwellActor, gifts[0].Recipient.Name)
	requireAction(t, all, core.ActivityAutoApproveChanged, person, "")
	requireAction(t, all, core.ActivityLimitsChanged, person, "")
	require.Len(t, ofKind(all, core.ActivityKeyRevoked), 1, "a revoke that changed nothing is not listed")
	for _, k := range []core.ActivityKind{core.ActivityKeyCreated, core.ActivityKeyRevoked, core.ActivityAppConnected, core.ActivityAppDisconnected} {
		requireAction(t, all, k, person, "")
	}
	require.Equal(t, "HubSpot agent", ofKind(all, core.ActivityKeyCreated)[0].Subject)
	require.Equal(t, "Claude", ofKind(all, core.ActivityAppConnected)[0].Subject)
	for i := 1; i < len(all); i++ {
		require.False(t, all[i].At.After(all[i-1].At), "newest first")
	}

	// The sentences name who and where the money went.
	sentences := map[string]bool{}
	for _, a := range all {
		sentences[a.Sentence()] = true
	}
	require.Contains(t, sentences, "Key '"+keyName+"' prepared a gift for Sam Lee on Closed-won thank-you")
	require.Contains(t, sentences, "The app 'Claude' (connected by "+f.env.OwnerEmail+") prepared a gift for Ana Lopez on Closed-won thank-you")
	require.Contains(t, sentences, "The auto-approve rule (version "+itoa(on.PolicyVersion)+") approved a "+core.Dollars(approved.TotalCents)+" gift for Sam Lee on Closed-won thank-you, paid from the balance (test mode, no real money)")
	require.Contains(t, sentences, "Giftwell refunded the "+core.Dollars(approved.TotalCents)+" gift for Ana Lopez on Closed-won thank-you to the balance (test mode, no real money)")

	// Filtered by one actor: only its actions.
	byKey := readAll(t, app.Kernel, owner, core.ActivityFilter{ActorKind: core.ActorKey, ActorRef: key.CredentialID})
	require.Len(t, byKey, 2)
	for _, a := range byKey {
		require.Equal(t, keyActor, a.Actor)
	}
	actors, err := app.ActivityActors(ctx, owner)
	require.NoError(t, err)
	kinds := map[core.ActorKind]bool{}
	for _, a := range actors {
		kinds[a.Kind] = true
	}
	require.Equal(t, map[core.ActorKind]bool{core.ActorPerson: true, core.ActorKey: true, core.ActorConnection: true, core.ActorRule: true, core.ActorGiftwell: true}, kinds)

	// Another workspace sees none of it; a member may not read it.
	other := apptest.NewWorkspace(t, app, apptest.WorkspaceOptions{})
	_, otherOwner := f.env.SignIn(t, other.OwnerEmail)
	otherOwner.WorkspaceID = other.WorkspaceID
	page, err := app.ReadActivity(ctx, otherOwner, core.ActivityFilter{})
	require.NoError(t, err)
	require.Empty(t, page.Items)
	page, err = app.ReadActivity(ctx, otherOwner, core.ActivityFilter{ActorKind: core.ActorKey, ActorRef: key.CredentialID})
	require.NoError(t, err)
	require.Empty(t, page.Items, "naming another workspace's key finds nothing")
	member := f.env.AddPerson(t, core.RoleMember)
	_, mp := f.env.SignIn(t, member.Email)
	_, err = app.ReadActivity(ctx, mp, core.ActivityFilter{})
	require.Equal(t, core.CodeTeamManagerRequired, core.ErrorCode(err))
}

// refund asks for and approves the refund of gift sendID after revoking
// its unused link.
func refund(t *testing.T, f fixture, sendID string) {
	t.Helper()
	ctx := context.Background()
	_, err := f.env.App.GiftLinks.Revoke(ctx, f.owner, sendID, 1)
	require.NoError(t, err)
	_, err = f.env.App.GiftLinks.RequestRefund(ctx, f.owner, sendID, "left the company")
	require.NoError(t, err)
	r, err := f.env.App.GiftLinks.DecideRefund(ctx, sendID, giftlink.RefundApprove)
	require.NoError(t, err)
	require.Equal(t, giftlink.RefundRefunded, r.State)
}

// addPerson adds a person named name to playbook id as p.
func addPerson(t *testing.T, f fixture, p core.Principal, id, name string) approval.AddPersonResult {
	t.Helper()
	res, err := f.env.App.Approvals.AddToPlaybook(context.Background(), p, id, approval.PlaybookPersonAdd{Recipient: campaign.RecipientInput{
		Name: name, Email: apptest.UniqueEmail("person"), Company: "Acme",
	}})
	require.NoError(t, err)
	return res
}

// readAll reads every page of p's activity under filter.
func readAll(t *testing.T, k *core.Kernel, p core.Principal, filter core.ActivityFilter) []core.Activity {
	t.Helper()
	var out []core.Activity
	for {
		page, err := k.ReadActivity(context.Background(), p, filter)
		require.NoError(t, err)
		out = append(out, page.Items...)
		if page.NextCursor == "" {
			return out
		}
		filter.Cursor = page.NextCursor
	}
}

// requireAction requires an action of kind by actor (about recipient, when given).
func requireAction(t *testing.T, all []core.Activity, kind core.ActivityKind, actor core.Actor, recipient string) {
	t.Helper()
	for _, a := range ofKind(all, kind) {
		if a.Actor == actor && (recipient == "" || a.Recipient == recipient) {
			return
		}
	}
	t.Fatalf("no %s by %+v about %q in %+v", kind, actor, recipient, ofKind(all, kind))
}

// ofKind keeps the actions of kind.
func ofKind(all []core.Activity, kind core.ActivityKind) []core.Activity {
	var out []core.Activity
	for _, a := range all {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
