package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/connect"
)

func TestServeOAuthCallbacksFlag(t *testing.T) {
	own := "https://assistant.example/oauth/callback"
	for _, tc := range []struct {
		env  string
		args []string
		want []string
	}{
		{"", nil, connect.DefaultOAuthCallbacks},
		{own, nil, []string{own}},
		{own + " , https://claude.ai/api/mcp/auth_callback", nil, []string{own, "https://claude.ai/api/mcp/auth_callback"}},
		{own, []string{"--oauth-callbacks=none"}, []string{}},
		{"none", []string{"--oauth-callbacks", own}, []string{own}},
	} {
		t.Setenv("GIFTWELL_OAUTH_CALLBACKS", tc.env)
		cfg, err := serveFlags(tc.args)
		require.NoError(t, err, "%q %v", tc.env, tc.args)
		require.Equal(t, tc.want, cfg.oauthCallbacks, "%q %v", tc.env, tc.args)
	}
	t.Setenv("GIFTWELL_OAUTH_CALLBACKS", "")
	for _, bad := range []string{"http://127.0.0.1/cb", "https://a.example/cb?x=1", "myapp:/cb"} {
		_, err := serveFlags([]string{"--oauth-callbacks", bad})
		require.ErrorContains(t, err, "--oauth-callbacks", bad)
	}
}
