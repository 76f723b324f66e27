package webhookverify_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/webhookverify"
)

// A secret as core derives them: 64 hex characters, used as text.
const secret = "5f0c8d3e7a9b21c4d6e8f0a1b3c5d7e9f1a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0"

var (
	body = []byte(`{"id":"evt_01","type":"send.created","mode":"test","cursor":"c_1"}`)
	at   = time.Unix(1_700_000_000, 0)
)

// signed is the header core/webhook would send for body at t.
func signed(t time.Time, b []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + webhook.Sign(secret, ts, b)
}

// A fixed vector, computed outside Go (openssl dgst -sha256 -hmac), pins
// the rule: HMAC-SHA256 keyed by the secret's text over "<t>.<body>".
func TestKnownVector(t *testing.T) {
	t.Parallel()
	const (
		key  = "whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
		raw  = `{"id":"evt_01","type":"send.created"}`
		want = "36eae2744415d16f621b506d62cadea8edfaa5237d3c01f28f7fc83d96f208ae"
	)
	require.Equal(t, want, webhook.Sign(key, "1700000000", []byte(raw)))
	require.Equal(t, "t=1700000000,v1="+want, webhookverify.SignatureHeader(key, at, []byte(raw)))
	require.NoError(t, webhookverify.Verify(key, "t=1700000000,v1="+want, []byte(raw), at))
}

// What core signs, the verifier accepts, within the tolerance either way.
func TestVerifiesCoreSignatures(t *testing.T) {
	t.Parallel()
	h := signed(at, body)
	require.Equal(t, h, webhookverify.SignatureHeader(secret, at, body))
	require.NoError(t, webhookverify.Verify(secret, h, body, at))
	require.NoError(t, webhookverify.Verify(secret, h, body, at.Add(webhookverify.Tolerance)))
	require.NoError(t, webhookverify.Verify(secret, h, body, at.Add(-webhookverify.Tolerance)))
	require.NoError(t, webhookverify.Verify(secret, " t=1700000000 , v1=deadbeef, v1="+webhook.Sign(secret, "1700000000", body)+",v0=zz", body, at),
		"several v1 values: any match wins; other schemes are ignored")
}

// Each refusal is its sentinel error.
func TestRefusals(t *testing.T) {
	t.Parallel()
	good := signed(at, body)
	sig := webhook.Sign(secret, "1700000000", body)
	hexKey, err := hex.DecodeString(secret)
	require.NoError(t, err)
	m := hmac.New(sha256.New, hexKey)
	m.Write([]byte("1700000000." + string(body)))
	hexDecoded := hex.EncodeToString(m.Sum(nil))

	for _, tc := range []struct {
		name, secret, header string
		body                 []byte
		now                  time.Time
		want                 error
	}{
		{"tampered body", secret, good, []byte(`{"id":"evt_01","type":"send.created","mode":"live","cursor":"c_1"}`), at, webhookverify.ErrNoMatch},
		{"one byte more", secret, good, append(append([]byte{}, body...), ' '), at, webhookverify.ErrNoMatch},
		{"wrong secret", secret[:63] + "1", good, body, at, webhookverify.ErrNoMatch},
		{"secret hex-decoded by the signer", secret, "t=1700000000,v1=" + hexDecoded, body, at, webhookverify.ErrNoMatch},
		{"other t, same v1", secret, "t=1700000001,v1=" + sig, body, at, webhookverify.ErrNoMatch},
		{"uppercase hex still decodes", secret, "t=1700000000,v1=" + upper(sig), body, at, nil},
		{"v1 not hex", secret, "t=1700000000,v1=zz", body, at, webhookverify.ErrNoMatch},
		{"old t", secret, good, body, at.Add(webhookverify.Tolerance + time.Second), webhookverify.ErrTimestampTooOld},
		{"future t", secret, good, body, at.Add(-webhookverify.Tolerance - time.Second), webhookverify.ErrTimestampTooNew},
		{"empty header", secret, "", body, at, webhookverify.ErrMissingSignature},
		{"no t", secret, "v1=" + sig, body, at, webhookverify.ErrMalformedSignature},
		{"no v1", secret, "t=1700000000", body, at, webhookverify.ErrMalformedSignature},
		{"two t", secret, "t=1700000000,t=1700000000,v1=" + sig, body, at, webhookverify.ErrMalformedSignature},
		{"t not a number", secret, "t=17e8,v1=" + sig, body, at, webhookverify.ErrMalformedSignature},
		{"negative t", secret, "t=-1,v1=" + sig, body, at, webhookverify.ErrMalformedSignature},
		{"part without =", secret, "t=1700000000;v1=" + sig, body, at, webhookverify.ErrMalformedSignature},
		{"garbage", secret, "hello", body, at, webhookverify.ErrMalformedSignature},
	} {
		err := webhookverify.Verify(tc.secret, tc.header, tc.body, tc.now)
		if tc.want == nil {
			require.NoError(t, err, tc.name)
			continue
		}
		require.ErrorIs(t, err, tc.want, tc.name)
	}
}

// A tolerance of zero checks the signature only.
func TestVerifyWithTolerance(t *testing.T) {
	t.Parallel()
	h := signed(at, body)
	later := at.Add(time.Hour)
	require.ErrorIs(t, webhookverify.Verify(secret, h, body, later), webhookverify.ErrTimestampTooOld)
	require.NoError(t, webhookverify.VerifyWithTolerance(secret, h, body, later, 2*time.Hour))
	require.NoError(t, webhookverify.VerifyWithTolerance(secret, h, body, later, 0))
	require.ErrorIs(t, webhookverify.VerifyWithTolerance(secret, h, []byte("{}"), later, 0), webhookverify.ErrNoMatch)
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
