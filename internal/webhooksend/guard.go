package webhooksend

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"code.dny.dev/ssrf"
)

// guardian decides which addresses are public: code.dny.dev/ssrf's lists
// (the IANA special-purpose registries, everything outside IPv6 global
// unicast, the embedded IPv4 forms), on any TCP port.
var guardian = ssrf.New(ssrf.WithAnyPort())

// privateSuffixes are the name suffixes that never name a public host:
// special-use names (RFC 6761, 6762, 8375, 9476) and the private top-level
// names people use on their own networks.
var privateSuffixes = []string{
	"localhost", "local", "internal", "arpa", "test", "invalid", "onion", "alt",
	"localdomain", "lan", "home", "corp", "intranet", "private",
}

// maxName bounds a host name, in bytes (RFC 1035).
const maxName = 253

// CheckURL checks an endpoint URL at registration (webhook.URLGuard): nil
// for a URL under one of the operator's allowed prefixes; otherwise the
// URL must be https, and its host a public IPv4 or IPv6 address written in
// the usual way, or a public name every address of which is public. The
// error says why, in words that read after "url: ".
func (c *Client) CheckURL(ctx context.Context, rawURL string) error {
	u, err := parseURL(rawURL)
	if err != nil {
		return err
	}
	if c.allowed(u) {
		return nil
	}
	name, err := checkHost(u)
	if err != nil || name == "" {
		return err
	}
	return c.checkResolves(ctx, name)
}

// parseURL parses an endpoint URL and refuses shapes no delivery may take:
// not absolute, no host, credentials, a fragment.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("is not a valid URL (%v)", err)
	}
	switch {
	case !u.IsAbs() || u.Opaque != "" || u.Host == "":
		return nil, errors.New("must be an absolute URL like https://hooks.example.com/giftwell")
	case u.User != nil || strings.Contains(u.Host, "@"):
		return nil, errors.New("must not carry a user name or password; deliveries are authenticated by their signature")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, errors.New("must not have a fragment")
	}
	return u, nil
}

// checkHost applies the rules that need no network to u, a URL under no
// allowed prefix: https, a host that is a public address in its usual
// spelling, or a name that may be public. It returns the name to resolve,
// or "" when the host is an address (and public).
func checkHost(u *url.URL) (string, error) {
	if u.Scheme != "https" {
		return "", fmt.Errorf("must use https (%s:// is not accepted)", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("port %s is not a TCP port", p)
		}
	}
	host := u.Hostname()
	if strings.HasPrefix(u.Host, "[") {
		return "", checkIPv6(host)
	}
	if host == "" {
		return "", errors.New("must name a host")
	}
	if strings.HasSuffix(host, "..") || strings.HasPrefix(host, ".") {
		return "", fmt.Errorf("%s is not a valid host name", host)
	}
	if endsInNumber(host) {
		return "", checkIPv4(host)
	}
	return checkName(host)
}

// checkIPv6 checks a bracketed host: a public IPv6 address, no zone.
func checkIPv6(host string) error {
	if strings.Contains(host, "%") {
		return fmt.Errorf("%s names a network interface (an IPv6 zone), not a public address", host)
	}
	a, err := netip.ParseAddr(host)
	if err != nil || !a.Is6() {
		return fmt.Errorf("[%s] is not an IPv6 address", host)
	}
	if guardian.SafeAddr(a) != nil {
		return errors.New(notPublic(a))
	}
	return nil
}

// checkIPv4 checks a host that reads as an IPv4 address: public, and
// written as four decimal numbers (a public address in another notation
// is refused too, so that what is stored is what is dialled).
func checkIPv4(host string) error {
	a, err := parseLooseIPv4(host)
	if err != nil {
		return err
	}
	canonical := a.String() == host
	if guardian.SafeAddr(a) != nil {
		if canonical {
			return errors.New(notPublic(a))
		}
		return fmt.Errorf("%s is %s written another way, %s, not a public address", host, a, kind(a))
	}
	if !canonical {
		return fmt.Errorf("%s is %s written another way; write the address as four decimal numbers (%s)", host, a, a)
	}
	return nil
}

// checkName checks a host name's spelling and refuses the names that are
// never public: localhost, single labels, the special-use and private
// suffixes. It returns the name, lower case and without a trailing dot.
func checkName(host string) (string, error) {
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if len(name) > maxName {
		return "", fmt.Errorf("the host name is longer than %d characters", maxName)
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if !validLabel(l) {
			if !isASCII(l) {
				return "", fmt.Errorf("%s is not an ASCII host name; write an international name in its xn-- form", host)
			}
			return "", fmt.Errorf("%s is not a valid host name", host)
		}
	}
	if len(labels) == 1 {
		return "", fmt.Errorf("%s is a single-label name, which names a host on a local network, not a public one", host)
	}
	tld := labels[len(labels)-1]
	for _, s := range privateSuffixes {
		if tld == s {
			return "", fmt.Errorf("%s is under .%s, which names no public host", host, s)
		}
	}
	return name, nil
}

// validLabel reports whether l is a host name label: 1 to 63 letters,
// digits, hyphens and underscores, no hyphen at either end.
func validLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isASCII reports whether s is ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// checkResolves resolves name within the resolve timeout and refuses it
// unless it has addresses and every one is public.
func (c *Client) checkResolves(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, c.resolveTimeout)
	defer cancel()
	addrs, err := c.lookup(ctx, name)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if guardian.SafeAddr(a) != nil {
			return fmt.Errorf("%s resolves to %s, %s, not a public address", name, a, kind(a))
		}
	}
	return nil
}

// lookup resolves name to its addresses (IPv4 ones unmapped), or an error
// that says it does not resolve.
func (c *Client) lookup(ctx context.Context, name string) ([]netip.Addr, error) {
	addrs, err := c.resolver.LookupNetIP(ctx, "ip", name)
	if err != nil {
		var dnsErr *net.DNSError
		switch {
		case ctx.Err() != nil || errors.As(err, &dnsErr) && dnsErr.IsTimeout:
			return nil, fmt.Errorf("%s could not be resolved within %s", name, c.resolveTimeout)
		case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
			return nil, fmt.Errorf("%s does not resolve (no such host)", name)
		}
		return nil, fmt.Errorf("%s does not resolve", name)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s does not resolve (no addresses)", name)
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = a.Unmap()
	}
	return out, nil
}
