package campaign_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/sql/db"
)

// TestUpdateCampaignDryRunSavesNothing: a dry run of a key's edit of a live
// playbook answers that it would return to draft, holding the waiting
// people, and the version it would write; the campaign, its roster, its
// events and its jobs are as they were, and it refuses what the edit
// refuses.
func TestUpdateCampaignDryRunSavesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := apptest.New(t)
	_, owner := env.SignIn(t, env.OwnerEmail)
	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "Closed-won thanks", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam", SenderCompany: "Acme", Message: "Thanks, {{firstName}}!", MeetingURL: "https://meet.example.com/a",
	})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, c.Status)
	// Two people join the live playbook and wait (auto-approve is off).
	people := []campaign.RecipientInput{
		{Name: "Ada One", Company: "Co", Email: "ada@example.com"},
		{Name: "Bo Two", Company: "Co", Email: "bo@example.com"},
	}
	c, err = env.App.Campaigns.UpdateCampaign(ctx, key, c.ID, campaign.CampaignPatch{Recipients: people})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusActive, c.Status)

	snapshot := func() (string, string, string) {
		t.Helper()
		got, err := env.App.Campaigns.GetCampaign(ctx, key, c.ID)
		require.NoError(t, err)
		cj, err := json.Marshal(got)
		require.NoError(t, err)
		evs, err := db.New(env.App.DB).EventListByWorkspace(ctx, db.EventListByWorkspaceParams{WorkspaceID: env.WorkspaceID, MaxRows: 10_000})
		require.NoError(t, err)
		ej, err := json.Marshal(evs)
		require.NoError(t, err)
		var jobs string
		require.NoError(t, env.App.DB.QueryRow(ctx, `SELECT count(*)::text FROM river_job`).Scan(&jobs))
		return string(cj), string(ej), jobs
	}
	campaignBefore, eventsBefore, jobsBefore := snapshot()

	// Only the meeting link changes: the playbook would go back to draft.
	got, err := env.App.Campaigns.UpdateCampaignDryRun(ctx, key, c.ID, campaign.CampaignPatch{
		MeetingURL: apptest.Ptr("https://meet.example.com/b"), ExpectedPolicyVersion: c.PolicyVersion,
	})
	require.NoError(t, err)
	require.NotNil(t, got.DryRun)
	require.Equal(t, []string{"status", "meetingUrl"}, got.DryRun.Changes)
	require.True(t, got.DryRun.ReturnsToDraft)
	require.Equal(t, 2, got.DryRun.WaitingPeople)
	require.Equal(t, c.PolicyVersion+1, got.DryRun.PolicyVersion)
	require.NotNil(t, got.DryRun.StatusChange)
	require.Equal(t, campaign.StatusActive, got.DryRun.StatusChange.From)
	require.Equal(t, campaign.StatusDraft, got.DryRun.StatusChange.To)
	// The answer is the campaign as it is.
	require.Equal(t, campaign.StatusActive, got.Status)
	require.Equal(t, "https://meet.example.com/a", got.MeetingURL)
	require.Equal(t, c.PolicyVersion, got.PolicyVersion)
	require.Nil(t, got.StatusChange)

	// Appending a person keeps it on, at the same version.
	got, err = env.App.Campaigns.UpdateCampaignDryRun(ctx, key, c.ID, campaign.CampaignPatch{
		Recipients: append(append([]campaign.RecipientInput{}, people...), campaign.RecipientInput{Name: "Cy Three", Company: "Co", Email: "cy@example.com"}),
	})
	require.NoError(t, err)
	require.Equal(t, []string{"recipients"}, got.DryRun.Changes)
	require.Equal(t, 1, got.DryRun.PeopleAdded)
	require.False(t, got.DryRun.ReturnsToDraft)
	require.Zero(t, got.DryRun.WaitingPeople)
	require.Nil(t, got.DryRun.StatusChange)
	require.Equal(t, c.PolicyVersion, got.DryRun.PolicyVersion)

	// Nothing changes: no changes, the same version.
	got, err = env.App.Campaigns.UpdateCampaignDryRun(ctx, key, c.ID, campaign.CampaignPatch{
		MeetingURL: apptest.Ptr("https://meet.example.com/a"), ExpectedPolicyVersion: c.PolicyVersion,
	})
	require.NoError(t, err)
	require.Empty(t, got.DryRun.Changes)
	require.False(t, got.DryRun.ReturnsToDraft)
	require.Equal(t, c.PolicyVersion, got.DryRun.PolicyVersion)

	// A dry run refuses what the edit refuses, with the same code and field.
	refusals := []campaign.CampaignPatch{
		{MeetingURL: apptest.Ptr("https://meet.example.com/b"), ExpectedPolicyVersion: c.PolicyVersion + 5},
		{MeetingURL: apptest.Ptr("https://meet.example.com/b")},
		{MeetingURL: apptest.Ptr("ftp://meet.example.com/b"), ExpectedPolicyVersion: c.PolicyVersion},
		{SenderName: apptest.Ptr(" "), ExpectedPolicyVersion: c.PolicyVersion},
	}
	for i, patch := range refusals {
		_, dryErr := env.App.Campaigns.UpdateCampaignDryRun(ctx, key, c.ID, patch)
		require.Error(t, dryErr, "refusal %d", i)
		_, realErr := env.App.Campaigns.UpdateCampaign(ctx, key, c.ID, patch)
		require.Error(t, realErr, "refusal %d", i)
		de, re := core.AsError(dryErr), core.AsError(realErr)
		require.Equal(t, re.Code, de.Code, "refusal %d", i)
		require.Equal(t, re.Fields, de.Fields, "refusal %d", i)
	}

	campaignAfter, eventsAfter, jobsAfter := snapshot()
	require.JSONEq(t, campaignBefore, campaignAfter)
	require.JSONEq(t, eventsBefore, eventsAfter)
	require.Equal(t, jobsBefore, jobsAfter)

	// The real edit does what the dry run said.
	done, err := env.App.Campaigns.UpdateCampaign(ctx, key, c.ID, campaign.CampaignPatch{
		MeetingURL: apptest.Ptr("https://meet.example.com/b"), ExpectedPolicyVersion: c.PolicyVersion,
	})
	require.NoError(t, err)
	require.Equal(t, campaign.StatusDraft, done.Status)
	require.Equal(t, c.PolicyVersion+1, done.PolicyVersion)
	require.Nil(t, done.DryRun)
}
