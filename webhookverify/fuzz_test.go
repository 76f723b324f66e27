package webhookverify_test

import (
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/webhook"
	"github.com/giftwell/giftwell/webhookverify"
)

// Whatever the header, Verify does not panic, and it accepts only a header
// one of whose v1 values is core's signature of the body; what
// SignatureHeader makes always verifies.
func FuzzVerify(f *testing.F) {
	f.Add(secret, "t=1700000000,v1=abc", []byte(`{}`), int64(1_700_000_000))
	f.Add(secret, "t=1700000000,v1="+webhook.Sign(secret, "1700000000", []byte(`{}`)), []byte(`{}`), int64(1_700_000_100))
	f.Add("", ",,,=,t=,v1=", []byte(nil), int64(0))
	f.Add("k", "t=00017,v1=00,v1=zz,t", []byte("x"), int64(17))
	f.Fuzz(func(t *testing.T, key, header string, body []byte, now int64) {
		if now < 0 {
			return // a delivery's t is never before 1970
		}
		at := time.Unix(now, 0)
		require.NoError(t, webhookverify.Verify(key, webhookverify.SignatureHeader(key, at, body), body, at))
		if webhookverify.Verify(key, header, body, at) != nil {
			return
		}
		var ts string
		var sigs []string
		for part := range strings.SplitSeq(header, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
			switch k {
			case "t":
				ts = v
			case "v1":
				sigs = append(sigs, v)
			}
		}
		_, err := strconv.ParseUint(ts, 10, 63)
		require.NoError(t, err)
		want := webhook.Sign(key, ts, body)
		for _, s := range sigs {
			if b, err := hex.DecodeString(s); err == nil && hex.EncodeToString(b) == want {
				return
			}
		}
		t.Fatalf("accepted %q without core's signature %s", header, want)
	})
}
