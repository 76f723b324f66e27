package core

// The pages and endpoints of the site, as URLs handed to people and agents.

// BaseURL is {site_url}/api/v1.
func (c Config) BaseURL() string { return c.SiteURL + "/api/v1" }

// MCPURL is {site_url}/mcp.
func (c Config) MCPURL() string { return c.SiteURL + "/mcp" }

// ChatGPTMCPURL is {site_url}/chatgpt/mcp.
func (c Config) ChatGPTMCPURL() string { return c.SiteURL + "/chatgpt/mcp" }

// SignInURL is where a person signs in (and creates a new key): {site_url}/login.
func (c Config) SignInURL() string { return c.SiteURL + "/login" }

// AuthRequired is AUTH_REQUIRED with message, pointing a person at the
// sign-in page. Every face refuses missing or bad credentials with it.
func (c Config) AuthRequired(message string) *Error {
	return &Error{Code: CodeAuthRequired, Message: message, URL: c.SignInURL()}
}

// BalanceURL is the balance page, where an owner or admin tops up: the url of
// INSUFFICIENT_BALANCE and the topUpUrl of get_balance.
func (c Config) BalanceURL() string { return c.SiteURL + "/balance" }

// ReviewURL is the page where a signed-in person reviews campaign id and
// decides: {site_url}/campaigns/<id>?review=1.
func (c Config) ReviewURL(id string) string { return c.SiteURL + "/campaigns/" + id + "?review=1" }

// CampaignURL is the campaign's page: {site_url}/campaigns/<id>.
func (c Config) CampaignURL(id string) string { return c.SiteURL + "/campaigns/" + id }

// InviteURL is the link that accepts an invitation.
func (c Config) InviteURL(token string) string { return c.SiteURL + "/invite/" + token }

// KeysURL is the page where a signed-in person creates and revokes keys.
func (c Config) KeysURL() string { return c.SiteURL + "/settings/keys" }

// QueueURL is the queue page of a playbook ({site_url}/?queue=<campaign_id>),
// every add's approvalUrl.
func (c Config) QueueURL(campaignID string) string { return c.SiteURL + "/?queue=" + campaignID }

// SettingsURL is the workspace settings page.
func (c Config) SettingsURL() string { return c.SiteURL + "/settings" }

// TeamURL is the team page, where a signed-in owner or admin manages people.
func (c Config) TeamURL() string { return c.SiteURL + "/team" }

// AuthRequired is AUTH_REQUIRED pointing a person at the sign-in page, where
// they can create a new key.
func (a *Kernel) AuthRequired(message string) *Error { return a.Config.AuthRequired(message) }

// OAuthResources are the resource indicators a grant can be bound to:
// {mcp_url} and {chatgpt_mcp_url}.
func (c Config) OAuthResources() []string { return []string{c.MCPURL(), c.ChatGPTMCPURL()} }

// WebhooksURL is the page where a signed-in owner or admin adds, removes
// and inspects webhooks: {site_url}/settings/webhooks.
func (c Config) WebhooksURL() string { return c.SiteURL + "/settings/webhooks" }

// ActivityURL is the Activity page: who prepared, decided, paid and changed what.
func (c Config) ActivityURL() string { return c.SiteURL + "/activity" }
