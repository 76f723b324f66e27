package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

// transcript records a conversation with the service for people to read:
// GIFTWELL_TRANSCRIPT names the file it is written to at the end (nothing
// is written without it).
type transcript struct {
	t     *testing.T
	lines []string
	// quiet stops recording (polls whose answers are not shown).
	quiet bool
}

func (tr *transcript) say(format string, args ...any) {
	if tr.quiet {
		return
	}
	tr.lines = append(tr.lines, fmt.Sprintf(format, args...))
}

func (tr *transcript) write() {
	if path := os.Getenv("GIFTWELL_TRANSCRIPT"); path != "" {
		require.NoError(tr.t, os.WriteFile(path, []byte(strings.Join(tr.lines, "\n")+"\n"), 0o644))
	}
}

// mcpCall makes one 2026-07-28 tools/call over HTTP with key and returns
// the data of the tool's structured result, recording the request and the answer.
func (tr *transcript) mcpCall(srvURL, key, tool string, args map[string]any) map[string]any {
	tr.t.Helper()
	argJSON, err := json.Marshal(args)
	require.NoError(tr.t, err)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(argJSON) +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	res, out := send(tr.t, http.MethodPost, srvURL+"/mcp", key, body, map[string]string{
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool})
	require.Equal(tr.t, http.StatusOK, res.StatusCode, out)
	var rpc struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	require.NoError(tr.t, json.Unmarshal([]byte(out), &rpc), out)
	require.False(tr.t, rpc.Result.IsError, out)
	tr.say("\n→ tools/call %s %s", tool, argJSON)
	pretty, err := json.Marshal(rpc.Result.StructuredContent)
	require.NoError(tr.t, err)
	tr.say("← %s", pretty)
	data, ok := rpc.Result.StructuredContent["data"].(map[string]any)
	require.True(tr.t, ok, out)
	return data
}

// TestGiftLifeOverMCP walks one gift's whole life as the closing
// note shows it, over a real HTTP server, MCP 2026-07-28, the recipient's
// page and the staff command: a playbook gift approved by its owner, its
// link read with get_gift_link_records, opened and confirmed by the
// recipient, send.link_opened and send.address_confirmed in the feed,
// shipped and delivered by staff, tracked, an outcome recorded twice with
// one externalEventId, and the campaign's results.
func TestGiftLifeOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := httptest.NewUnstartedServer(nil)
	env := apptest.New(t, apptest.WithSiteURL("http://"+srv.Listener.Addr().String()))
	srv.Config.Handler = routes(env.App, slog.New(slog.DiscardHandler))
	srv.Start()
	t.Cleanup(srv.Close)
	tr := &transcript{t: t}
	defer tr.write()
	_, owner := env.SignIn(t, env.OwnerEmail)
	env.TopUp(t, owner, 50_000)
	c, err := env.App.Campaigns.CreateCampaign(ctx, owner, campaign.CampaignInput{
		Name: "New customers", Mode: campaign.ModeAlwaysOn, Status: campaign.StatusActive, ProductID: "gourmet-snack-crate",
		SenderName: "Sam Seller", SenderCompany: "Acme", Message: "Welcome aboard, {{firstName}}!",
	})
	require.NoError(t, err)
	tr.say("# A gift's life over MCP 2026-07-28 (site %s; playbook %s, turned on by its signed-in owner)", env.SiteURL, c.ID)
	key := env.OwnerKey

	added := tr.mcpCall(srv.URL, key, "add_to_playbook", map[string]any{"id": c.ID,
		"recipient": map[string]any{"name": "Priya Raman", "company": "Globex", "email": "priya@globex.example", "sourceSystem": "hubspot", "externalId": "c-1042"}})
	recipientID := added["recipientId"].(string)
	sent, err := env.App.Approvals.ApproveGift(ctx, owner, approval.QueueDecision{CampaignID: c.ID, RecipientID: recipientID})
	require.NoError(t, err)
	tr.say("\n(the signed-in owner approves %s in the queue page: gift %s, %s)", recipientID, sent.ID, sent.Status)

	records := tr.mcpCall(srv.URL, key, "get_gift_link_records", map[string]any{"id": c.ID, "availability": "ready"})
	record := records["records"].([]any)[0].(map[string]any)
	link := record["gift_link"].(string)
	require.True(t, strings.HasPrefix(link, env.SiteURL+"/g/"), link)

	res, page := send(t, http.MethodGet, link, "", "", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, page, "Priya")
	tr.say("\n→ GET %s (the recipient opens the link)\n← %d %s", redactToken(link), res.StatusCode, trimHTML(page))
	form := url.Values{"name": {"Priya Raman"}, "street": {"500 Market St"}, "street2": {"Suite 4"}, "city": {"San Francisco"},
		"state": {"California"}, "zip": {"94105"}}
	res, done := postForm(t, link, form)
	require.Equal(t, http.StatusOK, res.StatusCode, done)
	tr.say("\n→ POST %s %s\n← %d %s", redactToken(link), form.Encode(), res.StatusCode, trimHTML(done))

	// The feed shows an event once every transaction that began before it
	// has ended (other tests share the server), so poll as an agent does.
	var types []string
	for deadline := time.Now().Add(30 * time.Second); len(types) < 4; time.Sleep(100 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the feed shows %v", types)
		tr.quiet = true
		events := tr.mcpCall(srv.URL, key, "list_tracking_events", map[string]any{"sendId": sent.ID})
		tr.quiet = false
		types = types[:0]
		for _, e := range events["items"].([]any) {
			types = append(types, e.(map[string]any)["type"].(string))
		}
	}
	tr.mcpCall(srv.URL, key, "list_tracking_events", map[string]any{"sendId": sent.ID})
	require.Equal(t, []string{"send.created", "send.link_opened", "send.address_confirmed", "send.status_changed"}, types)

	dsn := env.App.DB.Config().ConnString()
	for _, args := range [][]string{
		{"--send", sent.ID, "--status", "in_production", "--reason", "order placed"},
		{"--send", sent.ID, "--status", "shipped", "--carrier", "UPS", "--tracking-number", "1Z999AA10123456784", "--tracking-url", "https://www.ups.com/track?tracknum=1Z999AA10123456784"},
		{"--send", sent.ID, "--status", "delivered"},
	} {
		stdout, stderr, code := runCLI(t, dsn, append([]string{"staff", "gift"}, args...)...)
		require.Equal(t, 0, code, stderr)
		var line map[string]any
		require.NoError(t, json.Unmarshal([]byte(stdout), &line))
		tr.say("\n$ giftwell staff gift %s\n%s", strings.Join(args, " "), trimStaffLine(line))
	}

	tracking := tr.mcpCall(srv.URL, key, "get_tracking", map[string]any{"sendId": sent.ID})
	item := tracking["items"].([]any)[0].(map[string]any)
	require.Equal(t, "delivered", item["status"])
	require.Equal(t, "UPS", item["carrier"])

	outcome := map[string]any{"id": sent.ID, "outcome": "meeting_booked", "externalEventId": "hubspot-meeting-88", "source": "hubspot"}
	first := tr.mcpCall(srv.URL, key, "record_outcome", outcome)
	again := tr.mcpCall(srv.URL, key, "record_outcome", outcome)
	require.Equal(t, first, again, "one externalEventId records once")
	results := tr.mcpCall(srv.URL, key, "campaign_results", map[string]any{"id": c.ID})
	require.EqualValues(t, 1, results["meetings"])
	require.EqualValues(t, 1, results["delivered"])
}

// postForm posts form to u as a browser form would.
func postForm(t *testing.T, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	return send(t, http.MethodPost, u, "", form.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

var (
	tagPattern   = regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>|<[^>]+>`)
	spacePattern = regexp.MustCompile(`\s+`)
	tokenPattern = regexp.MustCompile(`/g/[A-Za-z0-9_-]{43}`)
)

// trimHTML is a page's visible text, squeezed, for a transcript.
func trimHTML(page string) string {
	text := strings.TrimSpace(spacePattern.ReplaceAllString(tagPattern.ReplaceAllString(page, " "), " "))
	return "[text] " + clip600(text)
}

// clip600 keeps the first 600 bytes of s.
func clip600(s string) string {
	if len(s) > 600 {
		return s[:600] + " …"
	}
	return s
}

// redactToken hides a link's token in a transcript.
func redactToken(link string) string { return tokenPattern.ReplaceAllString(link, "/g/<token>") }

// trimStaffLine keeps what a reader of the transcript needs of a staff
// line.
func trimStaffLine(line map[string]any) string {
	keep := map[string]any{}
	for _, k := range []string{"id", "status", "orderState", "carrier", "trackingNumber", "shippingAddress"} {
		if v, ok := line[k]; ok {
			keep[k] = v
		}
	}
	raw, _ := json.Marshal(keep)
	return string(raw)
}
