package web

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/giftwell/giftwell/tools"
)

// refuseHostileText is the web app's edge for hostile text (a NUL
// character or bytes that are not UTF-8, tools.HostileText), which the
// database cannot store. A path holding it names no page: 404, so
// /campaigns/%FF is "Page not found" like any other unknown ID. A query
// value holding it is a 400 page naming the parameter. Posted form values
// are judged by parseForm. Nothing reaches a handler, core or the database.
func (h *handler) refuseHostileText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tools.HostileText(r.URL.Path) != "" {
			h.notFound(w, r)
			return
		}
		if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
			if field, bad := hostileField(q); bad {
				h.message(w, r, http.StatusBadRequest, "Address not understood",
					"The address's "+field+" holds a character Giftwell cannot read (a NUL or bytes that are not UTF-8). Go back and try again.")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// hostileField returns the name of the first field of v, in name order,
// whose name or any value is hostile text, quoted for a page, and whether
// there is one.
func hostileField(v url.Values) (string, bool) {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if tools.HostileText(k) != "" {
			return "field name", true
		}
		for _, s := range v[k] {
			if tools.HostileText(s) != "" {
				return "field “" + k + "”", true
			}
		}
	}
	return "", false
}
