package notify

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"strings"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/sql/db"
)

// unsubscribeLabel is the label of core.Config.Derive for unsubscribe tokens.
const unsubscribeLabel = "giftwell unsubscribe v1"

// unsubscribeMACBytes is how much of the HMAC a token carries (128 bits).
const unsubscribeMACBytes = 16

// Unsubscribe is what an unsubscribe token names: one person's one kind of
// email from one workspace.
type Unsubscribe struct {
	WorkspaceID string
	UserID      string
	Kind        Kind
}

// UnsubscribeToken is the token of the one-click unsubscribe link of u:
// its fields, then an HMAC over them under the service's secret key
// (core.Config.Derive), both base64url. Nothing is stored: the token is
// checked by computing the HMAC again, so it cannot be guessed or altered
// without the secret key.
func (s *Service) UnsubscribeToken(u Unsubscribe) string {
	payload := u.WorkspaceID + "|" + u.UserID + "|" + string(u.Kind)
	mac := s.Config.Derive(unsubscribeLabel, []byte(payload))[:unsubscribeMACBytes]
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(mac)
}

// UnsubscribeURL is the one-click unsubscribe link of u:
// {site_url}/unsubscribe/<token>.
func (s *Service) UnsubscribeURL(u Unsubscribe) string {
	return s.Config.SiteURL + "/unsubscribe/" + s.UnsubscribeToken(u)
}

// ReadUnsubscribe checks token and returns what it names. It returns
// NOT_FOUND for a token that is malformed, altered or forged (the HMAC does
// not match), the same answer for each so that nothing is learnt.
func (s *Service) ReadUnsubscribe(token string) (Unsubscribe, error) {
	bad := core.Errorf(core.CodeNotFound, "this unsubscribe link is not valid: it may be mistyped or cut short")
	rawPayload, rawMAC, ok := strings.Cut(token, ".")
	if !ok || len(token) > 400 {
		return Unsubscribe{}, bad
	}
	payload, err := base64.RawURLEncoding.Strict().DecodeString(rawPayload)
	if err != nil {
		return Unsubscribe{}, bad
	}
	mac, err := base64.RawURLEncoding.Strict().DecodeString(rawMAC)
	if err != nil {
		return Unsubscribe{}, bad
	}
	want := s.Config.Derive(unsubscribeLabel, payload)[:unsubscribeMACBytes]
	if !hmac.Equal(mac, want) {
		return Unsubscribe{}, bad
	}
	parts := strings.Split(string(payload), "|")
	if len(parts) != 3 || !Kind(parts[2]).Valid() {
		return Unsubscribe{}, bad
	}
	return Unsubscribe{WorkspaceID: parts[0], UserID: parts[1], Kind: Kind(parts[2])}, nil
}

// Unsubscribed turns off the one kind of email token names, for its person
// and workspace (the GET confirm page's button, and RFC 8058's one-click
// POST). It is idempotent. It returns what was turned off, the codes of
// ReadUnsubscribe, NOT_FOUND when the person is no longer in the
// workspace, or INTERNAL_ERROR.
func (s *Service) Unsubscribed(ctx context.Context, token string) (Unsubscribe, error) {
	u, err := s.ReadUnsubscribe(token)
	if err != nil {
		return Unsubscribe{}, err
	}
	q := db.New(s.DB)
	member, err := q.MembershipExists(ctx, db.MembershipExistsParams{WorkspaceID: u.WorkspaceID, UserID: u.UserID})
	if err != nil {
		return Unsubscribe{}, core.Internal(err)
	}
	if !member {
		return Unsubscribe{}, core.Errorf(core.CodeNotFound, "this unsubscribe link is for someone no longer in that workspace; nothing is sent to them")
	}
	if err := setChoice(ctx, q, u.WorkspaceID, u.UserID, u.Kind, false, s.Clock.Now()); err != nil {
		return Unsubscribe{}, err
	}
	return u, nil
}
