package core

// Action is one row of the spec's role matrix (Authentication §4). Every tool
// and route names the action it performs; Authorize decides it.
type Action string

// The rows of the role matrix, in the spec's order.
const (
	ActRead                 Action = "read"                   // Read catalog, campaigns, gifts, tracking
	ActEditDrafts           Action = "edit_drafts"            // Create and edit drafts
	ActAddPeople            Action = "add_people"             // Add people
	ActPauseOrComplete      Action = "pause_or_complete"      // Pause or complete a campaign
	ActActivate             Action = "activate"               // Turn a playbook on, activate any campaign
	ActApprove              Action = "approve"                // Approve, skip, unskip
	ActRaiseAutoApprove     Action = "raise_auto_approve"     // Turn on auto-approve, raise its limits or the monthly budget while on
	ActLowerAutoApprove     Action = "lower_auto_approve"     // Lower auto-approve limits or turn it off
	ActReadQueueAndBalance  Action = "read_queue_and_balance" // Read queue and balance
	ActPay                  Action = "pay"                    // Add funds; pay checkout; request refund
	ActReadGiftLinks        Action = "read_gift_links"        // Read gift links and CSV exports
	ActCreateAPIKey         Action = "create_api_key"         // Create an API key
	ActManageWebhooks       Action = "manage_webhooks"        // Create or remove a webhook
	ActReadWebhooks         Action = "read_webhooks"          // List webhooks; read and retry deliveries
	ActUpdateSettings       Action = "update_settings"        // Update workspace settings
	ActListTeammates        Action = "list_teammates"         // List teammates
	ActInviteOrRemove       Action = "invite_or_remove"       // Invite or remove teammates
	ActChangeRole           Action = "change_role"            // Change a teammate's role
	ActReadWorkspaceDetails Action = "read_workspace_details" // Dashboard reads outside the matrix (billing config, workspaces, ...)
	ActReadInvitations      Action = "read_invitations"       // List invitations: owner or admin, key or signed in (outside the matrix)
	ActReadBilling          Action = "read_billing"           // List checkouts and invoices, reconcile a checkout: owner or admin, key or signed in (outside the matrix)
	ActManageAPIKeys        Action = "manage_api_keys"        // List and revoke API keys: signed-in (outside the matrix)
	ActRecordOutcome        Action = "record_outcome"         // Record a customer-reported outcome: any key or signed-in person, never a connection (outside the matrix)
	ActManageGiftLinks      Action = "manage_gift_links"      // Customize link messages, regift, revoke: any key or signed-in person, never a connection (outside the matrix)
	ActUploadArtwork        Action = "upload_artwork"         // Upload artwork, import a photo: any key, signed-in person or gifts:write connection; not in a demo workspace (outside the matrix)
	ActUpdatePhoto          Action = "update_photo"           // Approve, replace or reject a gift's portrait: any key or signed-in person, never a connection (outside the matrix)
	ActReadActivity         Action = "read_activity"          // Read who prepared, decided, paid and changed what: owner or admin, key or signed in (outside the matrix)
)

// minRole is the least role a person needs for a row.
type minRole int

const (
	anyRole minRole = iota
	managerRole
	ownerRole
)

// keyRule says what a workspace key may do on a row.
type keyRule int

const (
	keyAllowed keyRule = iota
	keyManagerOnly
	keyNever
)

// rule is one row of the matrix.
type rule struct {
	role minRole
	// signedIn: only a person in the browser (keys and connections never).
	signedIn bool
	key      keyRule
	// memberKey is the code a member's key gets where key is keyManagerOnly.
	memberKey Code
	// scope is the OAuth scope a connection needs; "" means connections never.
	scope Scope
	// demoLimited rows refuse every caller in a demo workspace.
	demoLimited bool
}

var matrix = map[Action]rule{
	ActRead:                 {role: anyRole, key: keyAllowed, scope: ScopeRead},
	ActEditDrafts:           {role: anyRole, key: keyAllowed, scope: ScopeWrite},
	ActAddPeople:            {role: anyRole, key: keyAllowed, scope: ScopeWrite},
	ActPauseOrComplete:      {role: anyRole, key: keyAllowed},
	ActActivate:             {role: anyRole, signedIn: true, key: keyNever},
	ActApprove:              {role: managerRole, signedIn: true, key: keyNever},
	ActRaiseAutoApprove:     {role: managerRole, signedIn: true, key: keyNever},
	ActLowerAutoApprove:     {role: anyRole, signedIn: true, key: keyNever},
	ActReadQueueAndBalance:  {role: anyRole, key: keyAllowed, scope: ScopeRead},
	ActPay:                  {role: managerRole, signedIn: true, key: keyNever},
	ActReadGiftLinks:        {role: anyRole, key: keyAllowed, scope: ScopeLinks},
	ActCreateAPIKey:         {role: anyRole, signedIn: true, key: keyNever, demoLimited: true},
	ActManageWebhooks:       {role: managerRole, signedIn: true, key: keyNever, demoLimited: true},
	ActReadWebhooks:         {role: managerRole, key: keyManagerOnly, memberKey: CodeHumanApprovalRequired},
	ActUpdateSettings:       {role: managerRole, key: keyManagerOnly, memberKey: CodeTeamManagerRequired},
	ActListTeammates:        {role: anyRole, key: keyAllowed},
	ActInviteOrRemove:       {role: managerRole, signedIn: true, key: keyNever},
	ActChangeRole:           {role: ownerRole, signedIn: true, key: keyNever},
	ActReadWorkspaceDetails: {role: anyRole, key: keyAllowed},
	ActReadInvitations:      {role: managerRole, key: keyManagerOnly, memberKey: CodeTeamManagerRequired},
	ActReadBilling:          {role: managerRole, key: keyManagerOnly, memberKey: CodeTeamManagerRequired},
	ActManageAPIKeys:        {role: anyRole, signedIn: true, key: keyNever},
	ActRecordOutcome:        {role: anyRole, key: keyAllowed},
	ActManageGiftLinks:      {role: anyRole, key: keyAllowed},
	ActUploadArtwork:        {role: anyRole, key: keyAllowed, scope: ScopeWrite, demoLimited: true},
	ActUpdatePhoto:          {role: anyRole, key: keyAllowed},
	ActReadActivity:         {role: managerRole, key: keyManagerOnly, memberKey: CodeTeamManagerRequired},
}

// Actions lists every row of the matrix in the spec's order.
func Actions() []Action {
	return []Action{ActRead, ActEditDrafts, ActAddPeople, ActPauseOrComplete, ActActivate, ActApprove,
		ActRaiseAutoApprove, ActLowerAutoApprove, ActReadQueueAndBalance, ActPay, ActReadGiftLinks,
		ActCreateAPIKey, ActManageWebhooks, ActReadWebhooks, ActUpdateSettings, ActListTeammates,
		ActInviteOrRemove, ActChangeRole, ActReadWorkspaceDetails, ActReadInvitations, ActReadBilling, ActManageAPIKeys, ActRecordOutcome,
		ActManageGiftLinks, ActUploadArtwork, ActUpdatePhoto, ActReadActivity}
}

// SignedInOnly reports whether only a signed-in person may perform a.
func (a Action) SignedInOnly() bool { return matrix[a].signedIn }

// ConnectionScope is the OAuth scope a connection needs for a, or "" when
// connections may never perform it.
func (a Action) ConnectionScope() Scope { return matrix[a].scope }

// Authorize decides whether p may perform a, from the spec's role matrix. It
// returns nil or an *Error: AUTH_REQUIRED (no principal), DEMO_LIMITED (a key
// in a demo workspace, or a demo-limited row), HUMAN_APPROVAL_REQUIRED (a key
// or connection doing what only a signed-in person may), INSUFFICIENT_SCOPE (a
// connection without the row's scope) or TEAM_MANAGER_REQUIRED (a role below
// the row's). url is the page a person can open to do it themselves; it is
// attached to HUMAN_APPROVAL_REQUIRED.
func Authorize(p Principal, a Action, url string) error {
	r, ok := matrix[a]
	if !ok {
		return Internal(errUnknownAction(a))
	}
	if p.Anonymous() {
		return &Error{Code: CodeAuthRequired, Message: "a workspace key, a sign-in connection or a signed-in session is required", URL: url}
	}
	if p.IsDemo && (p.Via == ViaKey || r.demoLimited) {
		return Errorf(CodeDemoLimited, "a demo workspace cannot use %s", demoWhat(p, r))
	}
	human := &Error{Code: CodeHumanApprovalRequired, Message: "only a signed-in person can do this; hand the url to a person", URL: url}
	switch p.Via {
	case ViaConnection:
		if r.signedIn || r.scope == "" {
			return human
		}
		if !p.HasScope(r.scope) {
			return Errorf(CodeInsufficientScope, "this connection lacks the %s scope", r.scope)
		}
		return nil
	case ViaKey:
		switch r.key {
		case keyNever:
			return human
		case keyManagerOnly:
			if !p.Role.Manager() {
				if r.memberKey == CodeHumanApprovalRequired {
					return human
				}
				return Errorf(r.memberKey, "only an owner's or admin's key can do this")
			}
			return nil
		}
		return roleCheck(p.Role, r.role)
	case ViaSession:
		return roleCheck(p.Role, r.role)
	}
	return &Error{Code: CodeAuthRequired, Message: "unknown credential", URL: url}
}

func roleCheck(have Role, need minRole) error {
	switch need {
	case managerRole:
		if !have.Manager() {
			return Errorf(CodeTeamManagerRequired, "only an owner or admin can do this")
		}
	case ownerRole:
		if have != RoleOwner {
			return Errorf(CodeTeamManagerRequired, "only the workspace owner can do this")
		}
	}
	return nil
}

func demoWhat(p Principal, r rule) string {
	if p.Via == ViaKey {
		return "API keys"
	}
	return "this feature"
}

type errUnknownAction Action

func (e errUnknownAction) Error() string { return "unknown action " + string(e) }

// AuthorizeRESTRoute decides whether p may use a REST route at all, before
// the route's tool runs and before Authorize decides its action. A sign-in
// connection works on MCP and only on the REST routes that accept
// connections, the gift-link distribution routes (Authentication §3);
// acceptsConnections is that route's metadata. Anywhere else a connection
// gets AUTH_REQUIRED (pointing at the sign-in page); keys and sessions pass.
func (c Config) AuthorizeRESTRoute(p Principal, acceptsConnections bool) error {
	if p.Via == ViaConnection && !acceptsConnections {
		return c.AuthRequired("sign-in connections work on MCP and the gift-link distribution routes only; use a workspace key here")
	}
	return nil
}
