package identity_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

var keyShape = regexp.MustCompile(`^gwk_[0-9a-f]{64}$`)

// FuzzIsAPIKeyFormat checks the key-shape check against a regular
// expression, and that a malformed token never reaches the database (the App
// has none: a query would panic).
func FuzzIsAPIKeyFormat(f *testing.F) {
	for _, s := range []string{"", "gwk_", "gwk_" + core.RandomHex(32), "GWK_00", "mco_access_x", "gwk_" + core.RandomHex(31) + "zz"} {
		f.Add(s)
	}
	app := giftwell.New(nil, core.Config{}, nil, nil)
	f.Fuzz(func(t *testing.T, s string) {
		want := keyShape.MatchString(s)
		if got := identity.IsAPIKeyFormat(s); got != want {
			t.Fatalf("IsAPIKeyFormat(%q) = %v, want %v", s, got, want)
		}
		if !want {
			if _, err := app.Connect.Authenticate(context.Background(), s); core.ErrorCode(err) != core.CodeAuthRequired {
				t.Fatalf("Authenticate(%q) = %v, want AUTH_REQUIRED", s, err)
			}
		}
	})
}
