package db

// The statements TestAddLookupsReadByIdentity explains.
var (
	PlaybookLockForAddSQL        = playbookLockForAdd
	SendPriorForRecipientSQL     = sendPriorForRecipient
	SendPriorForRecipientsSQL    = sendPriorForRecipients
	SendPriorForCampaignsSQL     = sendPriorForCampaigns
	RecipientCandidatesForAddSQL = recipientCandidatesForAdd
)
