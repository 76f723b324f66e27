package core

import (
	"crypto/rand"
	"encoding/hex"
)

// ID prefixes, as DESIGN.md fixes them.
const (
	PrefixWorkspace = "ws_"
	PrefixUser      = "usr_"
	PrefixCampaign  = "cmp_"
	PrefixRecipient = "recipient_"
	PrefixSend      = "send_"
	PrefixAsset     = "asset_"
	PrefixCheckout  = "chk_"
	PrefixLedger    = "led_"
	PrefixEvent     = "evt_"
	PrefixWebhook   = "whk_"
	PrefixDelivery  = "dlv_"
	PrefixImport    = "imp_"
	PrefixExport    = "exp_"
	PrefixInvite    = "inv_"
	PrefixKey       = "key_"
	PrefixRefund    = "rfd_"
	PrefixQuote     = "quo_"
	PrefixActivity  = "act_"
)

// NewID returns prefix followed by 24 lowercase hex characters: 96 bits from
// crypto/rand.
func NewID(prefix string) string {
	return prefix + RandomHex(12)
}

// RandomHex returns n random bytes from crypto/rand as 2n lowercase hex characters.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+).
	return hex.EncodeToString(b)
}
