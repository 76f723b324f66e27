// Package apptest builds a core.App on a fresh test database with one
// workspace, its owner and the owner's key: the starting point for tests of
// core and of the faces.
//
//	func TestSomething(t *testing.T) {
//		t.Parallel()
//		env := apptest.New(t)
//		p, err := env.App.Authenticate(ctx, env.OwnerKey)
//		...
//	}
package apptest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/internal/faultproxy"
	"github.com/giftwell/giftwell/internal/payments"
	"github.com/giftwell/giftwell/internal/testdb"
)

// Epoch is the time every test's FakeClock starts at.
var Epoch = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// Password is the password of every person apptest creates.
const Password = "correct horse battery staple"

// Env is an App with one ready workspace.
type Env struct {
	App   *giftwell.App
	Clock *core.FakeClock
	// WorkspaceID is the workspace's ID; OwnerID, OwnerEmail and OwnerKey
	// are its owner's.
	WorkspaceID string
	OwnerID     string
	OwnerEmail  string
	OwnerKey    string
	// SiteURL is the App's configured site URL.
	SiteURL string
	// Faults is the proxy between the App and its database, with WithFaults; nil otherwise.
	Faults *faultproxy.Proxy
	// webhookPrefixes are the URL prefixes AllowWebhookURLs allowed.
	webhookPrefixes []string
}

// Option changes how New builds the Env.
type Option func(*options)

type options struct {
	siteURL   string
	demo      bool
	faults    bool
	rateLimit int
}

// TestRateLimitPerMinute is the requests limit of an Env's App unless the
// test asks for another (WithRateLimit): high enough that no test that
// makes many requests in one workspace meets it.
const TestRateLimitPerMinute = 1 << 20

// WithRateLimit sets the App's requests limit per workspace per minute; 0
// is the spec's 240 (core.RequestsPerWorkspacePerMinute).
func WithRateLimit(n int) Option {
	return func(o *options) {
		o.rateLimit = n
		if n == 0 {
			o.rateLimit = core.RequestsPerWorkspacePerMinute
		}
	}
}

// WithSiteURL sets the App's site URL (default "http://127.0.0.1:0"), for
// tests that serve the faces on a real listener.
func WithSiteURL(u string) Option { return func(o *options) { o.siteURL = u } }

// WithFaults routes the App's database connections through a
// faultproxy.Proxy (Env.Faults), so that a test can drop, refuse and delay
// them: what callers see when the database goes away and comes back.
func WithFaults() Option { return func(o *options) { o.faults = true } }

// Demo makes the Env's workspace a demo (preview-only) workspace.
func Demo() Option { return func(o *options) { o.demo = true } }

// New returns an Env on its own database: an App with a FakeClock at Epoch
// (which also counts rate-limit windows; the requests limit is
// TestRateLimitPerMinute unless WithRateLimit says otherwise),
// an insert-only River client as its job inserter (work the jobs with
// WorkJobs), the sandbox payment processor, the real SSRF-guarded webhook
// client (AllowWebhookURLs lets it reach a test's loopback receivers), the
// real fetcher of OAuth client ID metadata documents
// (AllowClientMetadataServer lets it reach a test's document server),
// a directory blob store of the test's own, the real photo fetcher
// (AllowPhotoServer lets it reach a test's image server), and a workspace
// with an owner and the owner's key.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	o := options{siteURL: "http://127.0.0.1:0", rateLimit: TestRateLimitPerMinute}
	for _, opt := range opts {
		opt(&o)
	}
	identity.UseFastPasswordHashing()
	clock := core.NewFakeClock(Epoch)
	var (
		pool   *pgxpool.Pool
		faults *faultproxy.Proxy
	)
	if o.faults {
		pool, faults = faultyPool(t)
	} else {
		pool = testdb.New(t)
	}
	app := giftwell.New(pool, core.Config{SiteURL: o.siteURL, RateLimitPerMinute: o.rateLimit}, clock, nil)
	app.RateClock = clock
	t.Cleanup(app.Catalog.Close) // before the pool closes: a listening catalog holds a connection
	app.Jobs = NewJobs(t, app.DB)
	app.Ledger.Payments = payments.SandboxProcessor{SiteURL: app.Config.SiteURL}
	ws := NewWorkspace(t, app, WorkspaceOptions{Demo: o.demo})
	env := &Env{
		App: app, Clock: clock, SiteURL: app.Config.SiteURL,
		WorkspaceID: ws.WorkspaceID, OwnerID: ws.OwnerID, OwnerEmail: ws.OwnerEmail, OwnerKey: ws.OwnerKey,
		Faults: faults,
	}
	setWebhookClient(t, env, nil)
	setClientMetadata(t, env, nil, nil)
	setBlobStore(t, env)
	setPhotoFetcher(t, env, nil, nil)
	return env
}

// AddMember adds a new person with role to the Env's workspace and returns
// their user ID and a key acting as them.
func (e *Env) AddMember(t testing.TB, role core.Role) (userID, key string) {
	t.Helper()
	m, err := e.App.Identity.AddMember(context.Background(), identity.AddMemberParams{
		WorkspaceID: e.WorkspaceID, Email: UniqueEmail(string(role)), Password: Password, Role: role, WithKey: true,
	})
	if err != nil {
		t.Fatalf("apptest: add %s: %v", role, err)
	}
	return m.UserID, m.APIKey
}

// WorkspaceOptions shapes NewWorkspace; the zero value is a test-mode
// workspace with a generated name and owner.
type WorkspaceOptions struct {
	// Name defaults to "Workspace <n>".
	Name string
	// OwnerEmail defaults to a unique address.
	OwnerEmail string
	// Demo makes a demo (preview-only) workspace.
	Demo bool
}

// Workspace is a workspace made by NewWorkspace.
type Workspace struct {
	WorkspaceID string
	OwnerID     string
	OwnerEmail  string
	OwnerKey    string
}

// NewWorkspace creates another workspace with an owner and the owner's key
// in app's database: for tenant-boundary tests and demo workspaces.
func NewWorkspace(t testing.TB, app *giftwell.App, o WorkspaceOptions) Workspace {
	t.Helper()
	if o.OwnerEmail == "" {
		o.OwnerEmail = UniqueEmail("owner")
	}
	if o.Name == "" {
		o.Name = "Workspace " + core.RandomHex(3)
	}
	identity.UseFastPasswordHashing()
	ws, err := app.Identity.CreateWorkspace(context.Background(), identity.CreateWorkspaceParams{
		Name: o.Name, OwnerEmail: o.OwnerEmail, OwnerPassword: Password, Demo: o.Demo, WithKey: true,
	})
	if err != nil {
		t.Fatalf("apptest: create workspace: %v", err)
	}
	return Workspace{WorkspaceID: ws.WorkspaceID, OwnerID: ws.UserID, OwnerEmail: core.NormalizeEmail(o.OwnerEmail), OwnerKey: ws.APIKey}
}

// UniqueEmail returns a fresh address at example.com starting with who.
func UniqueEmail(who string) string {
	return fmt.Sprintf("%s-%s@example.com", who, core.RandomHex(4))
}

// Person is someone AddPerson added to the Env's workspace.
type Person struct {
	UserID string
	Email  string
	Role   core.Role
	// Key is an API key acting as the person.
	Key string
}

// AddPerson adds a new person with role (admin or member) to the Env's
// workspace, with a key acting as them; they sign in with Password.
func (e *Env) AddPerson(t testing.TB, role core.Role) Person {
	t.Helper()
	email := UniqueEmail(string(role))
	m, err := e.App.Identity.AddMember(context.Background(), identity.AddMemberParams{
		WorkspaceID: e.WorkspaceID, Email: email, Password: Password, Role: role, WithKey: true,
	})
	if err != nil {
		t.Fatalf("apptest: add %s: %v", role, err)
	}
	return Person{UserID: m.UserID, Email: email, Role: role, Key: m.APIKey}
}

// SignIn signs the person with email in (with Password) and returns the
// session token and the principal it authenticates as.
func (e *Env) SignIn(t testing.TB, email string) (string, core.Principal) {
	t.Helper()
	ctx := context.Background()
	s, err := e.App.Identity.SignIn(ctx, identity.SignInParams{Email: email, Password: Password, ClientIP: "192.0.2.1"})
	if err != nil {
		t.Fatalf("apptest: sign in %s: %v", email, err)
	}
	p, err := e.App.Identity.AuthenticateSession(ctx, s.Token)
	if err != nil {
		t.Fatalf("apptest: authenticate session of %s: %v", email, err)
	}
	return s.Token, p
}

// faultyPool is a pool on a new test database whose connections pass
// through a fault proxy. The pool closes before the proxy, and both before
// the database is dropped.
func faultyPool(t testing.TB) (*pgxpool.Pool, *faultproxy.Proxy) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(testdb.NewDSN(t))
	if err != nil {
		t.Fatalf("apptest: parse the test database's DSN: %v", err)
	}
	proxy, err := faultproxy.Route(&cfg.ConnConfig.Config)
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	t.Cleanup(proxy.Close)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("apptest: connect through the fault proxy: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool, proxy
}
