package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/giftwell/giftwell/core/connect"
)

// serveOAuthCallbacksFlag adds --oauth-callbacks: the https redirect URIs
// OAuth clients may register, compared exactly (loopback http and custom
// application schemes need no listing). It returns the raw value, for
// parseOAuthCallbacks once the flags are parsed.
func serveOAuthCallbacksFlag(fs *flag.FlagSet) *string {
	return fs.String("oauth-callbacks", env("GIFTWELL_OAUTH_CALLBACKS", strings.Join(connect.DefaultOAuthCallbacks, ",")),
		"comma-separated https callbacks OAuth clients may register, exactly; none allows no https callback (env GIFTWELL_OAUTH_CALLBACKS)")
}

// parseOAuthCallbacks reads --oauth-callbacks: nil (the default list) when
// empty, an empty list for none, else each https URL, checked with
// connect.CheckOAuthCallbacks.
func parseOAuthCallbacks(raw string) ([]string, error) {
	raw = strings.TrimSpace(raw)
	switch raw {
	case "":
		return nil, nil
	case "none":
		return []string{}, nil
	}
	var out []string
	for c := range strings.SplitSeq(raw, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	if err := connect.CheckOAuthCallbacks(out); err != nil {
		return nil, fmt.Errorf("--oauth-callbacks: %w", err)
	}
	return out, nil
}
