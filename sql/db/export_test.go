package db

// The statements TestAddLookupsReadByIdentity explains.
var (
	PlaybookLockForAddSQL        = playbookLockForAdd
	SendPriorForRecipientsSQL    = sendPriorForRecipients
	SendPriorForCampaignsSQL     = sendPriorForCampaigns
	RecipientCandidatesForAddSQL = recipientCandidatesForAdd
)
