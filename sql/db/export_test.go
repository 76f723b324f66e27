package db

// The statements TestPriorLookupsReadSendsByIdentity explains.
var (
	PlaybookLockForAddSQL     = playbookLockForAdd
	SendPriorForRecipientSQL  = sendPriorForRecipient
	SendPriorForRecipientsSQL = sendPriorForRecipients
	SendPriorForCampaignsSQL  = sendPriorForCampaigns
)
