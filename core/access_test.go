package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
)

// Cell values of the spec's role matrix (Authentication §4), transcribed by
// hand: "" allowed, otherwise the code the caller gets.
const (
	ok  = core.Code("")
	har = core.CodeHumanApprovalRequired
	tmr = core.CodeTeamManagerRequired
	isc = core.CodeInsufficientScope
)

// column is one caller of the matrix.
type column struct {
	name string
	p    core.Principal
}

func columns() []column {
	base := core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Mode: core.ModeTest}
	with := func(r core.Role, v core.Via, scopes ...core.Scope) core.Principal {
		p := base
		p.Role, p.Via, p.Scopes = r, v, scopes
		return p
	}
	return []column{
		{"member signed in", with(core.RoleMember, core.ViaSession)},
		{"admin signed in", with(core.RoleAdmin, core.ViaSession)},
		{"owner signed in", with(core.RoleOwner, core.ViaSession)},
		{"member key", with(core.RoleMember, core.ViaKey)},
		{"admin key", with(core.RoleAdmin, core.ViaKey)},
		{"owner key", with(core.RoleOwner, core.ViaKey)},
		{"member connection, all scopes", with(core.RoleMember, core.ViaConnection, core.AllScopes...)},
		{"admin connection, all scopes", with(core.RoleAdmin, core.ViaConnection, core.AllScopes...)},
		{"owner connection, all scopes", with(core.RoleOwner, core.ViaConnection, core.AllScopes...)},
		{"owner connection, no scopes", with(core.RoleOwner, core.ViaConnection)},
	}
}

// TestAuthorizeMatrix walks every row and column of the role matrix.
func TestAuthorizeMatrix(t *testing.T) {
	t.Parallel()
	// member, admin, owner signed in | member, admin, owner key |
	// member, admin, owner connection with all scopes | a connection with none.
	want := map[core.Action][10]core.Code{
		core.ActRead:                 {ok, ok, ok, ok, ok, ok, ok, ok, ok, isc},
		core.ActEditDrafts:           {ok, ok, ok, ok, ok, ok, ok, ok, ok, isc},
		core.ActAddPeople:            {ok, ok, ok, ok, ok, ok, ok, ok, ok, isc},
		core.ActPauseOrComplete:      {ok, ok, ok, ok, ok, ok, har, har, har, har},
		core.ActActivate:             {ok, ok, ok, har, har, har, har, har, har, har},
		core.ActApprove:              {tmr, ok, ok, har, har, har, har, har, har, har},
		core.ActRaiseAutoApprove:     {tmr, ok, ok, har, har, har, har, har, har, har},
		core.ActLowerAutoApprove:     {ok, ok, ok, har, har, har, har, har, har, har},
		core.ActReadQueueAndBalance:  {ok, ok, ok, ok, ok, ok, ok, ok, ok, isc},
		core.ActPay:                  {tmr, ok, ok, har, har, har, har, har, har, har},
		core.ActReadGiftLinks:        {ok, ok, ok, ok, ok, ok, ok, ok, ok, isc},
		core.ActCreateAPIKey:         {ok, ok, ok, har, har, har, har, har, har, har},
		core.ActManageWebhooks:       {tmr, ok, ok, har, har, har, har, har, har, har},
		core.ActReadWebhooks:         {tmr, ok, ok, har, ok, ok, har, har, har, har},
		core.ActUpdateSettings:       {tmr, ok, ok, tmr, ok, ok, har, har, har, har},
		core.ActListTeammates:        {ok, ok, ok, ok, ok, ok, har, har, har, har},
		core.ActInviteOrRemove:       {tmr, ok, ok, har, har, har, har, har, har, har},
		core.ActChangeRole:           {tmr, tmr, ok, har, har, har, har, har, har, har},
		core.ActReadWorkspaceDetails: {ok, ok, ok, ok, ok, ok, har, har, har, har},
		core.ActReadInvitations:      {tmr, ok, ok, tmr, ok, ok, har, har, har, har},
		core.ActReadBilling:          {tmr, ok, ok, tmr, ok, ok, har, har, har, har},
		core.ActManageAPIKeys:        {ok, ok, ok, har, har, har, har, har, har, har},
		core.ActRecordOutcome:        {ok, ok, ok, ok, ok, ok, har, har, har, har},
		core.ActManageGiftLinks:      {ok, ok, ok, ok, ok, ok, har, har, har, har},
		core.ActUploadArtwork:        {ok, ok, ok, ok, ok, ok, ok, ok, ok, isc},
		core.ActUpdatePhoto:          {ok, ok, ok, ok, ok, ok, har, har, har, har},
		core.ActReadActivity:         {tmr, ok, ok, tmr, ok, ok, har, har, har, har},
	}
	require.Len(t, want, len(core.Actions()), "every row of the matrix has expectations")
	cols := columns()
	for _, a := range core.Actions() {
		row, found := want[a]
		require.True(t, found, "no expectations for %s", a)
		for i, c := range cols {
			err := core.Authorize(c.p, a, "http://site/campaigns/cmp_1?review=1")
			if row[i] == ok {
				require.NoError(t, err, "%s / %s", a, c.name)
				continue
			}
			require.Error(t, err, "%s / %s", a, c.name)
			e := core.AsError(err)
			require.Equal(t, row[i], e.Code, "%s / %s: %s", a, c.name, e.Message)
			if e.Code == har {
				require.Equal(t, "http://site/campaigns/cmp_1?review=1", e.URL, "%s / %s carries the url", a, c.name)
			}
		}
	}
}

// TestAuthorizeScopesSeparately checks that each scope grants its rows alone.
func TestAuthorizeScopesSeparately(t *testing.T) {
	t.Parallel()
	cases := []struct {
		scope   core.Scope
		allowed []core.Action
	}{
		{core.ScopeRead, []core.Action{core.ActRead, core.ActReadQueueAndBalance}},
		{core.ScopeWrite, []core.Action{core.ActEditDrafts, core.ActAddPeople}},
		{core.ScopeLinks, []core.Action{core.ActReadGiftLinks}},
	}
	for _, c := range cases {
		p := core.Principal{WorkspaceID: "ws_1", UserID: "usr_1", Role: core.RoleOwner, Via: core.ViaConnection, Scopes: []core.Scope{c.scope}}
		for _, a := range []core.Action{core.ActRead, core.ActReadQueueAndBalance, core.ActEditDrafts, core.ActAddPeople, core.ActReadGiftLinks} {
			err := core.Authorize(p, a, "")
			allowed := false
			for _, x := range c.allowed {
				allowed = allowed || x == a
			}
			if allowed {
				require.NoError(t, err, "%s grants %s", c.scope, a)
			} else {
				require.Equal(t, core.CodeInsufficientScope, core.ErrorCode(err), "%s does not grant %s", c.scope, a)
			}
		}
	}
}

func TestAuthorizeAnonymousAndDemo(t *testing.T) {
	t.Parallel()
	require.Equal(t, core.CodeAuthRequired, core.ErrorCode(core.Authorize(core.Principal{}, core.ActRead, "")))

	demoKey := core.Principal{WorkspaceID: "ws_d", UserID: "usr_1", Role: core.RoleOwner, Via: core.ViaKey, IsDemo: true}
	require.Equal(t, core.CodeDemoLimited, core.ErrorCode(core.Authorize(demoKey, core.ActRead, "")), "a demo workspace cannot use keys")

	demoPerson := demoKey
	demoPerson.Via = core.ViaSession
	require.NoError(t, core.Authorize(demoPerson, core.ActRead, ""), "a person previews a demo workspace")
	require.Equal(t, core.CodeDemoLimited, core.ErrorCode(core.Authorize(demoPerson, core.ActManageWebhooks, "")), "no webhooks in a demo")
	require.Equal(t, core.CodeDemoLimited, core.ErrorCode(core.Authorize(demoPerson, core.ActCreateAPIKey, "")), "no keys in a demo")
}

// TestAuthorizeRESTRoute: a sign-in connection uses only the REST routes
// that accept connections (Authentication §3); keys and sessions every one.
func TestAuthorizeRESTRoute(t *testing.T) {
	t.Parallel()
	cfg := core.Config{SiteURL: "https://giftwell.example"}
	for _, col := range columns() {
		require.NoError(t, cfg.AuthorizeRESTRoute(col.p, true), col.name)
		err := cfg.AuthorizeRESTRoute(col.p, false)
		if col.p.Via != core.ViaConnection {
			require.NoError(t, err, col.name)
			continue
		}
		require.Equal(t, core.CodeAuthRequired, core.ErrorCode(err), col.name)
		require.Equal(t, cfg.SignInURL(), core.AsError(err).URL, col.name)
		require.Contains(t, err.Error(), "distribution", col.name)
	}
}
