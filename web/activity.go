package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/giftwell/giftwell/core"
)

// activityData is the content of the Activity page: who prepared,
// approved, skipped, paid, refunded, changed limits, made keys and
// connected apps, newest first, for one person or agent or everyone.
type activityData struct {
	// Who is the filter's value ("" for everyone); Actors its choices.
	Who    string
	Actors []activityActor
	Items  []activityRow
	// Cursor is this page's cursor ("" for the newest); Next the older page's.
	Cursor, Next string
}

// activityActor is one choice of the filter.
type activityActor struct {
	Value, Label string
}

// activityRow is one action as the list shows it.
type activityRow struct {
	core.Activity
	Sentence, Who string
}

// activity shows the Activity page (?who=, ?cursor=).
func (h *handler) activity(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "activity", h.activityView(r.URL.Query()))
}

// activityView loads a page of activity as query asks.
func (h *handler) activityView(query url.Values) pageLoader {
	return func(ctx context.Context, s session) (view, error) {
		who := query.Get("who")
		f := activityFilter(who)
		f.Cursor = query.Get("cursor")
		page, err := h.app.ReadActivity(ctx, s.Principal, f)
		if err != nil {
			return view{}, err
		}
		actors, err := h.app.ActivityActors(ctx, s.Principal)
		if err != nil {
			return view{}, err
		}
		d := &activityData{Who: who, Cursor: f.Cursor, Next: page.NextCursor}
		for _, a := range actors {
			d.Actors = append(d.Actors, activityActor{Value: string(a.Kind) + ":" + a.Ref, Label: actorLabel(a)})
		}
		for _, it := range page.Items {
			d.Items = append(d.Items, activityRow{Activity: it, Sentence: it.Sentence(), Who: it.Actor.Words()})
		}
		return view{Nav: "activity", Data: d}, nil
	}
}

// activityCSV answers "Download CSV": the page's actions under the same
// filter, as an attachment.
func (h *handler) activityCSV(w http.ResponseWriter, r *http.Request, s session) {
	doc, err := h.app.ActivityCSV(r.Context(), s.Principal, activityFilter(r.URL.Query().Get("who")))
	if err != nil {
		h.fail(w, r, &s, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/csv; charset=utf-8")
	hd.Set("Content-Disposition", `attachment; filename="activity.csv"`)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(doc)
}

// activityFilter reads the filter's value, kind:ref ("" for everyone).
func activityFilter(who string) core.ActivityFilter {
	kind, ref, ok := strings.Cut(who, ":")
	if !ok || kind == "" {
		return core.ActivityFilter{}
	}
	return core.ActivityFilter{ActorKind: core.ActorKind(kind), ActorRef: ref}
}

// actorLabel names a filter choice: "Ana Ruiz", "Key 'HubSpot agent'".
func actorLabel(a core.Actor) string {
	if a.Kind == core.ActorRule {
		return "The auto-approve rule"
	}
	return a.Words()
}
