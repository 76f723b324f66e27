package core

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
)

// LinkSaltBytes is the size of a gift link's random salt: 128 random bits
// per generation.
const LinkSaltBytes = 16

// GiftLinkToken is the token of generation gen of gift sendID's link:
// base64url of Derive over the gift, the generation and the generation's
// random salt (43 characters, 256 bits). The database keeps the salt and
// GiftLinkTokenHash of the token, never the token, so a copy of the
// database reveals no link while the service can show a link again
// (docs/decisions/0066-gift-link-tokens-and-states.md).
func (c Config) GiftLinkToken(sendID string, gen int32, salt []byte) string {
	return base64.RawURLEncoding.EncodeToString(c.Derive("giftwell gift link", []byte(sendID), []byte(strconv.Itoa(int(gen))), salt))
}

// GiftLinkTokenHash is what the database keeps of a token: its SHA-256.
func GiftLinkTokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// GiftLinkURL is a gift link: {site_url}/g/<token>.
func (c Config) GiftLinkURL(token string) string { return c.SiteURL + "/g/" + token }

// GiftLinkTokenShaped reports whether s could be a token (43 base64url
// characters), so a page can refuse anything else without a lookup.
func GiftLinkTokenShaped(s string) bool {
	if len(s) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}
