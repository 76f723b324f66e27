package web_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestBrowserSignIn(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)

	require.Equal(t, h.site+"/login?next=%2Fteam", b.open(h.site+"/team"), "a signed-out page asks to sign in")
	b.screenshot("sign-in")

	b.fill("email", h.env.OwnerEmail)
	b.fill("password", "not the password")
	require.EqualValues(t, 401, b.submit(`form[action="/login"] button[type=submit]`))
	require.Equal(t, "The email or password is wrong.", b.text("#problem p"))
	require.Equal(t, h.env.OwnerEmail, b.value("email"), "the email is kept")
	b.screenshot("sign-in-error")

	b.fill("password", apptest.Password)
	require.EqualValues(t, 200, b.submit(`form[action="/login"] button[type=submit]`))
	require.Equal(t, h.site+"/team", b.location(), "back to the page that asked")
	require.Equal(t, h.env.OwnerEmail, b.text(".who"))
	require.Equal(t, "Team", b.text(`nav a[aria-current="page"]`))
}

func TestBrowserKeyIsShownOnce(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)
	b.signIn(h.site, h.env.OwnerEmail)
	keys := h.keyCount()

	b.open(h.site + "/settings/keys")
	b.fill("name", "Sales assistant")
	require.EqualValues(t, 200, b.submit(`form[action="/settings/keys"] button[type=submit]`))
	key := b.text("#new-key")
	require.Regexp(t, regexp.MustCompile(`^gwk_[0-9a-f]{64}$`), key)
	require.Contains(t, b.text("#new-key-title"), "Sales assistant")
	_, err := h.env.App.Connect.Authenticate(context.Background(), key)
	require.NoError(t, err, "the key shown works")
	require.Equal(t, keys+1, h.keyCount())
	b.screenshot("keys")

	// The copy button works (headless Chromium may refuse the clipboard; the
	// button then selects the key and says how to copy it).
	b.click(`button[data-copy="new-key"]`)
	status := b.poll(`document.querySelector('[data-copy-status="new-key"]').textContent`)
	require.Contains(t, []string{"Copied", "Press Ctrl+C (⌘C) to copy"}, status)

	// Reloading reads the page again: the key is gone, only its prefix is
	// listed, and no second key was made.
	require.EqualValues(t, 200, b.reload())
	require.Equal(t, h.site+"/settings/keys", b.location())
	require.False(t, b.exists("#new-key"))
	require.Contains(t, b.text("#keys"), key[:8]+"…")
	require.NotContains(t, b.text("main"), key[8:])
	require.Equal(t, keys+1, h.keyCount())
}

func TestBrowserInviteAcceptAndRemove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := newBrowser(t)
	owner.signIn(h.site, h.env.OwnerEmail)

	email := apptest.UniqueEmail("invitee")
	owner.open(h.site + "/team")
	owner.fill("email", email)
	require.EqualValues(t, 200, owner.submit(`form[action="/team/invitations"] button[type=submit]`))
	link := owner.text("#invite-url")
	require.True(t, strings.HasPrefix(link, h.site+"/invite/"), link)
	require.Contains(t, owner.text("#invitations"), email)
	owner.screenshot("team-invited")

	// The invitee opens the link in another browser, with its own cookies.
	invitee := newBrowser(t)
	require.Equal(t, link, invitee.open(link))
	require.Contains(t, invitee.text("main h1"), "Join ")
	require.Equal(t, email, invitee.value("email"), "the email is prefilled")
	invitee.fill("name", "Ivy Invitee")
	invitee.fill("password", apptest.Password)
	require.EqualValues(t, 200, invitee.submit(`form[action^="/invite/"] button[type=submit]`))
	require.Equal(t, h.site+"/", invitee.location(), "signed in at home")
	require.Equal(t, email, invitee.text(".who"))
	invitee.open(h.site + "/team")
	require.Equal(t, h.site+"/team", invitee.location())

	members, err := h.env.App.Identity.ListTeamMembers(context.Background(), h.ownerPrincipal())
	require.NoError(t, err)
	var userID string
	for _, m := range members {
		if m.Email == email {
			userID = m.UserID
			require.Equal(t, core.RoleMember, m.Role)
		}
	}
	require.NotEmpty(t, userID, "the invitee is a member")

	owner.open(h.site + "/team")
	owner.screenshot("team")
	remove := `form[action="/team/members/` + userID + `/remove"]`
	owner.click(`tr[data-user="` + userID + `"] details:has(` + remove + `) summary`)
	require.EqualValues(t, 200, owner.submit(remove+` button[type=submit]`))
	require.Equal(t, h.site+"/team?done=member-removed", owner.location())
	require.Contains(t, owner.text(".alert-success"), "The member was removed")
	require.NotContains(t, owner.text("#members"), email)

	// The removed member's next page load asks them to sign in.
	require.Equal(t, h.site+"/login?next=%2Fsettings%2Fkeys", invitee.open(h.site+"/settings/keys"))
}

func TestBrowserReviewTurnsPlaybookOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.draftPlaybook()
	b := newBrowser(t)
	b.signIn(h.site, h.env.OwnerEmail)

	review := h.site + "/campaigns/" + c.ID + "?review=1"
	require.Equal(t, review, b.open(review))
	require.Equal(t, "Your decision", b.text("#decision-title"))
	require.Contains(t, b.text("#roster"), "Thanks Ada, and all of Engines Ltd!")
	require.Contains(t, b.text("#blockers"), "Bea Brown")
	b.screenshot("review-decision")

	require.EqualValues(t, 200, b.submit("#turn-on"))
	require.Equal(t, h.site+"/campaigns/"+c.ID+"?done=campaign-active", b.location())
	require.Equal(t, "The campaign is on.", b.text(".alert-success p"))
	require.Equal(t, "On", b.text("h1 .badge"))
	require.True(t, b.exists("#pause"))
	require.Equal(t, campaign.StatusActive, h.readCampaign(c.ID).Status)
	b.screenshot("review")
}
