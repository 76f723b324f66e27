package web

import (
	"bytes"
	"errors"
	"html/template"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/distribution"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/core/webhook"
)

func TestLocalPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                     "/",
		"/":                    "/",
		"/team":                "/team",
		"/settings/keys?a=1#x": "/settings/keys?a=1#x",
		"team":                 "/",
		"//evil.example":       "/",
		"///evil.example":      "/",
		"/\\evil.example":      "/",
		"https://evil.example": "/",
		"/%2f%2fevil.example":  "/",
		"/\x00":                "/",
		"/\n/evil.example":     "/",
		"/a\x7f":               "/",
		"/" + string(make([]byte, maxNextLength)): "/",
	} {
		require.Equal(t, want, localPath(in), "%q", in)
	}
}

func TestClientIP(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("POST", "/login", nil)
	r.RemoteAddr = "192.0.2.7:51234"
	r.Header.Add("X-Forwarded-For", "203.0.113.9")
	require.Equal(t, "192.0.2.7", (&handler{}).clientIP(r), "X-Forwarded-For is ignored unless trusted")

	trusting := &handler{trustForwardedFor: true}
	r.Header.Set("X-Forwarded-For", "198.51.100.1, 203.0.113.9")
	require.Equal(t, "203.0.113.9", trusting.clientIP(r), "the right-most entry is the proxy's")
	r.Header.Set("X-Forwarded-For", "not-an-ip")
	require.Equal(t, "192.0.2.7", trusting.clientIP(r))
}

func TestSentenceAndWait(t *testing.T) {
	t.Parallel()
	require.Equal(t, "The email or password is wrong.", sentence("the email or password is wrong"))
	require.Equal(t, "Done!", sentence("done!"))
	require.Equal(t, "", sentence(" "))
	require.Equal(t, "1 second", waitText(1))
	require.Equal(t, "45 seconds", waitText(45))
	require.Equal(t, "1 minute", waitText(61))
	require.Equal(t, "15 minutes", waitText(14*60+1))
}

// TestEveryPageRenders draws each page with an empty view, signed in and
// out, so that a template error shows up here and not in front of a person.
func TestEveryPageRenders(t *testing.T) {
	t.Parallel()
	p, err := parsePages(assets)
	require.NoError(t, err)
	data := map[string]any{
		"home": homeData{Drafts: 1, Waiting: 2, WaitingPlaybooks: 1, Address: tracking.AddressWait{Awaiting: 2, ExpiringSoon: 1}, Events: []homeEvent{{SendID: "send_1", Text: "Gift created"}}},
		"gift": giftData{giftRow: giftRow{Gift: gift.Gift{ID: "send_1", Status: gift.SendShipped, Carrier: "UPS", TrackingNumber: "1Z", TrackingURL: "https://ups.example/1Z"}},
			Timeline: []timelineLine{{Text: "Gift created"}}, MoreEvents: true},
		"keys":     &keysData{},
		"team":     &teamData{},
		"settings": settingsData{},
		"webhooks": &webhooksData{CanManage: true, EventNames: webhook.EventNames(), Endpoints: []webhook.Endpoint{{ID: "whk_1", URL: "https://hooks.example/a", Events: []string{"all"}}},
			Created: &webhook.CreatedEndpoint{Endpoint: webhook.Endpoint{ID: "whk_1"}, Secret: "s"}},
		"webhooks_deliveries": &deliveriesData{Endpoint: webhook.Endpoint{ID: "whk_1", Events: []string{"send.created"}}, Source: "gift", Sources: []string{"gift", "playbook"},
			Before: "9", NextBefore: "5", Items: []deliveryRow{{Delivery: webhook.Delivery{ID: "dlv_1", State: "dead"}, CanRetry: true, Retried: true}}},
		"artwork": artworkData{Max: 200, Items: []artworkItem{
			{LibraryItem: artwork.LibraryItem{Asset: artwork.Asset{ID: "asset_1", Filename: "logo.png", Mime: "image/png", Bytes: 2048}, Width: 300, Height: 300}, FileURL: "/f", PreviewURL: "/p", Size: "2.0 KB"},
			{LibraryItem: artwork.LibraryItem{Asset: artwork.Asset{ID: "asset_2", Filename: "brief.pdf", Mime: "application/pdf", Bytes: 4096}}, FileURL: "/f2", Size: "4.0 KB"}}},
		"invite":           invitationData{},
		"login":            loginData{Next: "/"},
		"message":          messageData{Title: "T", Text: "X"},
		"campaigns":        campaignsData{},
		"campaign":         campaignData{Review: true, Gifts: []giftRow{{Gift: gift.Gift{ID: "send_1", Status: gift.SendReady}}}, MoreGifts: true},
		"balance":          balanceData{CanTopUp: true, Ledger: []ledger.LedgerEntry{{Kind: ledger.LedgerDebit, Cents: -100}}},
		"sandbox_pay":      ledger.SandboxPayment{State: ledger.TopupCreated},
		"sandbox_checkout": billing.SandboxCheckout{SessionID: "sbx_1", Checkout: billing.Checkout{ID: "chk_1", State: billing.CheckoutOpen, RecipientCount: 2}},
		"billing": billingData{CanManage: true, Config: billing.BillingConfig{Mode: billing.BillingSandbox}, Checkouts: []billing.Checkout{
			{ID: "chk_1", State: billing.CheckoutOpen, URL: "https://pay.example/1"}, {ID: "chk_2", State: billing.CheckoutConsumed, InvoiceURL: "/i", InvoicePDF: "/p"}}},
		"launch":  launchData{CampaignID: "cmp_1", Checkout: &billing.Checkout{ID: "chk_1", State: billing.CheckoutPaid, RecipientCount: 5, LaunchCursor: 3}},
		"invoice": billing.Invoice{Number: "INV-1", CheckoutID: "chk_1", Mode: "test", Items: []billing.CheckoutItem{{RecipientName: "A", SendID: "send_1"}}, RefundedCents: 1},
		"reports": reportData{Report: &tracking.Report{Mode: core.ModeTest, From: "2026-03-01", To: "2026-03-10", Totals: tracking.ReportCounts{CostPerMeetingCents: ptrTo(int64(900))},
			Campaigns: []tracking.ReportCampaign{{CampaignID: "cmp_1", Name: "A"}}}, Chart: chartOf([]tracking.ReportWeek{{Week: "2026-02-23"}, {Week: "2026-03-02", Gifts: 3, Meetings: 1}}), CSVURL: "/api/v1/reports/export.csv"},
		"giftlink": giftLinkData{Token: "t", Limits: giftLinkLimits, Page: giftlink.Page{State: giftlink.PageOpen, Test: true,
			Sender: giftlink.Branding{SenderName: "Sam", ContactEmail: "a@b.example"}, Note: "N", WhatHappensNext: []string{"1"}}},
		"giftlink_done": giftLinkData{Page: giftlink.Page{State: giftlink.PageConfirmed, Address: &giftlink.Address{Name: "A", Street2: "2"}}},
		"giftlink_end":  giftLinkData{Title: "T", Text: "X"},
		"import": importData{CampaignID: "cmp_1", Preview: distribution.ImportPreview{UploadID: "web-1", Headers: []string{"Name", "Segment"},
			Fields: []string{"name", "ignore"}, Sample: [][]string{{"Ana", "SMB"}}, Rows: 1, Choices: distribution.ImportFields}},
		"queue": queueData{CanDecide: true, Campaign: &campaign.Campaign{ID: "cmp_1", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusPaused},
			Items:   []approval.QueueItem{{CampaignID: "cmp_1", RecipientID: "rcp_1", Blockers: []string{campaign.ReasonRepeatReview.Blocker()}, State: campaign.ApprovalScheduled}},
			Skipped: []approval.SkippedItem{{CampaignID: "cmp_1", RecipientID: "rcp_2"}}, MoreSkipped: 1,
			Flash: &queueNotice{Summary: "1 could not be approved:", Failed: true, Failures: []queueFailureGroup{{Names: "rcp_1", Message: "No.", TopUp: true}}, More: "1 more not listed here."}},
		"activity": activityData{Who: "key:key_1", Actors: []activityActor{{Value: "key:key_1", Label: "Key 'HubSpot agent'"}},
			Items:  []activityRow{{Activity: core.Activity{ID: "act_1", Kind: "skipped", CampaignID: "cmp_1", SendID: "send_1"}, Sentence: "Ana skipped Sam.", Who: "Ana"}},
			Cursor: "c1", Next: "c2"},
		"unsubscribe": unsubscribeData{Label: "People waiting for approval", Token: "t", Done: true},
	}
	require.Len(t, p.byName, len(data), "every page has a case here")
	sh := &shell{Workspace: identity.WorkspaceSummary{ID: "ws_1", Name: "Acme"}, Workspaces: []identity.WorkspaceSummary{{ID: "ws_1"}, {ID: "ws_2"}}}
	for name, d := range data {
		for _, s := range []*shell{nil, sh} {
			if s == nil && (name == "home") {
				continue // home is signed-in only
			}
			var buf bytes.Buffer
			require.NoError(t, p.execute(&buf, name, view{Shell: s, Data: d}), name)
			require.Contains(t, buf.String(), `<main id="main"`)
		}
	}
}

func TestCheckboxGroup(t *testing.T) {
	t.Parallel()
	v := view{Values: url.Values{"events": {"all", "send.created"}}, Problem: &problem{Field: "events[1]", Message: "Named twice."}}
	require.True(t, v.Checked("events", "send.created"))
	require.False(t, v.Checked("events", "send.link_opened"))
	require.Equal(t, "Named twice.", v.GroupError("events"), "an item's problem shows at its group")
	require.Empty(t, v.GroupError("event"))
	v.Problem.Field = "url"
	require.Empty(t, v.GroupError("events"))
	require.Empty(t, view{}.GroupError("events"))
}

func TestFieldWiresItsHintAndError(t *testing.T) {
	t.Parallel()
	v := view{Values: url.Values{"name": {"x"}, "password": {"secret"}}, Problem: &problem{Field: "name", Message: "Too long."}}
	f := v.Field("name", "Name", "text")
	require.Equal(t, "x", f.Value)
	require.Equal(t, "Too long.", f.Error)
	require.Equal(t, "name-error", f.DescribedBy())
	f.Hint = "h"
	require.Equal(t, "name-hint name-error", f.DescribedBy())
	require.Empty(t, v.Field("password", "Password", "password").Value, "passwords are never refilled")
	require.Empty(t, v.Field("email", "Email", "email").Error)
}

func TestProblemFor(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	h := &handler{app: giftwell.New(nil, core.Config{SiteURL: "https://giftwell.example"}, nil, nil), log: slog.New(slog.NewTextHandler(&logs, nil))}
	r := httptest.NewRequest("POST", "/settings", nil)

	p := h.problemFor(r, core.Invalid("website", "must be an https URL"), "company", "website")
	require.Equal(t, &problem{Status: 400, Field: "website", Message: "Must be an https URL."}, p)

	p = h.problemFor(r, core.Invalid("website", "must be an https URL"), "company")
	require.Equal(t, &problem{Status: 400, Message: "Website: must be an https URL."}, p, "a field the form lacks goes to the top")

	p = h.problemFor(r, &core.Error{Code: core.CodeRateLimit, Message: "slow down", RetryAfterMs: 1500})
	require.Equal(t, &problem{Status: 429, Message: "Slow down. Try again in 2 seconds.", RetryAfterSeconds: 2}, p)

	p = h.problemFor(r, errors.New("connection refused by 10.0.0.5"))
	require.Equal(t, &problem{Status: 500, Message: genericProblem}, p)
	require.Contains(t, logs.String(), "connection refused by 10.0.0.5", "the cause is logged, never shown")
}

// TestProblemForOpenURLCodes is the web face's row of the table every face
// runs: each open_url code carries a url, its own or the site's home page.
func TestProblemForOpenURLCodes(t *testing.T) {
	t.Parallel()
	const site = "https://giftwell.example"
	h := &handler{app: giftwell.New(nil, core.Config{SiteURL: site}, nil, nil), log: slog.New(slog.DiscardHandler)}
	r := httptest.NewRequest("POST", "/", nil)
	n := 0
	for _, code := range core.Codes() {
		if code.Info().NextAction != core.OpenURL {
			continue
		}
		n++
		p := h.problemFor(r, &core.Error{Code: code, Message: "a person must act"})
		require.Equal(t, code.Info().Status, p.Status, code)
		require.Equal(t, site+"/", p.URL, "%s without a url of its own points at the site", code)
		p = h.problemFor(r, &core.Error{Code: code, Message: "a person must act", URL: site + "/balance"})
		require.Equal(t, site+"/balance", p.URL, code)
	}
	require.GreaterOrEqual(t, n, 8, "the spec's open_url codes")
	p := h.problemFor(r, core.Invalid("name", "is required"))
	require.Empty(t, p.URL, "only open_url codes get the fallback")
}

// ptrTo returns a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }

// A page is parsed once, at its first draw, however many requests draw it
// at that moment: every draw gets the same template (run with -race).
func TestAPageIsParsedOnceUnderConcurrentDraws(t *testing.T) {
	t.Parallel()
	p, err := parsePages(assets)
	require.NoError(t, err)
	const draws = 8
	pages := make(chan *template.Template, draws)
	var wg sync.WaitGroup
	for range draws {
		wg.Go(func() {
			var buf bytes.Buffer
			require.NoError(t, p.execute(&buf, "giftlink_end", view{Data: giftLinkData{Title: "T", Text: "X"}}))
			tmpl, err := p.byName["giftlink_end"].parsed()
			require.NoError(t, err)
			pages <- tmpl
		})
	}
	wg.Wait()
	close(pages)
	first := <-pages
	for tmpl := range pages {
		require.Same(t, first, tmpl)
	}
}
