package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/internal/apptest"
	"github.com/giftwell/giftwell/tools"
)

// obj is a JSON object in tests.
type obj = map[string]any

// campaigns drives the campaign and recipient tools through the registry
// (schema validation, strict decoding, authorization, core) as a face does.
type campaigns struct {
	t   *testing.T
	env *apptest.Env
	// key is the owner's API key, session the owner signed in, conn a
	// sign-in connection of the owner with every scope.
	key, session, conn core.Principal
	byName             map[string]tools.Tool
}

func newCampaigns(t *testing.T) *campaigns {
	t.Helper()
	env := apptest.New(t)
	key, err := env.App.Connect.Authenticate(context.Background(), env.OwnerKey)
	require.NoError(t, err)
	session := key
	session.Via, session.CredentialID = core.ViaSession, ""
	conn := key
	conn.Via, conn.Scopes, conn.CredentialID = core.ViaConnection, core.AllScopes, ""
	return &campaigns{t: t, env: env, key: key, session: session, conn: conn, byName: tools.ByName(tools.All(env.App))}
}

// member returns a principal for a new member's key and the member signed in.
func (c *campaigns) member() (key, session core.Principal) {
	c.t.Helper()
	_, k := c.env.AddMember(c.t, core.RoleMember)
	key, err := c.env.App.Connect.Authenticate(context.Background(), k)
	require.NoError(c.t, err)
	session = key
	session.Via = core.ViaSession
	return key, session
}

// call runs tool name as p with args (a JSON string or a value) and returns
// its result as JSON.
func (c *campaigns) call(p core.Principal, name string, args any) (any, error) {
	c.t.Helper()
	tool, ok := c.byName[name]
	require.True(c.t, ok, name)
	raw, isString := args.(string)
	if !isString {
		b, err := json.Marshal(args)
		require.NoError(c.t, err)
		raw = string(b)
	}
	out, err := tool.Call(context.Background(), p, json.RawMessage(raw))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	require.NoError(c.t, err)
	var v any
	require.NoError(c.t, json.Unmarshal(b, &v))
	return v, nil
}

// ok calls and requires success, returning the result as an object.
func (c *campaigns) ok(p core.Principal, name string, args any) obj {
	c.t.Helper()
	v, err := c.call(p, name, args)
	require.NoError(c.t, err, "%s %v", name, args)
	m, _ := v.(obj)
	return m
}

// fails calls and requires the error code, with field named in Fields and
// in the message.
func (c *campaigns) fails(p core.Principal, name string, args any, code core.Code, field string) *core.Error {
	c.t.Helper()
	_, err := c.call(p, name, args)
	require.Error(c.t, err, "%s %v", name, args)
	e := core.AsError(err)
	require.Equal(c.t, code, e.Code, "%s %v: %s", name, args, e.Message)
	if field != "" {
		require.Contains(c.t, e.Fields, field, "%s: %s", name, e.Message)
		require.True(c.t, strings.Contains(e.Message, field+": "), "message %q does not name %s", e.Message, field)
	}
	return e
}

// get reads a campaign as the owner's key.
func (c *campaigns) get(id string) obj {
	c.t.Helper()
	return c.ok(c.key, "get_campaign", obj{"id": id})
}

// unchanged requires that campaign id still has version and people.
func (c *campaigns) unchanged(id string, version float64, people int) {
	c.t.Helper()
	got := c.get(id)
	require.EqualValues(c.t, version, got["policyVersion"], "a refused write changed the version")
	require.EqualValues(c.t, people, got["recipientCount"], "a refused write changed the roster")
	require.EqualValues(c.t, people, got["rosterCounts"].(obj)["total"], "a refused write changed the roster")
	if people > 0 {
		require.Len(c.t, got["recipients"], min(people, campaign.DefaultRosterLimit))
	}
}

// playbook creates a draft playbook of gift product with extra fields.
func (c *campaigns) playbook(product string, extra obj) obj {
	c.t.Helper()
	args := obj{"name": "Closed-won thanks", "mode": "always_on", "productId": product, "senderName": "Sam Seller", "senderCompany": "Acme"}
	for k, v := range extra {
		if v == nil {
			delete(args, k)
		} else {
			args[k] = v
		}
	}
	return c.ok(c.key, "create_campaign", args)
}

// batch creates a draft batch of gift product with limits and extra fields.
func (c *campaigns) batch(product string, extra obj) obj {
	c.t.Helper()
	args := obj{"name": "Q3 customers", "mode": "batch", "productId": product, "senderName": "Sam Seller", "senderCompany": "Acme",
		"budgetCents": 1_000_000, "perPersonCents": 20_000, "maxSends": 50}
	for k, v := range extra {
		if v == nil {
			delete(args, k)
		} else {
			args[k] = v
		}
	}
	return c.ok(c.key, "create_campaign", args)
}

// version is a campaign's policyVersion.
func version(c obj) float64 { return c["policyVersion"].(float64) }

// people is a campaign's roster.
func people(c obj) []obj {
	var out []obj
	for _, r := range c["recipients"].([]any) {
		out = append(out, r.(obj))
	}
	return out
}

// person is a minimal new person with a stable identity.
func person(n string) obj {
	return obj{"name": "Person " + n, "company": "Co " + n, "sourceSystem": "crm", "externalId": "ext-" + n, "email": "p" + n + "@example.com"}
}
