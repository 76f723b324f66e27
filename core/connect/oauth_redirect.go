package connect

import (
	"errors"
	"net/url"
	"strings"
)

// MaxRedirectURILength bounds a registered redirect URI, in bytes.
const MaxRedirectURILength = 2000

// refusedSchemes are schemes a browser would run or read locally rather than
// hand to an application: never a redirect target.
var refusedSchemes = map[string]bool{
	"javascript": true, "data": true, "file": true, "vbscript": true, "about": true,
	"blob": true, "filesystem": true, "ftp": true, "ws": true, "wss": true,
}

// ValidateRedirectURI reports why raw cannot be registered as an OAuth
// redirect URI, or nil. Allowed (spec Authentication §3, RFC 8252):
//
//   - https callbacks with a host (assistants' registered callbacks);
//   - loopback http callbacks on 127.0.0.1, [::1] or localhost, any port and path;
//   - custom application schemes of desktop clients (myapp:/cb, com.example.app://cb).
//
// Never a query, a fragment, credentials, a dot segment, a backslash,
// whitespace or control characters, and only in the exact lowercase form
// the match compares byte for byte.
func ValidateRedirectURI(raw string) error {
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
	if u.Host == "" && u.Opaque == "" && u.Path == "" {
		return errors.New("custom-scheme callbacks need a path")
	}
	return nil
}

// RedirectURIMatches reports whether requested, sent at authorization,
// matches the registered redirect URI: byte for byte, except that a loopback
// http callback may name another port (RFC 8252 §7.3), including none.
func RedirectURIMatches(registered, requested string) bool {
	if ValidateRedirectURI(requested) != nil {
		return false
	}
	if registered == requested {
		return ValidateRedirectURI(registered) == nil
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
