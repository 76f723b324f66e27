package webhooksend_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/internal/webhooksend"
)

// names are the fake DNS of the registration table.
var names = map[string][]string{
	"hooks.example.com":        {"93.184.215.14"},
	"v6.example.com":           {"2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
	"both.example.com":         {"93.184.215.14,2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
	"hooks.example.com.":       {"93.184.215.14"},
	"loopback.example.com":     {"127.0.0.1"},
	"private.example.com":      {"10.0.0.5"},
	"mixed.example.com":        {"93.184.215.14,192.168.1.10"},
	"metadata.example.com":     {"169.254.169.254"},
	"mapped.example.com":       {"::ffff:127.0.0.1"},
	"ula.example.com":          {"fd12:3456::1"},
	"nothing.example.com":      {""},
	"cgnat.example.com":        {"100.64.0.1"},
	"ec2-metadata.example.com": {"fd00:ec2::254"},
}

// The SSRF table at registration: every range and encoding the issue
// names is refused with its reason, public URLs and the operator's
// prefixes are accepted.
func TestCheckURL(t *testing.T) {
	t.Parallel()
	c, err := webhooksend.New(webhooksend.Options{
		AllowPrefixes: []string{"http://127.0.0.1:9999/", "http://localhost:8080/hooks/", "https://[::1]:8443/in"},
		Resolver:      newFakeDNS(names),
	})
	require.NoError(t, err)
	for _, tc := range []struct {
		url  string
		want string // "" accepted; else a part of the refusal
	}{
		// Public, accepted.
		{"https://93.184.215.14/hook", ""},
		{"https://93.184.215.14:8443/hook?x=1", ""},
		{"https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook", ""},
		{"https://hooks.example.com/giftwell", ""},
		{"https://HOOKS.Example.com/giftwell", ""},
		{"https://hooks.example.com./giftwell", ""},
		{"https://v6.example.com/", ""},
		{"https://both.example.com/", ""},

		// The operator's prefixes, accepted as they are.
		{"http://127.0.0.1:9999/", ""},
		{"http://127.0.0.1:9999/deliveries?token=1", ""},
		{"http://localhost:8080/hooks/a", ""},
		{"https://[::1]:8443/in", ""},
		{"https://[::1]:8443/in/sub", ""},
		// ... and the tricks that look like them.
		{"http://127.0.0.1:9999@evil.example/", "user name or password"},
		{"http://127.0.0.1:9999:@evil.example/", "user name or password"},
		{"http://127.0.0.1:9999.evil.example/", "not a valid URL"},
		{"https://127.0.0.1:9999/", "127.0.0.1 is a loopback address"},
		{"http://127.0.0.1:99/", "must use https"},
		{"http://localhost:8080/hooks/../admin", "must use https"},
		{"http://localhost:8080/hooks/%2e%2e/admin", "must use https"},
		{"http://localhost:8080/hooks/..%2fadmin", "must use https"},
		{"http://localhost:8080/hooksx", "must use https"},
		{"http://localhost:8080/", "must use https"},
		{"https://[::1]:8443/internal", "::1 is a loopback address"},

		// Shape and scheme.
		{"http://93.184.215.14/hook", "must use https"},
		{"ftp://93.184.215.14/hook", "must use https"},
		{"https:///hook", "absolute URL"},
		{"/hook", "absolute URL"},
		{"https://93.184.215.14/hook#frag", "fragment"},
		{"https://93.184.215.14:0/hook", "not a TCP port"},
		{"https://93.184.215.14:70000/hook", "not a TCP port"},

		// IPv4 ranges.
		{"https://127.0.0.1/", "127.0.0.1 is a loopback address"},
		{"https://127.255.255.254/", "loopback"},
		{"https://0.0.0.0/", "unspecified"},
		{"https://10.0.0.1/", "10.0.0.1 is a private (RFC 1918) address"},
		{"https://172.16.5.4/", "private (RFC 1918)"},
		{"https://192.168.1.1/", "private (RFC 1918)"},
		{"https://169.254.10.10/", "link-local"},
		{"https://169.254.169.254/latest/meta-data/", "cloud metadata"},
		{"https://100.100.100.200/", "cloud metadata"},
		{"https://100.64.0.1/", "carrier-grade NAT"},
		{"https://224.0.0.1/", "multicast"},
		{"https://255.255.255.255/", "broadcast"},
		{"https://192.0.2.10/", "documentation"},
		{"https://198.51.100.10/", "documentation"},
		{"https://203.0.113.10/", "documentation"},
		{"https://198.18.0.1/", "benchmarking"},
		{"https://198.19.255.1/", "benchmarking"},
		{"https://240.0.0.1/", "reserved"},

		// IPv6 ranges and embedded IPv4.
		{"https://[::1]/", "::1 is a loopback address"},
		{"https://[::]/", "unspecified"},
		{"https://[fe80::1]/", "link-local"},
		{"https://[fe80::1%25eth0]/", "IPv6 zone"},
		{"https://[fc00::1]/", "unique-local"},
		{"https://[fd00:ec2::254]/", "cloud metadata"},
		{"https://[fec0::1]/", "site-local"},
		{"https://[ff02::1]/", "multicast"},
		{"https://[2001:db8::1]/", "documentation"},
		{"https://[2001:2::1]/", "benchmarking"},
		{"https://[::ffff:127.0.0.1]/", "IPv4-mapped IPv6 address embedding 127.0.0.1, a loopback address"},
		{"https://[::ffff:7f00:1]/", "IPv4-mapped"},
		{"https://[::ffff:169.254.169.254]/", "cloud metadata"},
		{"https://[::ffff:93.184.215.14]/", "write the IPv4 address itself"},
		{"https://[::127.0.0.1]/", "IPv4-compatible IPv6 address embedding 127.0.0.1"},
		{"https://[::10.0.0.1]/", "IPv4-compatible"},
		{"https://[64:ff9b::127.0.0.1]/", "NAT64 address embedding 127.0.0.1"},
		{"https://[64:ff9b::a9fe:a9fe]/", "NAT64 address embedding 169.254.169.254"},
		{"https://[2002:7f00:1::]/", "6to4 address embedding 127.0.0.1"},
		{"https://[2002:c0a8:101::1]/", "6to4 address embedding 192.168.1.1"},
		{"https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "Teredo address embedding 127.0.0.1"},

		// Encodings that hide an address.
		{"https://2130706433/", "2130706433 is 127.0.0.1 written another way"},
		{"https://0177.0.0.1/", "0177.0.0.1 is 127.0.0.1 written another way"},
		{"https://0x7f.0.0.1/", "is 127.0.0.1 written another way"},
		{"https://0x7f000001/", "is 127.0.0.1 written another way"},
		{"https://0X7F.1/", "is 127.0.0.1 written another way"},
		{"https://127.1/", "127.1 is 127.0.0.1 written another way"},
		{"https://10.1/", "10.1 is 10.0.0.1 written another way"},
		{"https://127.0.0.1./", "127.0.0.1. is 127.0.0.1 written another way"},
		{"https://0/", "0 is 0.0.0.0 written another way"},
		{"https://017700000001/", "is 127.0.0.1 written another way"},
		{"https://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254 written another way, a cloud metadata"},
		{"https://3232235777/", "192.168.1.1 written another way"},
		{"https://1572394766/", "is 93.184.215.14 written another way; write the address as four decimal numbers"},
		{"https://093.184.215.14/", "not an IPv4 address"},
		{"https://127.0.0.256/", "too large"},
		{"https://1.2.3.4.5/", "more than four"},
		{"https://%31%32%37.0.0.1/", "not a valid URL"},
		{"https://evil.0x10/", "not an IPv4 address"},

		// Names.
		{"https://localhost/", "single-label"},
		{"https://LOCALHOST./", "single-label"},
		{"https://app.localhost/", "under .localhost"},
		{"https://printer.local/", "under .local"},
		{"https://metadata.google.internal/computeMetadata/v1/", "under .internal"},
		{"https://1.0.0.127.in-addr.arpa/", "under .arpa"},
		{"https://router.home.arpa/", "under .arpa"},
		{"https://intranet/", "single-label"},
		{"https://metadata/", "single-label"},
		{"https://build.corp/", "under .corp"},
		{"https://ｌｏｃａｌｈｏｓｔ/", "ASCII"},
		{"https://bad_-.example.com-/", "not a valid host name"},
		{"https://a..example.com/", "not a valid host name"},
		{"https://loopback.example.com/", "loopback.example.com resolves to 127.0.0.1, a loopback address"},
		{"https://private.example.com/", "resolves to 10.0.0.5"},
		{"https://mixed.example.com/", "resolves to 192.168.1.10"},
		{"https://metadata.example.com/", "cloud metadata"},
		{"https://mapped.example.com/", "resolves to 127.0.0.1"},
		{"https://ula.example.com/", "unique-local"},
		{"https://cgnat.example.com/", "carrier-grade NAT"},
		{"https://ec2-metadata.example.com/", "cloud metadata"},
		{"https://nothing.example.com/", "does not resolve"},
		{"https://unknown.example.com/", "does not resolve"},
	} {
		err := c.CheckURL(context.Background(), tc.url)
		if tc.want == "" {
			require.NoError(t, err, tc.url)
			continue
		}
		require.Error(t, err, tc.url)
		require.Contains(t, err.Error(), tc.want, tc.url)
		t.Logf("%-55s %s", tc.url, err)
	}
}
