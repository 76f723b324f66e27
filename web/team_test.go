package web_test

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// addMember adds a person with role and returns their email and user ID.
func (h *harness) addMember(role core.Role) (email, userID string) {
	h.t.Helper()
	email = apptest.UniqueEmail(string(role))
	m, err := h.env.App.Identity.AddMember(context.Background(), identity.AddMemberParams{
		WorkspaceID: h.env.WorkspaceID, Email: email, Password: apptest.Password, Role: role,
	})
	require.NoError(h.t, err)
	return email, m.UserID
}

var inviteURLPattern = regexp.MustCompile(`<code id="invite-url" class="secret-value">([^<]+)</code>`)

func TestInviteShowsTheLinkOnceAndItSignsTheInviteeIn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)

	res := owner.post("/team/invitations", url.Values{"email": {"New.Person@Example.com"}, "role": {"admin"}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	m := inviteURLPattern.FindStringSubmatch(res.Body)
	require.NotNil(t, m, res.Body)
	link := m[1]
	require.True(t, strings.HasPrefix(link, h.site+"/invite/"), link)
	require.Contains(t, res.Body, "An email with this link is queued for them.")
	require.Contains(t, res.Body, `data-copy="invite-url"`)

	res = owner.get("/team")
	require.NotContains(t, res.Body, link, "the link is shown only once")
	require.Contains(t, res.Body, "new.person@example.com", "listed as pending")

	invitee := h.client()
	res = invitee.get(strings.TrimPrefix(link, h.site))
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "invited <strong>new.person@example.com</strong>")
	require.Contains(t, res.Body, "as an admin")
	require.Contains(t, res.Body, `value="new.person@example.com"`, "the email is prefilled")
	require.Contains(t, res.Body, `<label for="name">Your name</label>`)

	res = invitee.post(strings.TrimPrefix(link, h.site), url.Values{"email": {"someone.else@example.com"}, "name": {"New"}, "password": {apptest.Password}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `id="email-error"`)
	require.Contains(t, res.Body, "Must be the address the invitation was sent to.")
	require.Nil(t, sessionCookie(res))

	res = invitee.post(strings.TrimPrefix(link, h.site), url.Values{"email": {"new.person@example.com"}, "name": {"New Person"}, "password": {"short"}})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, res.Body, `id="password-error"`)

	res = invitee.post(strings.TrimPrefix(link, h.site), url.Values{"email": {"new.person@example.com"}, "name": {"New Person"}, "password": {apptest.Password}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/", res.Header.Get("Location"))
	require.Equal(t, core.RoleAdmin, invitee.principal().Role)
	res = invitee.get("/")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Contains(t, res.Body, "new.person@example.com")

	res = h.client().get(strings.TrimPrefix(link, h.site))
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "This invitation was already used; sign in instead.")
}

func TestUnusableInvitationsSaySo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	p := h.ownerPrincipal()
	c := h.client()

	res := c.get("/invite/" + strings.Repeat("0", 64))
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, res.Body, "This invitation cannot be used")
	require.Contains(t, res.Body, "This invitation link is not valid")

	revoked, err := h.env.App.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: "revoked@example.com", Role: core.RoleMember})
	require.NoError(t, err)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res = owner.post("/team/invitations/"+revoked.ID+"/revoke", nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/team?done=invitation-revoked", res.Header.Get("Location"))
	res = c.get("/invite/" + path.Base(revoked.InviteURL))
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "This invitation was withdrawn")
	res = c.post("/invite/"+path.Base(revoked.InviteURL), url.Values{"email": {"revoked@example.com"}, "name": {"R"}, "password": {apptest.Password}})
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Nil(t, sessionCookie(res))

	expired, err := h.env.App.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: "late@example.com", Role: core.RoleMember})
	require.NoError(t, err)
	h.env.Clock.Advance(identity.InvitationLifetime + time.Minute)
	res = c.get("/invite/" + path.Base(expired.InviteURL))
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "This invitation expired on")
}

func TestRemovedMemberIsSignedOut(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	email, userID := h.addMember(core.RoleMember)
	member := h.client()
	member.signIn(email)
	require.Equal(t, http.StatusOK, member.get("/team").StatusCode)

	// A member sees the team but cannot manage it.
	res := member.get("/team")
	require.NotContains(t, res.Body, `action="/team/invitations"`)
	require.NotContains(t, res.Body, "/remove")
	res = member.post("/team/members/"+h.env.OwnerID+"/remove", nil)
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	require.Contains(t, res.Body, "Only an owner or admin can do this.")

	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res = owner.get("/team")
	require.Contains(t, res.Body, `action="/team/members/`+userID+`/remove"`)
	require.NotContains(t, res.Body, `action="/team/members/`+h.env.OwnerID+`/remove"`, "the owner cannot be removed")
	res = owner.post("/team/members/"+userID+"/remove", nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	require.Equal(t, "/team?done=member-removed", res.Header.Get("Location"))
	res = owner.get("/team?done=member-removed")
	require.Contains(t, res.Body, "The member was removed from the workspace.")
	require.NotContains(t, res.Body, email)

	res = member.get("/settings/keys")
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/login?next=%2Fsettings%2Fkeys", res.Header.Get("Location"))
}

func TestOwnerChangesARole(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, userID := h.addMember(core.RoleMember)
	owner := h.client()
	owner.signIn(h.env.OwnerEmail)
	res := owner.post("/team/members/"+userID+"/role", url.Values{"role": {"admin"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	members, err := h.env.App.Identity.ListTeamMembers(context.Background(), owner.principal())
	require.NoError(t, err)
	for _, m := range members {
		if m.UserID == userID {
			require.Equal(t, core.RoleAdmin, m.Role)
		}
	}

	res = owner.post("/team/members/"+h.env.OwnerID+"/role", url.Values{"role": {"member"}})
	require.Equal(t, http.StatusConflict, res.StatusCode)
	require.Contains(t, res.Body, "The owner&#39;s role cannot change.")
}
