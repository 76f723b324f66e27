package web

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/webshell"
)

// assets holds the page templates, embedded in the binary. The layout, the
// partials it draws and the static files are the shell's (internal/webshell).
//
//go:embed templates/*.html
var assets embed.FS

// shared are the templates of fsys every page is drawn with besides the
// shell's layout: the partials (form fields, the copy box, campaign tables).
var shared = []string{"templates/partials.html", "templates/picture.html"}

// pages are the page templates by name ("team" for templates/team.html).
// A page is parsed when it is first drawn, not at start: an idle server
// holds the layout and the partials, not every page's tree
// (docs/decisions/0122-an-idle-server-holds-little.md).
type pages struct {
	byName map[string]*page
}

// page is one page template, parsed once on first use with the layout.
type page struct {
	base *template.Template
	fsys fs.FS
	file string
	once sync.Once
	tmpl *template.Template
	err  error
}

// mustParsePages parses the shell's layout (webshell.Layout) with the
// shared templates and finds every page in templates/.
// The templates are embedded, so an error is a programming error: it panics
// at start-up, and the tests parse every page (TestEveryPageRenders).
func mustParsePages() *pages {
	p, err := parsePages(assets)
	if err != nil {
		panic(err)
	}
	return p
}

func parsePages(fsys fs.FS) (*pages, error) {
	layout, err := webshell.Layout(templateFuncs)
	if err != nil {
		return nil, err
	}
	base, err := layout.ParseFS(fsys, shared...)
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(fsys, "templates/*.html")
	if err != nil {
		return nil, err
	}
	p := &pages{byName: map[string]*page{}}
	for _, file := range files {
		if isShared(file) {
			continue
		}
		p.byName[strings.TrimSuffix(path.Base(file), ".html")] = &page{base: base, fsys: fsys, file: file}
	}
	return p, nil
}

// parsed is the page's template: the layout's clone with the page's file.
func (pg *page) parsed() (*template.Template, error) {
	pg.once.Do(func() {
		t, err := pg.base.Clone()
		if err == nil {
			t, err = t.ParseFS(pg.fsys, pg.file)
		}
		pg.tmpl, pg.err = t, err
	})
	return pg.tmpl, pg.err
}

func isShared(file string) bool {
	for _, s := range shared {
		if s == file {
			return true
		}
	}
	return false
}

// execute draws the page name inside the layout.
func (p *pages) execute(w io.Writer, name string, v view) error {
	pg, ok := p.byName[name]
	if !ok {
		return fmt.Errorf("web: no page template %q", name)
	}
	t, err := pg.parsed()
	if err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "layout", v)
}

// templateFuncs are the helpers the templates may call, besides the
// shell's (asset).
var templateFuncs = template.FuncMap{
	"date":          formatDate,
	"datetime":      formatDateTime,
	"required":      func(f field) field { f.Required = true; return f },
	"maxlen":        func(n int, f field) field { f.MaxLength = n; return f },
	"autocomplete":  func(v string, f field) field { f.Autocomplete = v; return f },
	"hint":          func(v string, f field) field { f.Hint = v; return f },
	"readonly":      func(on bool, f field) field { f.ReadOnly = on; return f },
	"placeholder":   func(v string, f field) field { f.Placeholder = v; return f },
	"autofocus":     func(f field) field { f.Autofocus = true; return f },
	"bound":         bound,
	"secret":        func(id, value, page string) secret { return secret{ID: id, Value: value, Page: page} },
	"dollars":       core.Dollars,
	"lower":         strings.ToLower,
	"sentence":      sentence,
	"kind":          kindName,
	"identity":      recipientIdentity,
	"giftStatus":    giftStatusName,
	"giftBadge":     giftStatusBadge,
	"itemStatus":    invoiceItemStatus,
	"itemMoney":     billing.MoneyWords,
	"orderState":    orderStateName,
	"outcome":       outcomeName,
	"checkoutState": checkoutStateName,
	"importField":   importFieldName,
	"importLines":   importLines,
	"requirement":   requirementName,
	"filterKey":     filterKey,
}

// secret is a value shown once with a copy button, as the "secret" partial
// draws it. ID is the id of the element holding the value; Page is the
// page's own address, which reloading shows instead of resending the form.
type secret struct {
	ID, Value, Page string
}

// bounds are the input limits the forms show (maxlength), from core's rules.
var bounds = map[string]int{
	"email":        core.MaxEmailLength,
	"personName":   identity.MaxNameLength,
	"password":     identity.MaxPasswordBytes,
	"keyName":      identity.MaxKeyNameLength,
	"settingsName": identity.MaxSettingsNameLength,
	"settingsURL":  identity.MaxSettingsURLLength,
	"brandColor":   len("#rrggbb"),
	"refundReason": giftlink.MaxRefundReason,
}

// bound returns the named input limit; an unknown name fails the page.
func bound(name string) (int, error) {
	n, ok := bounds[name]
	if !ok {
		return 0, fmt.Errorf("web: no bound %q", name)
	}
	return n, nil
}

// formatDate shows a time as a UTC date, "2 Mar 2026"; a nil or zero time is "".
func formatDate(t any) string {
	tt, ok := timeOf(t)
	if !ok {
		return ""
	}
	return tt.UTC().Format("2 Jan 2006")
}

// formatDateTime shows a time in UTC to the minute, "2 Mar 2026, 09:00 UTC".
func formatDateTime(t any) string {
	tt, ok := timeOf(t)
	if !ok {
		return ""
	}
	return tt.UTC().Format("2 Jan 2006, 15:04 UTC")
}

func timeOf(t any) (time.Time, bool) {
	switch v := t.(type) {
	case time.Time:
		return v, !v.IsZero()
	case *time.Time:
		if v == nil {
			return time.Time{}, false
		}
		return *v, !v.IsZero()
	}
	return time.Time{}, false
}
