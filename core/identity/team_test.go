package identity_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/apptest"
)

func TestTeamRoles(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	env.Clock.Advance(time.Minute)
	admin := env.AddPerson(t, core.RoleAdmin)
	env.Clock.Advance(time.Minute)
	member := env.AddPerson(t, core.RoleMember)
	_, asOwner := env.SignIn(t, env.OwnerEmail)
	_, asAdmin := env.SignIn(t, admin.Email)
	_, asMember := env.SignIn(t, member.Email)
	memberKey, err := env.App.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	ownerKey, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)

	for _, p := range []core.Principal{asMember, memberKey, ownerKey} {
		list, err := env.App.Identity.ListTeamMembers(ctx, p)
		require.NoError(t, err)
		require.Len(t, list, 3)
		require.Equal(t, []string{env.OwnerID, admin.UserID, member.UserID}, []string{list[0].UserID, list[1].UserID, list[2].UserID})
		require.Equal(t, []core.Role{core.RoleOwner, core.RoleAdmin, core.RoleMember}, []core.Role{list[0].Role, list[1].Role, list[2].Role})
		require.Equal(t, member.Email, list[2].Email)
		require.Equal(t, apptest.Epoch.Add(2*time.Minute), list[2].JoinedAt)
	}

	// Changing roles: the signed-in owner only; never the owner's own.
	_, err = env.App.Identity.UpdateTeamMember(ctx, asAdmin, member.UserID, core.RoleAdmin)
	apptest.RequireCode(t, err, core.CodeTeamManagerRequired)
	_, err = env.App.Identity.UpdateTeamMember(ctx, ownerKey, member.UserID, core.RoleAdmin)
	e := apptest.RequireCode(t, err, core.CodeHumanApprovalRequired)
	require.Equal(t, env.SiteURL+"/team", e.URL)
	_, err = env.App.Identity.UpdateTeamMember(ctx, asOwner, env.OwnerID, core.RoleAdmin)
	e = apptest.RequireCode(t, err, core.CodeInvalidRequestState)
	require.Equal(t, 409, e.Status())
	_, err = env.App.Identity.UpdateTeamMember(ctx, asOwner, member.UserID, core.RoleOwner)
	e = apptest.RequireCode(t, err, core.CodeValidation)
	require.Equal(t, []string{"role"}, e.Fields)
	_, err = env.App.Identity.UpdateTeamMember(ctx, asOwner, "usr_nobody", core.RoleAdmin)
	apptest.RequireCode(t, err, core.CodeNotFound)
	updated, err := env.App.Identity.UpdateTeamMember(ctx, asOwner, member.UserID, core.RoleAdmin)
	require.NoError(t, err)
	require.Equal(t, core.RoleAdmin, updated.Role)
	require.Equal(t, member.Email, updated.Email)
	p, err := env.App.Connect.Authenticate(ctx, member.Key)
	require.NoError(t, err)
	require.Equal(t, core.RoleAdmin, p.Role, "keys follow the role at once")
	_, err = env.App.Identity.UpdateTeamMember(ctx, asOwner, member.UserID, core.RoleMember)
	require.NoError(t, err)

	// Removing: the owner never; an admin needs the owner; a member can't remove.
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, asOwner, env.OwnerID), core.CodeInvalidRequestState)
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, asAdmin, env.OwnerID), core.CodeInvalidRequestState)
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, asAdmin, admin.UserID), core.CodeTeamManagerRequired) // not even themselves
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, asMember, member.UserID), core.CodeTeamManagerRequired)
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, ownerKey, member.UserID), core.CodeHumanApprovalRequired)
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, asOwner, "usr_nobody"), core.CodeNotFound)
	list, err := env.App.Identity.ListTeamMembers(ctx, asOwner)
	require.NoError(t, err)
	require.Len(t, list, 3, "refusals change nothing")

	second := env.AddPerson(t, core.RoleAdmin)
	require.NoError(t, env.App.Identity.RemoveTeamMember(ctx, asAdmin, member.UserID))
	require.NoError(t, env.App.Identity.RemoveTeamMember(ctx, asOwner, second.UserID))
	list, err = env.App.Identity.ListTeamMembers(ctx, asOwner)
	require.NoError(t, err)
	require.Len(t, list, 2)
	apptest.RequireCode(t, env.App.Identity.RemoveTeamMember(ctx, asOwner, member.UserID), core.CodeNotFound)
}

func TestListWorkspaces(t *testing.T) {
	t.Parallel()
	env := apptest.New(t)
	ctx := context.Background()
	env.Clock.Advance(time.Minute)
	other := apptest.NewWorkspace(t, env.App, apptest.WorkspaceOptions{Name: "Second", Demo: true})
	_, err := env.App.Identity.AddMember(ctx, identity.AddMemberParams{WorkspaceID: other.WorkspaceID, Email: env.OwnerEmail, Password: apptest.Password, Role: core.RoleAdmin})
	require.NoError(t, err)

	_, person := env.SignIn(t, env.OwnerEmail)
	list, err := env.App.Identity.ListWorkspaces(ctx, person)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, identity.WorkspaceSummary{ID: env.WorkspaceID, Name: list[0].Name, Mode: core.ModeTest, Role: core.RoleOwner}, list[0])
	require.Equal(t, identity.WorkspaceSummary{ID: other.WorkspaceID, Name: "Second", Mode: core.ModeTest, IsDemo: true, Role: core.RoleAdmin}, list[1])

	key, err := env.App.Connect.Authenticate(ctx, env.OwnerKey)
	require.NoError(t, err)
	list, err = env.App.Identity.ListWorkspaces(ctx, key)
	require.NoError(t, err)
	require.Len(t, list, 1, "a key sees only its own workspace")
	require.Equal(t, env.WorkspaceID, list[0].ID)

	demoKey, err := env.App.Connect.Authenticate(ctx, other.OwnerKey)
	require.NoError(t, err)
	_, err = env.App.Identity.ListWorkspaces(ctx, demoKey)
	apptest.RequireCode(t, err, core.CodeDemoLimited)
	_, err = env.App.Identity.ListWorkspaces(ctx, core.Principal{})
	apptest.RequireCode(t, err, core.CodeAuthRequired)
}
