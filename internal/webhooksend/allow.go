package webhooksend

import (
	"fmt"
	"net/url"
	"strings"
)

// allowPrefix is one of the operator's allowed URL prefixes, parsed: a URL
// matches when its scheme, host and port are these and its path is under
// path.
type allowPrefix struct {
	scheme, host, port, path string
}

// parseAllowPrefix parses one allowed prefix: an absolute http or https URL
// with a host, no credentials, query or fragment; an empty path is "/".
func parseAllowPrefix(s string) (allowPrefix, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return allowPrefix{}, fmt.Errorf("allowed webhook URL prefix %q is not a URL", s)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
		return allowPrefix{}, fmt.Errorf("allowed webhook URL prefix %q must be an absolute http or https URL like http://127.0.0.1:9999/", s)
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#") {
		return allowPrefix{}, fmt.Errorf("allowed webhook URL prefix %q must have no credentials, query or fragment", s)
	}
	p := allowPrefix{scheme: u.Scheme, host: strings.ToLower(u.Hostname()), port: portOf(u), path: u.EscapedPath()}
	if p.path == "" {
		p.path = "/"
	}
	if !plainPath(p.path) {
		return allowPrefix{}, fmt.Errorf("allowed webhook URL prefix %q must have a plain path (no . or .. segments, no encoded slashes)", s)
	}
	return p, nil
}

// matches reports whether u is under p. It compares parsed parts, never
// the raw text, so http://127.0.0.1:9999@evil.example/ (host
// evil.example) and http://127.0.0.1:9999.evil.example/ do not match
// http://127.0.0.1:9999/; a path with dot segments or encoded slashes
// matches nothing, since a server may read it as another path.
func (p allowPrefix) matches(u *url.URL) bool {
	if u.Scheme != p.scheme || u.User != nil || strings.ToLower(u.Hostname()) != p.host || portOf(u) != p.port {
		return false
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if !plainPath(path) {
		return false
	}
	if strings.HasSuffix(p.path, "/") {
		return strings.HasPrefix(path, p.path)
	}
	return path == p.path || strings.HasPrefix(path, p.path+"/")
}

// portOf is u's port, or its scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// plainPath reports whether an escaped path has no dot segments (plain or
// percent-encoded) and no encoded slash or backslash.
func plainPath(escaped string) bool {
	lower := strings.ToLower(escaped)
	if strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") || strings.Contains(escaped, `\`) {
		return false
	}
	for _, seg := range strings.Split(escaped, "/") {
		dec, err := url.PathUnescape(seg)
		if err != nil || dec == "." || dec == ".." {
			return false
		}
	}
	return true
}

// allowed reports whether u is under one of the operator's prefixes.
// Allowed reports whether rawURL is under one of the operator's allowed
// prefixes, which a fetch or delivery may dial although the URL is not
// public https.
func (c *Client) Allowed(rawURL string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && c.allowed(u)
}

func (c *Client) allowed(u *url.URL) bool {
	for _, p := range c.allow {
		if p.matches(u) {
			return true
		}
	}
	return false
}
