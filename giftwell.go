// Package giftwell wires Giftwell's subject services into one App over one
// Kernel: the value the faces (REST, MCP, the web app, OAuth) and the CLI
// hold. It holds no rule of its own.
package giftwell

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/giftwell/giftwell/core"
	"github.com/giftwell/giftwell/core/approval"
	"github.com/giftwell/giftwell/core/artwork"
	"github.com/giftwell/giftwell/core/billing"
	"github.com/giftwell/giftwell/core/campaign"
	"github.com/giftwell/giftwell/core/catalog"
	"github.com/giftwell/giftwell/core/connect"
	"github.com/giftwell/giftwell/core/distribution"
	"github.com/giftwell/giftwell/core/gift"
	"github.com/giftwell/giftwell/core/giftlink"
	"github.com/giftwell/giftwell/core/guide"
	"github.com/giftwell/giftwell/core/identity"
	"github.com/giftwell/giftwell/core/ledger"
	"github.com/giftwell/giftwell/core/notify"
	"github.com/giftwell/giftwell/core/tracking"
	"github.com/giftwell/giftwell/core/webhook"
)

// App is every subject service of Giftwell over one Kernel.
type App struct {
	*core.Kernel
	// Catalog serves the gift catalog from memory.
	Catalog *catalog.Store
	// Identity keeps people, sessions, keys, invitations, the team and settings.
	Identity *identity.Service
	// Connect resolves credentials and keeps OAuth clients and grants.
	Connect *connect.Service
	// Ledger keeps balances, the ledger and top-ups.
	Ledger *ledger.Service
	// Campaigns keeps campaigns, rosters, notes, previews and the rules
	// approvals read.
	Campaigns *campaign.Service
	// Approvals keeps the queue and its decisions: approve and skip,
	// auto-approve, playbook adds, repeats, quotes and launch.
	Approvals *approval.Service
	// Gifts keeps gifts: their records, statuses, refunds to the balance
	// and the test-mode fulfilment simulator.
	Gifts *gift.Service
	// Billing keeps card checkouts, launch, the processor's events and invoices.
	Billing *billing.Service
	// GiftLinks keeps gift links: the recipient's page, messages, regift,
	// revoke and distribution records.
	GiftLinks *giftlink.Service
	// Distribution keeps gift-link exports, staged source uploads and
	// source imports.
	Distribution *distribution.Service
	// Guide serves the workflow guide.
	Guide *guide.Service
	// Tracking follows gifts after approval: the event feed.
	Tracking *tracking.Service
	// Webhooks delivers events to the workspace's endpoints; it is the
	// Kernel's Outbox. Its Sender and Guard are set by cmd/giftwell (the
	// SSRF-guarded HTTP client).
	Webhooks *webhook.Service
	// Notify tells approvers by email: people waiting, auto-approve stopped
	// for the balance, gifts declined or expired, the daily digest; and
	// each person's choices. It hears the Kernel's events after Webhooks.
	Notify *notify.Service
	// Artwork keeps uploaded files and the portraits of gifts. Its Blobs
	// and Photos are set by cmd/giftwell (internal/blobstore,
	// internal/photofetch).
	Artwork *artwork.Service
}

// New builds the App over a migrated database and loads the catalog into
// memory, with the test-mode fulfilment simulator on. A nil clock is the
// system clock; a nil logger discards.
func New(db *pgxpool.Pool, cfg core.Config, clock core.Clock, log *slog.Logger) *App {
	k := core.NewKernel(db, cfg, clock, log)
	cat := catalog.NewStore(db).WithClock(k.Clock)
	led := &ledger.Service{Kernel: k}
	gifts := &gift.Service{Kernel: k, Catalog: cat, Ledger: led, TestFulfilment: true}
	campaigns := &campaign.Service{Kernel: k, Catalog: cat}
	approvals := &approval.Service{Kernel: k, Campaigns: campaigns, Gifts: gifts, Ledger: led}
	links := &giftlink.Service{Kernel: k, Campaigns: campaigns, Gifts: gifts, Catalog: cat}
	hooks := &webhook.Service{Kernel: k}
	people := &identity.Service{Kernel: k}
	tell := &notify.Service{Kernel: k, Identity: people, Approvals: approvals}
	k.Outbox = notify.Outboxes{hooks, tell}
	bill := &billing.Service{Kernel: k, Campaigns: campaigns, Approvals: approvals, Gifts: gifts, Ledger: led}
	// Card-paid gifts are refunded through the checkout that paid them.
	links.CardRefunder = bill
	art := &artwork.Service{Kernel: k}
	return &App{
		Kernel:       k,
		Catalog:      cat,
		Identity:     people,
		Connect:      &connect.Service{Kernel: k},
		Ledger:       led,
		Campaigns:    campaigns,
		Approvals:    approvals,
		Gifts:        gifts,
		Billing:      bill,
		GiftLinks:    links,
		Distribution: &distribution.Service{Kernel: k, Campaigns: campaigns, GiftLinks: links, Artwork: art},
		Guide:        &guide.Service{Kernel: k},
		Tracking:     &tracking.Service{Kernel: k},
		Webhooks:     hooks,
		Artwork:      art,
		Notify:       tell,
	}
}

// RequeueBackgroundWork queues the jobs of work left from before emails and
// approvals were River jobs (pending emails, scheduled playbook people
// without a job, webhook deliveries without one) and gives gifts from
// before gift links their link, one
// subject after the other; serve runs it once at start. It returns how many
// jobs and links it made.
func (a *App) RequeueBackgroundWork(ctx context.Context) (int, error) {
	emails, err := a.Identity.RequeueEmails(ctx)
	if err != nil {
		return emails, err
	}
	approvals, err := a.Approvals.RequeueScheduledApprovals(ctx)
	if err != nil {
		return emails + approvals, err
	}
	links, err := a.GiftLinks.AddMissingLinks(ctx)
	if err != nil {
		return emails + approvals + links, err
	}
	deliveries, err := a.Webhooks.RequeueDeliveries(ctx)
	return emails + approvals + links + deliveries, err
}
