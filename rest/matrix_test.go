package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// withCookie sends a session cookie, as the web app's pages do.
func withCookie(token string) reqOpt {
	return func(r *http.Request) { r.AddCookie(&http.Cookie{Name: identity.SessionCookieName, Value: token}) }
}

// cellWant is one cell of the matrix: the status and, for refusals, the code.
type cellWant struct {
	status int
	code   string
}

func (w cellWant) String() string {
	if w.code == "" {
		return fmt.Sprint(w.status)
	}
	return fmt.Sprintf("%d %s", w.status, w.code)
}

var (
	s200 = cellWant{http.StatusOK, ""}
	s201 = cellWant{http.StatusCreated, ""}
	tmr  = cellWant{http.StatusForbidden, "TEAM_MANAGER_REQUIRED"}
	har  = cellWant{http.StatusForbidden, "HUMAN_APPROVAL_REQUIRED"}
	dem  = cellWant{http.StatusForbidden, "DEMO_LIMITED"}
	c409 = cellWant{http.StatusConflict, "INVALID_REQUEST"}
)

// matrixWorkspace is a workspace of the matrix test, with what fixtures need.
type matrixWorkspace struct {
	id    string
	owner core.Principal // its owner, signed in
}

// matrixCaller is one column: how it authenticates and in which workspace.
type matrixCaller struct {
	name string
	ws   *matrixWorkspace
	opts []reqOpt
	// writeOpts are added on state-changing methods (a browser's Origin).
	writeOpts []reqOpt
}

// matrixRow is one route of the role matrix; request builds the request
// for a cell, creating whatever the cell consumes (an invitation, a member).
type matrixRow struct {
	name    string
	request func(t *testing.T, h *harness, ws *matrixWorkspace) (method, path, body string)
	// want holds the columns in matrixColumns' order: member, admin, owner
	// signed in; member, admin, owner key; demo owner signed in; demo owner key.
	want [8]cellWant
}

func TestRoleMatrixOverREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	env := h.env
	ctx := context.Background()
	admin := env.AddPerson(t, core.RoleAdmin)
	member := env.AddPerson(t, core.RoleMember)
	demo := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{Demo: true})

	ownerToken, ownerP := env.SignIn(t, env.OwnerEmail)
	adminToken, _ := env.SignIn(t, admin.Email)
	memberToken, _ := env.SignIn(t, member.Email)
	demoToken, demoP := env.SignIn(t, demo.OwnerEmail)
	main := &matrixWorkspace{id: env.WorkspaceID, owner: ownerP}
	demoWS := &matrixWorkspace{id: demo.WorkspaceID, owner: demoP}
	origin := withHeader("Origin", h.site)
	cols := []matrixCaller{
		{"member signed in", main, []reqOpt{withCookie(memberToken)}, []reqOpt{origin}},
		{"admin signed in", main, []reqOpt{withCookie(adminToken)}, []reqOpt{origin}},
		{"owner signed in", main, []reqOpt{withCookie(ownerToken)}, []reqOpt{origin}},
		{"member key", main, []reqOpt{withKey(member.Key)}, nil},
		{"admin key", main, []reqOpt{withKey(admin.Key)}, nil},
		{"owner key", main, []reqOpt{withKey(env.OwnerKey)}, nil},
		{"demo owner signed in", demoWS, []reqOpt{withCookie(demoToken)}, []reqOpt{origin}},
		{"demo owner key", demoWS, []reqOpt{withKey(demo.OwnerKey)}, nil},
	}

	newPerson := func(t *testing.T, ws *matrixWorkspace, role core.Role) string {
		m, err := env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: ws.id, Email: apptest.UniqueEmail("fixture"), Password: apptest.Password, Role: role})
		require.NoError(t, err)
		return m.UserID
	}
	newInvitation := func(t *testing.T, ws *matrixWorkspace, role core.Role) string {
		inv, err := env.App.Identity.InviteTeamMember(ctx, ws.owner, identity.InviteParams{Email: apptest.UniqueEmail("fixture"), Role: role})
		require.NoError(t, err)
		return inv.ID
	}
	newPlaybook := func(t *testing.T, ws *matrixWorkspace) string {
		c, err := env.App.Campaigns.CreateCampaign(ctx, ws.owner, campaign.CampaignInput{Name: "Matrix playbook", Mode: campaign.ModeAlwaysOn,
			ProductID: "gourmet-snack-crate", SenderName: "Sam", SenderCompany: "Acme"})
		require.NoError(t, err)
		return c.ID
	}
	fixed := func(method, path, body string) func(*testing.T, *harness, *matrixWorkspace) (string, string, string) {
		return func(*testing.T, *harness, *matrixWorkspace) (string, string, string) { return method, path, body }
	}
	rows := []matrixRow{
		{"GET /settings", fixed("GET", "/settings", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, dem}},
		{"PATCH /settings", fixed("PATCH", "/settings", `{"company":"Acme Inc","brandColor":"#1a7f5a"}`),
			[8]cellWant{tmr, s200, s200, tmr, s200, s200, s200, dem}},
		{"GET /team/members", fixed("GET", "/team/members", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, dem}},
		{"GET /team/invitations", fixed("GET", "/team/invitations", ""),
			[8]cellWant{tmr, s200, s200, tmr, s200, s200, s200, dem}},
		{"POST /team/invitations (member)", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "POST", "/team/invitations", `{"email":"` + apptest.UniqueEmail("invitee") + `","role":"member"}`
		}, [8]cellWant{tmr, s201, s201, har, har, har, s201, dem}},
		{"POST /team/invitations (admin)", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "POST", "/team/invitations", `{"email":"` + apptest.UniqueEmail("invitee") + `","role":"admin"}`
		}, [8]cellWant{tmr, tmr, s201, har, har, har, s201, dem}},
		{"DELETE /team/invitations/{member's}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "DELETE", "/team/invitations/" + newInvitation(t, ws, core.RoleMember), ""
		}, [8]cellWant{tmr, s200, s200, har, har, har, s200, dem}},
		{"DELETE /team/invitations/{admin's}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "DELETE", "/team/invitations/" + newInvitation(t, ws, core.RoleAdmin), ""
		}, [8]cellWant{tmr, tmr, s200, har, har, har, s200, dem}},
		{"PATCH /team/members/{member}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "PATCH", "/team/members/" + newPerson(t, ws, core.RoleMember), `{"role":"admin"}`
		}, [8]cellWant{tmr, tmr, s200, har, har, har, s200, dem}},
		{"PATCH /team/members/{owner}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "PATCH", "/team/members/" + ws.owner.UserID, `{"role":"member"}`
		}, [8]cellWant{tmr, tmr, c409, har, har, har, c409, dem}},
		{"DELETE /team/members/{member}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "DELETE", "/team/members/" + newPerson(t, ws, core.RoleMember), ""
		}, [8]cellWant{tmr, s200, s200, har, har, har, s200, dem}},
		{"DELETE /team/members/{admin}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "DELETE", "/team/members/" + newPerson(t, ws, core.RoleAdmin), ""
		}, [8]cellWant{tmr, tmr, s200, har, har, har, s200, dem}},
		{"DELETE /team/members/{owner}", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "DELETE", "/team/members/" + ws.owner.UserID, ""
		}, [8]cellWant{tmr, c409, c409, har, har, har, c409, dem}},
		{"GET /workspaces", fixed("GET", "/workspaces", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, dem}},
		{"GET /session", fixed("GET", "/session", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, s200}},
		// The REST-only registry entries.
		{"GET /catalog", fixed("GET", "/catalog", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, s200}},
		{"GET /queue", fixed("GET", "/queue", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, dem}},
		{"GET /queue/skipped", fixed("GET", "/queue/skipped", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, dem}},
		{"GET /balance/ledger", fixed("GET", "/balance/ledger", ""),
			[8]cellWant{s200, s200, s200, s200, s200, s200, s200, dem}},
		{"POST /campaigns/{playbook}/auto-approve (off)", func(t *testing.T, h *harness, ws *matrixWorkspace) (string, string, string) {
			return "POST", "/campaigns/" + newPlaybook(t, ws) + "/auto-approve", `{"enabled":false}`
		}, [8]cellWant{s200, s200, s200, har, har, har, s200, dem}},
	}

	var summary strings.Builder
	fmt.Fprintf(&summary, "%-38s", "route")
	for _, c := range cols {
		fmt.Fprintf(&summary, " | %-27s", c.name)
	}
	summary.WriteString("\n")
	cells := 0
	for _, row := range rows {
		fmt.Fprintf(&summary, "%-38s", row.name)
		for i, col := range cols {
			method, path, body := row.request(t, h, col.ws)
			opts := append([]reqOpt(nil), col.opts...)
			if method != http.MethodGet {
				opts = append(opts, col.writeOpts...)
			}
			var reader io.Reader
			if body != "" {
				reader = strings.NewReader(body)
				opts = append(opts, withJSON())
			}
			res := h.do(method, path, reader, opts...)
			want := row.want[i]
			got := cellWant{res.Status, res.code()}
			require.Equal(t, want, got, "%s as %s: %s", row.name, col.name, res.Body)
			if want.code == "HUMAN_APPROVAL_REQUIRED" {
				if strings.Contains(path, "/auto-approve") {
					require.Equal(t, h.site+strings.TrimSuffix(path, "/auto-approve")+"?review=1", res.JSON["url"], "%s as %s", row.name, col.name)
				} else {
					require.Contains(t, []string{h.site + "/team", h.site + "/settings"}, res.JSON["url"], "%s as %s", row.name, col.name)
				}
			}
			fmt.Fprintf(&summary, " | %-27s", got)
			cells++
		}
		summary.WriteString("\n")
	}
	require.Equal(t, len(rows)*len(cols), cells)
	t.Logf("role matrix over REST, %d routes x %d callers = %d cells, all as expected:\n%s", len(rows), len(cols), cells, summary.String())
}
