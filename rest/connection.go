package rest

import "strings"

// connectionRoute reports whether a sign-in connection (an OAuth access
// token) may use the REST route at path: only the gift-link distribution
// routes, /campaigns/{id}/distribution... and /distribution/exports/...
// (Authentication §3). path is relative to /api/v1 and may be a template or
// a concrete path.
func connectionRoute(path string) bool {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case len(segs) >= 3 && segs[0] == "campaigns" && segs[1] != "" && segs[2] == "distribution":
		return true
	case len(segs) >= 2 && segs[0] == "distribution" && segs[1] == "exports":
		return true
	}
	return false
}
