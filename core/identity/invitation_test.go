package identity_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

// outbox records what the email worker hands it; fail makes every Send fail.
type outbox struct {
	mu   sync.Mutex
	sent []identity.Email
	fail error
}

func (o *outbox) Send(_ context.Context, e identity.Email) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, e)
	return o.fail
}

var _ identity.EmailSender = (*outbox)(nil)

// tokenOf is the token at the end of an invitation URL.
func tokenOf(t *testing.T, env *apptest.Env, inviteURL string) string {
	t.Helper()
	token, ok := strings.CutPrefix(inviteURL, env.SiteURL+"/invite/")
	require.True(t, ok, inviteURL)
	require.Regexp(t, `^[0-9a-f]{64}$`, token)
	return token
}

func TestInvitationFromInviteToAccept(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	email := apptest.UniqueEmail("new")

	created, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: " " + strings.ToUpper(email) + " ", Role: core.RoleMember})
	require.NoError(t, err)
	require.True(t, created.EmailQueued)
	require.True(t, strings.HasPrefix(created.ID, core.PrefixInvite), created.ID)
	require.Equal(t, email, created.Email)
	require.Equal(t, identity.InvitationPending, created.State)
	require.Equal(t, env.OwnerID, created.InvitedBy)
	require.Equal(t, apptest.Epoch.Add(7*24*time.Hour), created.ExpiresAt)
	token := tokenOf(t, env, created.InviteURL)

	// The email went to the outbox with its job in the same transaction, link included.
	box := &outbox{}
	n := env.DeliverEmails(t, box)
	require.Equal(t, 1, n)
	require.Equal(t, email, box.sent[0].To)
	require.Contains(t, box.sent[0].Text, created.InviteURL)
	n = env.DeliverEmails(t, box)
	require.Zero(t, n, "an email is sent once")

	view, err := env.App.Identity.InvitationByToken(ctx, token)
	require.NoError(t, err)
	require.Equal(t, identity.InvitationView{WorkspaceName: view.WorkspaceName, Email: email, Role: core.RoleMember,
		InvitedByName: strings.Split(env.OwnerEmail, "@")[0], ExpiresAt: created.ExpiresAt, AccountExists: false}, view)
	require.NotEmpty(t, view.WorkspaceName)

	s, err := env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: email, Password: "a new password", Name: "Nia Newcomer"})
	require.NoError(t, err)
	require.Equal(t, env.WorkspaceID, s.WorkspaceID)
	p, err := env.App.Identity.AuthenticateSession(ctx, s.Token)
	require.NoError(t, err)
	require.Equal(t, core.RoleMember, p.Role)
	session, err := env.App.Identity.Session(ctx, p)
	require.NoError(t, err)
	require.True(t, session.EmailVerified, "accepting an invitation proves the email")
	require.Equal(t, "Nia Newcomer", session.Name)
	_, err = signIn(env, email, "a new password", "")
	require.NoError(t, err, "the new account signs in")

	// Single use.
	_, err = env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: email, Password: "a new password", Name: "Again"})
	e := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Contains(t, e.Message, "already used")
	_, err = env.App.Identity.InvitationByToken(ctx, token)
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	list, err := env.App.Identity.ListTeamInvitations(ctx, owner)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, identity.InvitationAccepted, list[0].State)
	require.NotNil(t, list[0].AcceptedAt)
}

func TestInvitationExpiresAfterSevenDays(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	email := apptest.UniqueEmail("late")
	created, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: email, Role: core.RoleMember})
	require.NoError(t, err)
	token := tokenOf(t, env, created.InviteURL)

	env.Clock.Advance(7*24*time.Hour - time.Second)
	_, err = env.App.Identity.InvitationByToken(ctx, token)
	require.NoError(t, err)
	env.Clock.Advance(time.Second)
	_, err = env.App.Identity.InvitationByToken(ctx, token)
	e := apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Contains(t, e.Message, "expired")
	_, err = env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: email, Password: "a new password", Name: "Late"})
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)

	list, err := env.App.Identity.ListTeamInvitations(ctx, owner)
	require.NoError(t, err)
	require.Equal(t, identity.InvitationExpired, list[0].State)
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, owner, created.ID), core.CodeInvalidRequestState)
	members, err := env.App.Identity.ListTeamMembers(ctx, owner)
	require.NoError(t, err)
	require.Len(t, members, 1, "nobody joined")
}

func TestInvitationBadTokensAndOtherEmail(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)

	for _, token := range []string{"", "nope", core.RandomHex(32)} {
		_, err := env.App.Identity.InvitationByToken(ctx, token)
		apptest.RequireCode(t, err, core.CodeNotFound)
		_, err = env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: "a@example.com", Password: "a new password", Name: "A"})
		apptest.RequireCode(t, err, core.CodeNotFound)
	}

	email := apptest.UniqueEmail("invited")
	created, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: email, Role: core.RoleAdmin})
	require.NoError(t, err)
	token := tokenOf(t, env, created.InviteURL)

	_, err = env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: apptest.UniqueEmail("other"), Password: "a new password", Name: "Other"})
	e := apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"email"}, e.Fields)

	// Bad new-account fields name the field and change nothing.
	for _, c := range []struct {
		p     identity.AcceptParams
		field string
	}{
		{identity.AcceptParams{Token: token, Email: email, Password: "a new password", Name: strings.Repeat("n", 201)}, "name"},
		{identity.AcceptParams{Token: token, Email: email, Password: "a new password", Name: "  "}, "name"},
		{identity.AcceptParams{Token: token, Email: email, Password: "short", Name: "Ok"}, "password"},
		{identity.AcceptParams{Token: token, Email: "", Password: "a new password", Name: "Ok"}, "email"},
	} {
		_, err := env.App.Identity.AcceptInvitation(ctx, c.p)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields, e.Message)
	}
	_, err = signIn(env, email, "a new password", "")
	apptest.RequireCode(t, err, core.CodeAuthRequired) // no account was made
	view, err := env.App.Identity.InvitationByToken(ctx, token)
	require.NoError(t, err, "still pending")
	require.Equal(t, core.RoleAdmin, view.Role)
}

func TestInvitationForAnExistingAccount(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	// Someone who owns another workspace.
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	_, owner := env.SignIn(t, env.OwnerEmail)
	created, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: other.OwnerEmail, Role: core.RoleAdmin})
	require.NoError(t, err)
	token := tokenOf(t, env, created.InviteURL)
	view, err := env.App.Identity.InvitationByToken(ctx, token)
	require.NoError(t, err)
	require.True(t, view.AccountExists)

	for range identity.SignInFailuresPerPair {
		_, err := env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: other.OwnerEmail, Password: "not theirs", ClientIP: "192.0.2.5"})
		e := apptest.RequireCode(t, err, core.CodeAuthRequired)
		require.Equal(t, "the email or password is wrong", e.Message)
		env.Clock.Advance(10 * time.Second) // past the growing delays
	}
	_, err = env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: other.OwnerEmail, Password: apptest.Password, ClientIP: "192.0.2.5"})
	e := apptest.RequireCode(t, err, core.CodeRateLimit)
	require.Positive(t, e.RetryAfterMs)
	_, err = signIn(env, other.OwnerEmail, apptest.Password, "192.0.2.5")
	apptest.RequireCode(t, err, core.CodeRateLimit) // the same throttle as sign-in

	env.Clock.Advance(identity.SignInThrottleWindow)
	s, err := env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: other.OwnerEmail, Password: apptest.Password, Name: "ignored"})
	require.NoError(t, err)
	require.Equal(t, env.WorkspaceID, s.WorkspaceID)
	require.Equal(t, other.OwnerID, s.UserID)
	p, err := env.App.Identity.AuthenticateSession(ctx, s.Token)
	require.NoError(t, err)
	require.Equal(t, core.RoleAdmin, p.Role)
	ws, err := env.App.Identity.ListWorkspaces(ctx, p)
	require.NoError(t, err)
	require.Len(t, ws, 2)
	require.Equal(t, other.WorkspaceID, ws[0].ID)
	require.Equal(t, core.RoleOwner, ws[0].Role)
	require.Equal(t, core.RoleAdmin, ws[1].Role)
}

func TestInvitationConcurrentDoubleAccept(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	_, owner := env.SignIn(t, env.OwnerEmail)
	email := apptest.UniqueEmail("racer")
	created, err := env.App.Identity.InviteTeamMember(ctx, owner, identity.InviteParams{Email: email, Role: core.RoleMember})
	require.NoError(t, err)
	token := tokenOf(t, env, created.InviteURL)

	const n = 6
	errs := make(chan error, n)
	start := make(chan struct{})
	for range n {
		go func() {
			<-start
			_, err := env.App.Identity.AcceptInvitation(ctx, identity.AcceptParams{Token: token, Email: email, Password: "a new password", Name: "Racer"})
			errs <- err
		}()
	}
	close(start)
	won := 0
	for range n {
		err := <-errs
		if err == nil {
			won++
			continue
		}
		require.Contains(t, []core.Code{core.CodeInvalidRequestState, core.CodeValidation}, core.ErrorCode(err), "%v", err)
	}
	require.Equal(t, 1, won)
	members, err := env.App.Identity.ListTeamMembers(ctx, owner)
	require.NoError(t, err)
	require.Len(t, members, 2)
}

func TestInviteRules(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	admin := env.AddPerson(t, core.RoleAdmin)
	member := env.AddPerson(t, core.RoleMember)
	_, asOwner := env.SignIn(t, env.OwnerEmail)
	_, asAdmin := env.SignIn(t, admin.Email)
	_, asMember := env.SignIn(t, member.Email)
	ownerKey, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	invite := func(p core.Principal, email string, role core.Role) (identity.InvitationCreated, error) {
		return env.App.Identity.InviteTeamMember(ctx, p, identity.InviteParams{Email: email, Role: role})
	}

	_, err = invite(asAdmin, apptest.UniqueEmail("x"), core.RoleAdmin)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	_, err = invite(asMember, apptest.UniqueEmail("x"), core.RoleMember)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	_, err = invite(ownerKey, apptest.UniqueEmail("x"), core.RoleMember)
	e := apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	require.Equal(t, env.SiteURL+"/team", e.URL)
	for _, c := range []struct {
		email string
		role  core.Role
		field string
	}{
		{member.Email, core.RoleMember, "email"},
		{env.OwnerEmail, core.RoleAdmin, "email"},
		{"not an email", core.RoleMember, "email"},
		{strings.Repeat("a", 250) + "@example.com", core.RoleMember, "email"},
		{apptest.UniqueEmail("x"), core.RoleOwner, "role"},
		{apptest.UniqueEmail("x"), "", "role"},
	} {
		_, err := invite(asOwner, c.email, c.role)
		e := apptest.RequireCode(t, err, core.CodeValidation)
		require.Equal(t, []string{c.field}, e.Fields, c.email)
	}
	list, err := env.App.Identity.ListTeamInvitations(ctx, asOwner)
	require.NoError(t, err)
	require.Empty(t, list, "refusals change nothing")

	// An admin invites members; inviting again replaces the pending invitation.
	email := apptest.UniqueEmail("twice")
	first, err := invite(asAdmin, email, core.RoleMember)
	require.NoError(t, err)
	env.Clock.Advance(time.Minute)
	second, err := invite(asOwner, email, core.RoleAdmin)
	require.NoError(t, err)
	_, err = env.App.Identity.InvitationByToken(ctx, tokenOf(t, env, first.InviteURL))
	apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	_, err = env.App.Identity.InvitationByToken(ctx, tokenOf(t, env, second.InviteURL))
	require.NoError(t, err)
	list, err = env.App.Identity.ListTeamInvitations(ctx, asAdmin)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, second.ID, list[0].ID, "newest first")
	require.Equal(t, identity.InvitationPending, list[0].State)
	require.Equal(t, identity.InvitationRevoked, list[1].State)

	// Revoking: an admin's invitation needs the owner; only pending ones.
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, asAdmin, second.ID), core.CodeTeamManagerRequired)
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, asMember, second.ID), core.CodeTeamManagerRequired)
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, ownerKey, second.ID), core.CodeHumanApprovalRequired)
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, asOwner, "inv_unknown"), core.CodeNotFound)
	require.NoError(t, env.App.Identity.RevokeTeamInvitation(ctx, asOwner, second.ID))
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, asOwner, second.ID), core.CodeInvalidRequestState)
	_, err = env.App.Identity.InvitationByToken(ctx, tokenOf(t, env, second.InviteURL))
	e = apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Contains(t, e.Message, "withdrawn")
	third, err := invite(asAdmin, apptest.UniqueEmail("m"), core.RoleMember)
	require.NoError(t, err)
	require.NoError(t, env.App.Identity.RevokeTeamInvitation(ctx, asAdmin, third.ID))

	// Another workspace's invitation is not found.
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{})
	_, otherOwner := env.SignIn(t, other.OwnerEmail)
	foreign, err := invite(otherOwner, apptest.UniqueEmail("f"), core.RoleMember)
	require.NoError(t, err)
	apptest.RequireCode(t, env.App.Identity.RevokeTeamInvitation(ctx, asOwner, foreign.ID), core.CodeNotFound)

	// Listing needs an owner or admin, key or person.
	_, err = env.App.Identity.ListTeamInvitations(ctx, asMember)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	memberKey, err := env.App.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	_, err = env.App.Identity.ListTeamInvitations(ctx, memberKey)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	list, err = env.App.Identity.ListTeamInvitations(ctx, ownerKey)
	require.NoError(t, err)
	require.Len(t, list, 3)
}
