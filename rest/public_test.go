package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestCatalogIsPublicAndIncludesRetired(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/catalog")
	require.Equal(t, http.StatusOK, res.Status)
	var body struct {
		Data []catalog.Product `json:"data"`
	}
	require.NoError(t, json.Unmarshal(res.Body, &body))
	want, err := h.env.App.Catalog.PublicCatalog(t.Context())
	require.NoError(t, err)
	require.Len(t, body.Data, len(want))
	retired := 0
	for _, p := range body.Data {
		if p.Retired {
			retired++
		}
	}
	require.Positive(t, retired, "GET /catalog must include retired products")
}

func TestCatalogIgnoresCredentials(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	// Public: not even a malformed key is read.
	res := h.get("/catalog", withKey("not-a-key"))
	require.Equal(t, http.StatusOK, res.Status)
}

func TestCatalogRefusesQueryParameters(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/catalog?limit=10")
	require.Equal(t, http.StatusBadRequest, res.Status)
	require.Equal(t, "VALIDATION_ERROR", res.code())
	require.Contains(t, res.message(), "limit")
}

func TestSessionWithoutCredentialsIsNull(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/session")
	require.Equal(t, http.StatusOK, res.Status)
	require.JSONEq(t, `{"data":null}`, string(res.Body))
}

func TestSessionWithKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/session", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status)
	var body struct {
		Data map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(res.Body, &body))
	s := body.Data
	require.Equal(t, h.env.OwnerID, s["id"])
	require.Equal(t, h.env.WorkspaceID, s["teamId"])
	require.Equal(t, "owner", s["teamRole"])
	require.Equal(t, h.env.OwnerEmail, s["email"])
	require.Equal(t, true, s["isAdmin"])
	require.Equal(t, false, s["isDemo"])
	require.Equal(t, false, s["liveEnabled"])
	require.Equal(t, "test", s["workspaceMode"])
	require.Equal(t, false, s["emailVerified"])
	require.NotEmpty(t, s["company"])
	require.Contains(t, s, "name")
	require.Len(t, s, 11, "every field of the spec's Session and no other: %v", s)
}

func TestSessionOfMemberKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	userID, key := h.env.AddMember(t, core.RoleMember)

	res := h.get("/session", withKey(key))
	require.Equal(t, http.StatusOK, res.Status)
	data := res.data().(map[string]any)
	require.Equal(t, userID, data["id"])
	require.Equal(t, "member", data["teamRole"])
	require.Equal(t, false, data["isAdmin"])
}

func TestSessionWithBadKeyIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/session", withKey("gwk_"+core.RandomHex(32)))
	require.Equal(t, http.StatusUnauthorized, res.Status)
	require.Equal(t, "AUTH_REQUIRED", res.code())
}

func TestWorkflowWithKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t)

	res := h.get("/workflow", withKey(h.env.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status)
	data := res.data().(map[string]any)
	require.Equal(t, "test", data["mode"])
	require.Contains(t, data, "limits")
	require.Contains(t, data, "recovery")
}

func TestSessionOfDemoWorkspace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ws := apptest.NewWorkspace(t, h.env.App, apptest.WorkspaceOptions{Name: "Acme Demo", Demo: true})

	res := h.get("/session", withKey(ws.OwnerKey))
	require.Equal(t, http.StatusOK, res.Status)
	data := res.data().(map[string]any)
	require.Equal(t, ws.WorkspaceID, data["teamId"])
	require.Equal(t, ws.OwnerID, data["id"])
	require.Equal(t, "Acme Demo", data["company"])
	require.Equal(t, true, data["isDemo"])
}
