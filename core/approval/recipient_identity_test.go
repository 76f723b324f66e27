package approval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
)

// ida is the person of hardening finding 2, as a CRM sends her.
func ida(externalID string) campaign.RecipientInput {
	return campaign.RecipientInput{Name: "Ida Wells", SourceSystem: "hubspot", ExternalID: externalID, Email: "ida@example.com"}
}

// rosterOf is campaign id's roster as the owner reads it.
func (w *playbooks) rosterOf(id string) []campaign.Recipient {
	w.t.Helper()
	c, err := w.env.App.Campaigns.GetCampaign(context.Background(), w.owner, id)
	require.NoError(w.t, err)
	return c.Recipients
}

// TestStableIdentityOnPlaybookAdds is hardening finding 2 on
// add_to_playbook: a later add cannot rewrite a person's
// SourceSystem+externalId, and the documented safe resend finds the
// original person.
func TestStableIdentityOnPlaybookAdds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	c := w.playbook("gourmet-snack-crate", 0, 0)
	add := func(in campaign.RecipientInput) (approval.AddPersonResult, error) {
		return w.env.App.Approvals.AddToPlaybook(ctx, w.key, c.ID, approval.PlaybookPersonAdd{Recipient: in})
	}

	first, err := add(ida("ida-1"))
	require.NoError(t, err)
	require.False(t, first.AlreadyQueued)

	// The same email with another externalId, or either half alone, is a conflict.
	_, err = add(ida("ida-2"))
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient.externalId")
	require.Contains(t, core.AsError(err).Message, first.RecipientID)
	_, err = add(campaign.RecipientInput{Email: "IDA@example.com", ExternalID: "ida-2"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient.externalId")
	_, err = add(campaign.RecipientInput{Email: "ida@example.com", SourceSystem: "salesforce"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient.sourceSystem")
	_, err = add(campaign.RecipientInput{RecipientID: first.RecipientID, SourceSystem: "hubspot", ExternalID: "ida-2"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient.externalId")
	roster := w.rosterOf(c.ID)
	require.Len(t, roster, 1)
	require.Equal(t, "ida-1", roster[0].ExternalID)

	// The safe resend finds the original person.
	again, err := add(campaign.RecipientInput{SourceSystem: "hubspot", ExternalID: "ida-1"})
	require.NoError(t, err)
	require.True(t, again.AlreadyQueued)
	require.Equal(t, first.RecipientID, again.RecipientID)
	again, err = add(ida("ida-1"))
	require.NoError(t, err)
	require.True(t, again.AlreadyQueued)
	require.Len(t, w.rosterOf(c.ID), 1)

	// Filling an empty one is not a change: the person keeps it from then on.
	bo, err := add(campaign.RecipientInput{Name: "Bo Diddley", Email: "bo@example.com"})
	require.NoError(t, err)
	filled, err := add(campaign.RecipientInput{Email: "bo@example.com", SourceSystem: "hubspot", ExternalID: "bo-1"})
	require.NoError(t, err)
	require.True(t, filled.AlreadyQueued)
	require.Equal(t, bo.RecipientID, filled.RecipientID)
	_, err = add(campaign.RecipientInput{Email: "bo@example.com", SourceSystem: "hubspot", ExternalID: "bo-2"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient.externalId")
	resend, err := add(campaign.RecipientInput{SourceSystem: "hubspot", ExternalID: "bo-1"})
	require.NoError(t, err)
	require.Equal(t, bo.RecipientID, resend.RecipientID)

	// Identities of two people, by profileUrl too.
	_, err = add(campaign.RecipientInput{Name: "Cy Young", ProfileURL: "https://www.linkedin.com/in/cy-young"})
	require.NoError(t, err)
	_, err = add(campaign.RecipientInput{Email: "bo@example.com", ProfileURL: "https://linkedin.com/in/cy-young/"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient")
	_, err = add(campaign.RecipientInput{SourceSystem: "hubspot", ExternalID: "ida-1", Email: "bo@example.com"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipient")
	require.Len(t, w.rosterOf(c.ID), 3)
}

// TestStableIdentityOnRosterWrites is hardening finding 2 on add_recipients
// (imports arrive there too) and on update_campaign's recipients.
func TestStableIdentityOnRosterWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newPlaybooks(t)
	c, err := w.env.App.Campaigns.CreateCampaign(ctx, w.owner, campaign.CampaignInput{
		Name: "Q3", Mode: campaign.ModeBatch, ProductID: "gourmet-snack-crate", SenderName: "S", SenderCompany: "A",
		BudgetCents: 90_000, PerPersonCents: crate, MaxSends: 10,
	})
	require.NoError(t, err)
	addRecipients := func(people ...campaign.RecipientInput) (campaign.RecipientsAdded, error) {
		return w.env.App.Campaigns.AddRecipients(ctx, w.owner, c.ID, campaign.RecipientsAdd{Recipients: people})
	}
	first, err := addRecipients(ida("ida-1"))
	require.NoError(t, err)
	idaID := first.Added[0]

	// add_recipients, also as an import row.
	_, err = addRecipients(ida("ida-2"))
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipients[0].externalId")
	row := ida("ida-2")
	row.ImportID, row.ImportRowID = "imp-1", "row-7"
	_, err = addRecipients(newPerson("1"), row)
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipients[1].externalId")
	_, err = addRecipients(campaign.RecipientInput{Email: "ida@example.com", SourceSystem: "salesforce", ExternalID: "ida-1"})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipients[0].sourceSystem")
	again, err := addRecipients(campaign.RecipientInput{SourceSystem: "hubspot", ExternalID: "ida-1"})
	require.NoError(t, err)
	require.Empty(t, again.Added)
	require.Equal(t, idaID, again.Skipped[0].RecipientID)

	// update_campaign's recipients (the whole roster).
	_, err = w.env.App.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Recipients: []campaign.RecipientInput{ida("ida-2")}})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipients[0].externalId")
	_, err = w.env.App.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Recipients: []campaign.RecipientInput{
		{RecipientID: idaID, ExternalID: "ida-2"},
	}})
	requireRefusal(t, err, core.CodeRecipientIdentityConflict, "recipients[0].externalId")
	got, err := w.env.App.Campaigns.GetCampaign(ctx, w.owner, c.ID)
	require.NoError(t, err)
	require.Len(t, got.Recipients, 1)
	require.Equal(t, "ida-1", got.Recipients[0].ExternalID)

	// A roster edit may fill an empty one, and rename the person.
	got, err = w.env.App.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Recipients: []campaign.RecipientInput{
		{Email: "ida@example.com", Name: "Ida B. Wells"}, {Name: "Bo", Email: "bo@example.com"},
	}})
	require.NoError(t, err)
	require.Equal(t, idaID, got.Recipients[0].RecipientID)
	got, err = w.env.App.Campaigns.UpdateCampaign(ctx, w.owner, c.ID, campaign.CampaignPatch{Recipients: []campaign.RecipientInput{
		{RecipientID: idaID}, {Email: "bo@example.com", SourceSystem: "hubspot", ExternalID: "bo-1"},
	}})
	require.NoError(t, err)
	require.Equal(t, "bo-1", got.Recipients[1].ExternalID)
	require.Equal(t, "Ida B. Wells", got.Recipients[0].Name)
}
