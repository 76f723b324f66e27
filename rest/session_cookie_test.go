package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

func TestSessionCookieOnREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	member := h.env.AddPerson(t, core.RoleMember)
	ownerToken, _ := h.env.SignIn(t, h.env.OwnerEmail)
	owner := withCookie(ownerToken)
	patch := func(opts ...reqOpt) response {
		return h.do(http.MethodPatch, "/settings", strings.NewReader(`{"website":"https://acme.example"}`), append(opts, withJSON())...)
	}

	res := h.get("/session", owner)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	session := res.data().(map[string]any)
	require.Equal(t, h.env.OwnerID, session["id"])
	require.Equal(t, "owner", session["teamRole"])
	require.Equal(t, false, session["emailVerified"], "the first owner never proved their email")

	// Reads need no Origin; writes need the site's Origin or Sec-Fetch-Site.
	require.Equal(t, http.StatusOK, h.get("/team/members", owner).Status)
	res = patch(owner)
	require.Equal(t, http.StatusForbidden, res.Status)
	require.Equal(t, "ORIGIN_FORBIDDEN", res.code())
	res = patch(owner, withHeader("Sec-Fetch-Site", "cross-site"))
	require.Equal(t, "ORIGIN_FORBIDDEN", res.code())
	res = patch(owner, withHeader("Origin", "https://evil.example"))
	require.Equal(t, "ORIGIN_FORBIDDEN", res.code())
	res = h.get("/settings", owner)
	require.Equal(t, "", res.data().(map[string]any)["website"], "refused writes changed nothing")
	require.Equal(t, http.StatusOK, patch(owner, withHeader("Sec-Fetch-Site", "same-origin")).Status)
	require.Equal(t, http.StatusOK, patch(owner, withHeader("Origin", h.site)).Status)
	require.Equal(t, http.StatusOK, patch(withKey(h.env.OwnerKey)).Status, "a key needs no Origin")

	// The Authorization header wins over the cookie.
	res = patch(owner, withKey(member.Key))
	require.Equal(t, "TEAM_MANAGER_REQUIRED", res.code())

	// A bad or ended session is 401 everywhere, GET /session included.
	for _, token := range []string{"nonsense", core.RandomHex(32)} {
		for _, path := range []string{"/session", "/team/members", "/workspaces"} {
			res := h.get(path, withCookie(token))
			require.Equal(t, http.StatusUnauthorized, res.Status, path)
			require.Equal(t, "AUTH_REQUIRED", res.code())
			require.Equal(t, h.site+"/login", res.JSON["url"])
		}
	}

	// A removed member's cookie stops working at once.
	memberToken, _ := h.env.SignIn(t, member.Email)
	require.Equal(t, http.StatusOK, h.get("/session", withCookie(memberToken)).Status)
	res = h.do(http.MethodDelete, "/team/members/"+member.UserID, nil, owner, withHeader("Origin", h.site))
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, map[string]any{"userId": member.UserID, "removed": true}, res.data())
	res = h.get("/team/members", withCookie(memberToken))
	require.Equal(t, http.StatusUnauthorized, res.Status)
	require.Equal(t, http.StatusUnauthorized, h.get("/session", withCookie(memberToken)).Status)
	require.Equal(t, http.StatusUnauthorized, h.get("/team/members", withKey(member.Key)).Status)
}

func TestInvitationOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ownerToken, _ := h.env.SignIn(t, h.env.OwnerEmail)
	owner := []reqOpt{withCookie(ownerToken), withHeader("Origin", h.site), withJSON()}

	res := h.do(http.MethodPost, "/team/invitations", strings.NewReader(`{"email":"ana@example.com","role":"member"}`), owner...)
	require.Equal(t, http.StatusCreated, res.Status, "%s", res.Body)
	data := res.data().(map[string]any)
	require.Equal(t, true, data["emailQueued"])
	require.True(t, strings.HasPrefix(data["inviteUrl"].(string), h.site+"/invite/"), data["inviteUrl"])
	inv := data["invitation"].(map[string]any)
	require.Equal(t, "pending", inv["state"])
	require.Equal(t, "ana@example.com", inv["email"])

	// Over-long and unknown fields are named; nothing is created.
	for body, field := range map[string]string{
		`{"email":"` + strings.Repeat("a", 260) + `@example.com","role":"member"}`: "email",
		`{"email":"bo@example.com","role":"owner"}`:                                "role",
		`{"email":"bo@example.com","role":"member","note":"hi"}`:                   "note",
	} {
		res := h.do(http.MethodPost, "/team/invitations", strings.NewReader(body), owner...)
		require.Equal(t, http.StatusBadRequest, res.Status, "%s", res.Body)
		require.Equal(t, "VALIDATION_ERROR", res.code())
		require.Contains(t, res.message(), field)
	}
	res = h.get("/team/invitations", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status)
	list := res.data().([]any)
	require.Len(t, list, 1)
	require.NotContains(t, string(res.Body), "inviteUrl", "listing never shows links")

	res = h.do(http.MethodDelete, "/team/invitations/"+inv["id"].(string), nil, owner[:2]...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	require.Equal(t, map[string]any{"id": inv["id"], "state": "revoked"}, res.data())
	res = h.do(http.MethodDelete, "/team/invitations/"+inv["id"].(string), nil, owner[:2]...)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "INVALID_REQUEST", res.code())
	require.Equal(t, "reread_and_retry", res.JSON["nextAction"])

	// Settings bounds over REST.
	res = h.do(http.MethodPatch, "/settings", strings.NewReader(`{"company":"`+strings.Repeat("c", 201)+`"}`), owner...)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.Contains(t, res.message(), "company")
	res = h.do(http.MethodPatch, "/settings", strings.NewReader(`{"brandColor":null}`), owner...)
	require.Equal(t, "VALIDATION_ERROR", res.code(), "null is not a value")
	res = h.do(http.MethodPatch, "/settings", strings.NewReader(`{"website":"http://acme.example"}`), owner...)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.True(t, strings.HasPrefix(res.message(), "website: "), res.message())

	res = h.get("/workspaces", withCookie(ownerToken))
	require.Equal(t, http.StatusOK, res.Status)
	require.Equal(t, []any{map[string]any{"id": h.env.WorkspaceID, "name": res.data().([]any)[0].(map[string]any)["name"],
		"mode": "test", "isDemo": false, "role": "owner"}}, res.data())
}
