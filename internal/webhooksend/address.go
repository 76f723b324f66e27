package webhooksend

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// metadataAddrs are the cloud providers' instance metadata services. Each is
// in a range the guard refuses anyway; naming them makes the refusal say so.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack ...
	netip.MustParseAddr("169.254.170.2"),   // AWS ECS task metadata
	netip.MustParseAddr("fd00:ec2::254"),   // AWS over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

// rangeName names a range for a refusal's text; the decision is
// code.dny.dev/ssrf's, these words only explain it.
type rangeName struct {
	prefix netip.Prefix
	words  string
}

var rangeNames = []rangeName{
	{netip.MustParsePrefix("0.0.0.0/8"), `a "this network" (0.0.0.0/8) address`},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared carrier-grade NAT (100.64.0.0/10) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol assignment (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation (192.0.2.0/24) address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation (198.51.100.0/24) address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation (203.0.113.0/24) address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking (198.18.0.0/15) address"},
	{netip.MustParsePrefix("255.255.255.255/32"), "the broadcast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved (240.0.0.0/4) address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation (2001:db8::/32) address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation (3fff::/20) address"},
	{netip.MustParsePrefix("2001:2::/48"), "a benchmarking (2001:2::/48) address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local (fec0::/10) address"},
	{netip.MustParsePrefix("fc00::/7"), "a unique-local (fc00::/7) address"},
}

// Embedded IPv4 forms of IPv6.
var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	teredo     = netip.MustParsePrefix("2001::/32")
	v4Compat   = netip.MustParsePrefix("::/96")
)

// notPublic is the plain words of a refusal of a: "127.0.0.1 is a loopback
// address, not a public one".
func notPublic(a netip.Addr) string {
	return a.String() + " is " + kind(a) + ", not a public address"
}

// kind says what sort of address a is, for a refusal.
func kind(a netip.Addr) string {
	if v4, form := embedded(a); form != "" {
		if guardian.SafeAddr(v4) == nil {
			return form + " embedding " + v4.String() + " (write the IPv4 address itself)"
		}
		return form + " embedding " + v4.String() + ", " + kind(v4)
	}
	for _, m := range metadataAddrs {
		if a == m {
			return "a cloud metadata service address"
		}
	}
	switch {
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsMulticast():
		return "a multicast address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.Is4() && a.IsPrivate():
		return "a private (RFC 1918) address"
	}
	for _, r := range rangeNames {
		if r.prefix.Contains(a) {
			return r.words
		}
	}
	if a.Is6() && !a.Is4In6() {
		return "outside the global unicast range or in a special-purpose one"
	}
	return "a special-purpose address"
}

// embedded is the IPv4 address an IPv6 form carries, and the form's name;
// form is empty when a embeds none.
func embedded(a netip.Addr) (v4 netip.Addr, form string) {
	if !a.Is6() {
		return netip.Addr{}, ""
	}
	b := a.As16()
	last := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	switch {
	case a.Is4In6():
		return a.Unmap(), "an IPv4-mapped IPv6 address"
	case nat64.Contains(a), nat64Local.Contains(a):
		return last, "a NAT64 address"
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), "a 6to4 address"
	case teredo.Contains(a):
		// The client's address, obfuscated (RFC 4380, section 4).
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), "a Teredo address"
	case v4Compat.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
		return last, "an IPv4-compatible IPv6 address"
	}
	return netip.Addr{}, ""
}

// endsInNumber reports whether host's last label is a number (decimal, or
// hex with 0x) so that browsers and C resolvers read the host as an IPv4
// address (the URL standard's "ends in a number").
func endsInNumber(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if h, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		return h == "" || isDigits(h, 16)
	}
	return isDigits(last, 10)
}

// parseLooseIPv4 reads host as inet_aton does: one to four parts, each
// decimal, octal (leading 0) or hex (0x), the last filling the remaining
// bytes, so that 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 are all
// 127.0.0.1. A trailing dot is allowed.
func parseLooseIPv4(host string) (netip.Addr, error) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, fmt.Errorf("%s has more than four numeric parts", host)
	}
	var v uint64
	for i, p := range parts {
		n, err := parseNumber(p)
		if err != nil {
			return netip.Addr{}, fmt.Errorf("%s is not an IPv4 address (%s)", host, err)
		}
		left := 4 - i // bytes this part may fill
		if i < len(parts)-1 {
			left = 1
		}
		if n >= 1<<(8*left) {
			return netip.Addr{}, fmt.Errorf("%s is not an IPv4 address (%s is too large)", host, p)
		}
		v = v<<(8*left) | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

// parseNumber reads one part of a loose IPv4 address.
func parseNumber(p string) (uint64, error) {
	base, digits := 10, p
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, digits = 16, p[2:]
		if digits == "" {
			return 0, nil
		}
	case len(p) > 1 && p[0] == '0':
		base, digits = 8, p[1:]
	}
	if digits == "" || !isDigits(digits, base) {
		return 0, fmt.Errorf("%q is not a number", p)
	}
	n, err := strconv.ParseUint(digits, base, 64)
	if err != nil || n > 1<<32 {
		return 1 << 32, nil // too large; the caller says so
	}
	return n, nil
}

// isDigits reports whether s is all digits of base (8, 10 or 16).
func isDigits(s string, base int) bool {
	for _, c := range s {
		switch {
		case c >= '0' && c <= '7':
		case c >= '8' && c <= '9' && base >= 10:
		case (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') && base == 16:
		default:
			return false
		}
	}
	return s != ""
}
