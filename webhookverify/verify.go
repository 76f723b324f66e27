// Package webhookverify checks that a webhook delivery came from Giftwell,
// now: the X-Giftwell-Signature header is "t=<unix seconds>,v1=<hex>",
// where v1 is the lowercase hex HMAC-SHA256 of "<t>.<raw body>" keyed by
// the endpoint's secret as UTF-8 text. Verify the raw body before parsing
// it, then deduplicate on X-Giftwell-Event-Id: delivery is at least once.
//
// It depends on nothing but the standard library, so a receiver may
// import it alone:
//
//	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
//	if err != nil {
//		http.Error(w, "unreadable body", http.StatusBadRequest)
//		return
//	}
//	if err := webhookverify.Verify(secret, r.Header.Get(webhookverify.HeaderSignature), body, time.Now()); err != nil {
//		http.Error(w, "bad signature", http.StatusBadRequest)
//		return
//	}
package webhookverify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// The delivery headers.
const (
	// HeaderSignature carries "t=<unix seconds>,v1=<hex>".
	HeaderSignature = "X-Giftwell-Signature"
	// HeaderEventID carries the event's id, the same on every attempt:
	// the key to deduplicate on.
	HeaderEventID = "X-Giftwell-Event-Id"
)

// Tolerance is how far a signature's t may be from now, either way.
const Tolerance = 300 * time.Second

// The refusals of Verify; test them with errors.Is.
var (
	// ErrMissingSignature: the header is empty.
	ErrMissingSignature = errors.New("webhookverify: missing X-Giftwell-Signature header")
	// ErrMalformedSignature: the header is not "t=<unix seconds>,v1=<hex>"
	// (one t, at least one v1).
	ErrMalformedSignature = errors.New("webhookverify: malformed X-Giftwell-Signature header")
	// ErrNoMatch: no v1 is the signature of this body under this secret.
	ErrNoMatch = errors.New("webhookverify: no signature matches the body")
	// ErrTimestampTooOld: t is more than the tolerance before now (a
	// replay, or a clock far behind).
	ErrTimestampTooOld = errors.New("webhookverify: signature timestamp too old")
	// ErrTimestampTooNew: t is more than the tolerance after now (a clock
	// far ahead).
	ErrTimestampTooNew = errors.New("webhookverify: signature timestamp too far in the future")
)

// Verify checks signatureHeader (X-Giftwell-Signature) against the raw
// body under secret, with t within Tolerance of now. It returns nil, or
// one of the Err values.
func Verify(secret, signatureHeader string, body []byte, now time.Time) error {
	return VerifyWithTolerance(secret, signatureHeader, body, now, Tolerance)
}

// VerifyWithTolerance is Verify with another tolerance; zero or less does
// not check t at all (only for replaying stored deliveries in tests).
func VerifyWithTolerance(secret, signatureHeader string, body []byte, now time.Time, tolerance time.Duration) error {
	t, sigs, err := parse(signatureHeader)
	if err != nil {
		return err
	}
	expected := mac(secret, t, body)
	match := false
	for _, s := range sigs {
		got, err := hex.DecodeString(s)
		if err == nil && hmac.Equal(got, expected) {
			match = true
		}
	}
	if !match {
		return ErrNoMatch
	}
	if tolerance <= 0 {
		return nil
	}
	sec, _ := strconv.ParseInt(t, 10, 64) // parse checked it
	at := time.Unix(sec, 0)
	switch {
	case now.Sub(at) > tolerance:
		return ErrTimestampTooOld
	case at.Sub(now) > tolerance:
		return ErrTimestampTooNew
	}
	return nil
}

// SignatureHeader is the X-Giftwell-Signature of body signed with secret
// at t: for a receiver's own tests.
func SignatureHeader(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

// parse splits a signature header into its t (as sent) and its v1 values;
// other schemes (v0, a future v2) are ignored.
func parse(header string) (t string, v1 []string, err error) {
	if strings.TrimSpace(header) == "" {
		return "", nil, ErrMissingSignature
	}
	for part := range strings.SplitSeq(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return "", nil, ErrMalformedSignature
		}
		switch key {
		case "t":
			if t != "" || !digits(value) {
				return "", nil, ErrMalformedSignature
			}
			if _, err := strconv.ParseInt(value, 10, 64); err != nil {
				return "", nil, ErrMalformedSignature
			}
			t = value
		case "v1":
			v1 = append(v1, value)
		}
	}
	if t == "" || len(v1) == 0 {
		return "", nil, ErrMalformedSignature
	}
	return t, v1, nil
}

// mac is HMAC-SHA256 keyed by secret (UTF-8) over "<t>.<body>".
func mac(secret, t string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(t))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
