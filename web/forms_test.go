package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
)

// requireEveryProblem holds a form's answer to several bad fields at once
// (decision 0116): an error summary at the top linking to each field, each
// field marked aria-invalid="true" with its message tied by
// aria-describedby, no other field marked, and what was typed kept.
// messages are each field's expected message (a part of it).
func requireEveryProblem(t *testing.T, res response, messages, kept map[string]string) {
	t.Helper()
	body := html.UnescapeString(res.Body)
	i := strings.Index(body, `id="problem"`)
	require.GreaterOrEqual(t, i, 0, "an error summary: %s", body)
	summary := body[i:]
	summary = summary[:strings.Index(summary, "</div>")]
	require.Contains(t, summary, "There is a problem")
	for f, msg := range messages {
		q := regexp.QuoteMeta(f)
		require.Regexp(t, `<a href="#`+q+`">[^<]*`+regexp.QuoteMeta(msg), summary, "the summary links %s to its field", f)
		require.Regexp(t, `<p class="field-error" id="`+q+`-error"><span class="visually-hidden">Error:</span> [^<]*`+regexp.QuoteMeta(msg), body, "%s has its own message", f)
		require.Regexp(t, `id="`+q+`" name="[^"]+"[^>]*aria-describedby="([^"]* )?`+q+`-error"[^>]* aria-invalid="true"`, body,
			"%s is marked invalid and described by its message", f)
	}
	require.Equal(t, len(messages), strings.Count(body, `aria-invalid="true"`), "only the fields at fault are marked")
	require.Equal(t, len(messages), strings.Count(summary, `<a href="#`), "one link per problem")
	for f, v := range kept {
		q := regexp.QuoteMeta(f)
		require.Regexp(t, `id="`+q+`" name="`+q+`"[^>]* value="`+regexp.QuoteMeta(v)+`"`, body, "what was typed in %s is kept", f)
	}
}

// The sign-in form names a malformed email and a missing password at once.
func TestSignInFormReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.client()
	res := c.post("/login", url.Values{"email": {"ada at example"}, "password": {""}, "next": {"/"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res,
		map[string]string{"email": "Must be a plain email address like name@example.com.", "password": "Is required."},
		map[string]string{"email": "ada at example"})
	require.NotContains(t, res.Body, `name="password" type="password" value="x`, "a password is never refilled")
}

// The invite form names a malformed email and a role that is not offered at once.
func TestInviteFormReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/team/invitations", url.Values{"email": {"grace@"}, "role": {"owner"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res,
		map[string]string{"email": "Must be a plain email address", "role": "Must be admin or member"},
		map[string]string{"email": "grace@"})
	list, err := h.env.App.Identity.ListTeamInvitations(context.Background(), h.ownerPrincipal())
	require.NoError(t, err)
	require.Empty(t, list, "nothing was sent")
}

// Joining a workspace with a new account names the wrong email, the
// missing name and the short password at once.
func TestInvitationAcceptFormReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	inv, err := h.env.App.Identity.InviteTeamMember(context.Background(), h.ownerPrincipal(), identity.InviteParams{Email: "newbie@example.com", Role: core.RoleMember})
	require.NoError(t, err)
	c := h.client()
	res := c.post("/invite/"+path.Base(inv.InviteURL), url.Values{"email": {"someone@example.com"}, "name": {"  "}, "password": {"short"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res, map[string]string{
		"email":    "Must be the address the invitation was sent to.",
		"name":     "Is required.",
		"password": "Must be at least 8 characters.",
	}, map[string]string{"email": "someone@example.com"})
	require.Nil(t, sessionCookie(res), "nobody joined")
}

// The key form has one field: its problem is still summarised, linked,
// marked and kept.
func TestKeyFormReportsItsProblemNextToItsField(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	before := h.keyCount()
	long := strings.Repeat("k", identity.MaxKeyNameLength+1)
	res := owner.post("/settings/keys", url.Values{"name": {long}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res,
		map[string]string{"name": "Must be at most " + strconv.Itoa(identity.MaxKeyNameLength) + " characters."},
		map[string]string{"name": long})
	require.Equal(t, before, h.keyCount(), "no key was made")
}

// The top-up form has one field (the amount): its problem is summarised,
// linked, marked and kept.
func TestTopupFormReportsItsProblemNextToItsField(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/balance/topup", url.Values{"amount": {"25,00"}, "idempotencyKey": {"web-" + core.RandomHex(16)}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res,
		map[string]string{"amount": "Use a dot for cents, like 250.00"},
		map[string]string{"amount": "25,00"})
	res = owner.post("/balance/topup", url.Values{"amount": {"1"}, "idempotencyKey": {"web-" + core.RandomHex(16)}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res, map[string]string{"amount": "Must be between"}, map[string]string{"amount": "1"})
}

// The auto-approve form reads both amounts before answering: one it cannot
// read and one out of bounds are named together, and so are both limits
// missing when it is turned on.
func TestAutoApproveFormReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	v := strconv.FormatInt(c.PolicyVersion, 10)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	p := "/campaigns/" + c.ID + "/auto-approve"

	res := owner.post(p, url.Values{"enabled": {"true"}, "perGift": {"ten"}, "monthlyBudget": {"0.50"}, "policyVersion": {v}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res, map[string]string{
		"perGift":       "Enter an amount in US dollars, like 100 or 100.00.",
		"monthlyBudget": "Must be between $1.00 and",
	}, map[string]string{"perGift": "ten", "monthlyBudget": "0.50"})

	res = owner.post(p, url.Values{"enabled": {"true"}, "perGift": {""}, "monthlyBudget": {""}, "policyVersion": {v}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	requireEveryProblem(t, res, map[string]string{
		"perGift":       "Enter the most one gift may cost",
		"monthlyBudget": "Enter a monthly budget to turn auto-approve on.",
	}, nil)
	require.Nil(t, h.readCampaign(c.ID).AutoApprove, "nothing changed")
}

// The auto-approve form on a phone: two bad amounts are named at once, the
// summary takes the focus and links each field, and the page fits 390 px.
func TestBrowserAutoApproveFormShowsEveryProblemOnAPhone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)
	b.do(chromedp.EmulateViewport(390, 844))

	b.open(h.site + "/campaigns/" + c.ID)
	b.fill("perGift", "ten")
	b.fill("monthlyBudget", "0.50")
	require.EqualValues(t, 400, b.submit("#auto-approve-on"))
	requireBrowserProblems(t, b, map[string]string{
		"perGift":       "Enter an amount in US dollars",
		"monthlyBudget": "Must be between $1.00 and",
	})
	require.Equal(t, "ten", b.value("perGift"), "what was typed is kept")
	require.Equal(t, "0.50", b.value("monthlyBudget"))
	b.screenshot("auto-approve-two-errors-390")
	b.click(`#problem a[href="#monthlyBudget"]`)
	require.Equal(t, "monthlyBudget", b.poll(`document.activeElement.id === "monthlyBudget" && document.activeElement.id`))
	require.Nil(t, h.readCampaign(c.ID).AutoApprove, "nothing changed")
}
