package connect

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// MaxRedirectURILength bounds a registered redirect URI, in bytes.
const MaxRedirectURILength = 2000

// DefaultOAuthCallbacks are the https callbacks accepted when the operator
// names none (core.Config.OAuthCallbacks is nil): the published OAuth
// callbacks of Claude (claude.ai and claude.com) and of ChatGPT's
// connectors.
var DefaultOAuthCallbacks = []string{
	"https://claude.ai/api/mcp/auth_callback",
	"https://claude.com/api/mcp/auth_callback",
	"https://chatgpt.com/connector_platform_oauth_redirect",
}

// OAuthCallbacks returns the https callbacks a client may register on the
// site of cfg: cfg.OAuthCallbacks, or DefaultOAuthCallbacks when it is nil.
func OAuthCallbacks(cfg core.Config) []string {
	if cfg.OAuthCallbacks == nil {
		return DefaultOAuthCallbacks
	}
	return cfg.OAuthCallbacks
}

// CheckOAuthCallbacks reports why an operator's list of https callbacks
// cannot be used, naming the first bad entry, or nil. Each must be an https
// URL that ValidateRedirectURI would accept once listed.
func CheckOAuthCallbacks(callbacks []string) error {
	for _, c := range callbacks {
		if !strings.HasPrefix(c, "https://") {
			return fmt.Errorf("%q: an allowed callback must be an https URL", c)
		}
		if err := ValidateRedirectURI(c, []string{c}); err != nil {
			return fmt.Errorf("%q: %v", c, err)
		}
	}
	return nil
}

// refusedSchemes are schemes a browser would run, read locally or hand to
// something other than the registering application: never a redirect target.
var refusedSchemes = map[string]bool{
	"javascript": true, "data": true, "file": true, "vbscript": true, "about": true,
	"blob": true, "filesystem": true, "ftp": true, "ws": true, "wss": true,
	"view-source": true, "mailto": true, "tel": true, "sms": true, "jar": true,
}

// ValidateRedirectURI reports why raw cannot be registered as an OAuth
// redirect URI, or nil. Allowed (spec Authentication §3, RFC 8252):
//
//   - https callbacks that are exactly one of callbacks (the operator's
//     list, OAuthCallbacks: the assistants' published callbacks);
//   - loopback http callbacks on 127.0.0.1, [::1] or localhost, any port and path;
//   - custom application schemes of desktop clients, reverse-DNS or a
//     single word (com.example.app:/cb, cursor://anysphere.cursor-retrieval/cb),
//     never one a browser handles itself (refusedSchemes).
//
// Never a query, a fragment, credentials, a dot segment, a backslash,
// whitespace or control characters, and only in the exact lowercase form
// the match compares byte for byte.
func ValidateRedirectURI(raw string, callbacks []string) error {
	if raw == "" {
		return errors.New("is empty")
	}
	if len(raw) > MaxRedirectURILength {
		return errors.New("is longer than 2000 bytes")
	}
	for _, c := range raw {
		if c <= 0x20 || c == 0x7f || c == '\\' || c > 0x7e {
			return errors.New("contains whitespace, a backslash, a control or a non-ASCII character")
		}
	}
	if strings.ContainsAny(raw, "?#") {
		return errors.New("must not have a query or fragment")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("is not a URI")
	}
	if u.Scheme == "" {
		return errors.New("must be absolute")
	}
	if !strings.HasPrefix(raw, u.Scheme+":") {
		return errors.New("scheme must be lowercase")
	}
	if u.User != nil || strings.Contains(u.Host, "@") {
		return errors.New("must not carry credentials")
	}
	if hasDotSegment(u.EscapedPath()) || hasDotSegment(u.Opaque) {
		return errors.New("must not have . or .. path segments")
	}
	if strings.Contains(strings.ToLower(raw), "%2e") || strings.Contains(strings.ToLower(raw), "%2f") || strings.Contains(raw, "%5c") || strings.Contains(raw, "%5C") {
		return errors.New("must not encode dots or slashes")
	}
	switch u.Scheme {
	case "https":
		if u.Hostname() == "" {
			return errors.New("https callbacks need a host")
		}
		if u.Host != strings.ToLower(u.Host) {
			return errors.New("host must be lowercase")
		}
		if !slices.Contains(callbacks, raw) {
			return errors.New("is not one of this server's allowed https callbacks; use a loopback http or a custom-scheme callback")
		}
		return nil
	case "http":
		if _, _, ok := splitLoopback(raw); !ok {
			return errors.New("plain http is allowed only for loopback callbacks on 127.0.0.1, [::1] or localhost")
		}
		return nil
	}
	if refusedSchemes[u.Scheme] {
		return errors.New("scheme " + u.Scheme + " is not allowed")
	}
	if !applicationScheme(u.Scheme) {
		return errors.New("a custom scheme must be a reverse-DNS name (com.example.app) or a single word")
	}
	if u.Host == "" && u.Opaque == "" && u.Path == "" {
		return errors.New("custom-scheme callbacks need a path")
	}
	return nil
}

// applicationScheme reports whether a lowercase scheme names an
// application: a single word of letters, digits and hyphens starting with
// a letter, or such words joined by dots (reverse DNS, RFC 8252 §7.1).
func applicationScheme(s string) bool {
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		if strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return s[0] >= 'a' && s[0] <= 'z'
}

// RedirectURIMatches reports whether requested, sent at authorization,
// matches the registered redirect URI: byte for byte, except that a loopback
// http callback may name another port (RFC 8252 §7.3), including none.
// Both must still be allowed by ValidateRedirectURI with callbacks, so an
// https callback the operator has since removed from the list matches nothing.
func RedirectURIMatches(registered, requested string, callbacks []string) bool {
	if ValidateRedirectURI(requested, callbacks) != nil {
		return false
	}
	if registered == requested {
		return ValidateRedirectURI(registered, callbacks) == nil
	}
	rh, rr, ok := splitLoopback(registered)
	if !ok {
		return false
	}
	qh, qr, ok := splitLoopback(requested)
	return ok && rh == qh && rr == qr
}

// splitLoopback splits a loopback http URI into its host (without port) and
// what follows the port, checking the port is 1 to 5 digits.
func splitLoopback(raw string) (host, rest string, ok bool) {
	s, found := strings.CutPrefix(raw, "http://")
	if !found {
		return "", "", false
	}
	for _, h := range []string{"127.0.0.1", "[::1]", "localhost"} {
		after, found := strings.CutPrefix(s, h)
		if !found {
			continue
		}
		if after == "" || after[0] == '/' {
			return h, after, true
		}
		if after[0] != ':' {
			return "", "", false
		}
		end := strings.IndexByte(after, '/')
		if end < 0 {
			end = len(after)
		}
		port := after[1:end]
		if len(port) == 0 || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
			return "", "", false
		}
		return h, after[end:], true
	}
	return "", "", false
}

// hasDotSegment reports whether a path has a "." or ".." segment.
func hasDotSegment(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
