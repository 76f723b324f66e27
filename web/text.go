package web

import (
	"net/http"
	"net/url"

	"github.com/giftwell/giftwell/core"
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
		// A malformed pair is left to the page; the pairs around it are judged.
		q, _ := url.ParseQuery(r.URL.RawQuery)
		if field, bad := hostileField(q); bad {
			h.message(w, r, http.StatusBadRequest, "Address not understood",
				"The address's "+field+" holds a character Giftwell cannot read (a NUL or bytes that are not UTF-8). Go back and try again.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostileField names, for a page, the first field of v (in name order)
// whose name or a value is hostile text (tools.CheckValues), and reports
// whether there is one.
func hostileField(v url.Values) (string, bool) {
	err := tools.CheckValues(v)
	if err == nil {
		return "", false
	}
	f := core.AsError(err).Fields[0]
	if f == "field name" {
		return f, true
	}
	return "field “" + f + "”", true
}
