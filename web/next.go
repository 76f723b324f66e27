package web

import (
	"net/url"
	"strings"
)

// maxNextLength bounds the next parameter; longer values are not kept.
const maxNextLength = 2000

// localPath returns next when it is a path on this site ("/team",
// "/settings/keys?x=1") and "/" otherwise, so that the sign-in page can
// never send a person to another site. Refused: absolute and
// scheme-relative URLs ("//evil.example"), backslashes (which browsers read
// as slashes), control characters and anything not starting with "/".
func localPath(next string) string {
	if next == "" || len(next) > maxNextLength || next[0] != '/' {
		return "/"
	}
	if strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\") {
		return "/"
	}
	for _, c := range next {
		if c < 0x20 || c == 0x7f {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	if strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	return next
}
