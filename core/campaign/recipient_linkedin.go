package campaign

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// linkedInProfilePrefix is how every profile URL is saved.
const linkedInProfilePrefix = "https://www.linkedin.com/in/"

// maxLinkedInSlug bounds a profile slug, in characters.
const maxLinkedInSlug = 100

// NormalizeLinkedInProfile returns raw as a personal LinkedIn profile URL,
// https://www.linkedin.com/in/<slug>, and "" problem; or "" and a problem
// text. It accepts http or https (or no scheme) on linkedin.com, www or a
// two-letter country subdomain (uk.linkedin.com), a trailing slash, and a
// query or fragment (dropped). The slug is lowercased, so the same profile
// always reads the same. It refuses Sales Navigator (/sales/...), company,
// school and showcase pages, old /pub/ URLs, any other path, and any other
// host.
func NormalizeLinkedInProfile(raw string) (string, string) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", "must not be empty"
	}
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		if strings.Contains(lower, "://") {
			return "", "must be an http or https URL"
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", "is not a URL; send https://www.linkedin.com/in/<slug>"
	}
	if u.User != nil || u.Port() != "" || u.Opaque != "" {
		return "", "must be a plain https://www.linkedin.com/in/<slug> URL"
	}
	if !linkedInHost(strings.ToLower(u.Hostname())) {
		return "", "must be a personal LinkedIn profile, https://www.linkedin.com/in/<slug>"
	}
	var segs []string
	for seg := range strings.SplitSeq(strings.Trim(u.EscapedPath(), "/"), "/") {
		if seg != "" {
			segs = append(segs, seg)
		}
	}
	if len(segs) == 0 {
		return "", "is LinkedIn's home page, not a person's profile; send https://www.linkedin.com/in/<slug>"
	}
	switch strings.ToLower(segs[0]) {
	case "sales":
		return "", "is a Sales Navigator URL; send the person's public profile, https://www.linkedin.com/in/<slug>"
	case "company", "school", "showcase":
		return "", "is a company page, not a person's profile; send https://www.linkedin.com/in/<slug>"
	case "pub":
		return "", "is an old /pub/ profile URL; open it and send the https://www.linkedin.com/in/<slug> it leads to"
	case "in":
	default:
		return "", "is not a personal profile; send https://www.linkedin.com/in/<slug>"
	}
	switch {
	case len(segs) == 1:
		return "", "has no profile slug; send https://www.linkedin.com/in/<slug>"
	case len(segs) > 2:
		return "", "must be the profile itself, https://www.linkedin.com/in/<slug>, without more path"
	}
	slug, err := url.PathUnescape(segs[1])
	if err != nil || !validSlug(slug) {
		return "", "has an invalid profile slug"
	}
	return linkedInProfilePrefix + url.PathEscape(strings.ToLower(slug)), ""
}

// linkedInHost reports whether host is linkedin.com, www.linkedin.com or a
// two-letter country subdomain of it.
func linkedInHost(host string) bool {
	if host == "linkedin.com" || host == "www.linkedin.com" {
		return true
	}
	sub, ok := strings.CutSuffix(host, ".linkedin.com")
	return ok && len(sub) == 2 && sub[0] >= 'a' && sub[0] <= 'z' && sub[1] >= 'a' && sub[1] <= 'z'
}

// validSlug: 1-100 letters, digits, '-' or '_'.
func validSlug(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < 1 || n > maxLinkedInSlug || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
			return false
		}
	}
	return true
}
