package webhooksend_test

import (
	"context"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"code.dny.dev/ssrf"

	"github.com/giftwell/giftwell/internal/webhooksend"
)

// anyNamePublic resolves every name to one public address.
type anyNamePublic struct{}

func (anyNamePublic) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
}

// Whatever the URL, CheckURL does not panic, and what it accepts is https
// with a host that is a name or a public address in its usual spelling.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://hooks.example.com/x", "https://93.184.215.14/", "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/",
		"https://2130706433/", "https://0x7f.1/", "https://127.1./", "https://[::ffff:127.0.0.1]/", "https://[fe80::1%25eth0]/",
		"https://a..b/", "https://localhost/", "http://127.0.0.1:9999@evil/", "https://0177.0.0.01/", "https://1.2.3.4.5/",
		"https://xn--nxasmq6b.example/", "https://例え.jp/", "https://93.184.215.14:65535/", "https://[::]:443/",
	} {
		f.Add(s)
	}
	c, err := webhooksend.New(webhooksend.Options{Resolver: anyNamePublic{}})
	require.NoError(f, err)
	guard := ssrf.New(ssrf.WithAnyPort())
	f.Fuzz(func(t *testing.T, raw string) {
		if c.CheckURL(context.Background(), raw) != nil {
			return
		}
		u, err := url.Parse(raw)
		require.NoError(t, err)
		require.Equal(t, "https", u.Scheme)
		require.Nil(t, u.User)
		host := u.Hostname()
		if a, err := netip.ParseAddr(host); err == nil {
			require.NoError(t, guard.SafeAddr(a), raw)
			return
		}
		require.False(t, strings.Trim(host, "0123456789.") == "", "a numeric host was accepted as a name: %q", raw)
	})
}
