package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/giftwell/giftwell"
	"github.com/giftwell/giftwell/internal/clientmeta"
	"github.com/giftwell/giftwell/internal/webhooksend"
)

// serveWebhookFlags adds the webhook settings for development and tests:
// URL prefixes delivered to despite the public-address rule, and the unit
// of the retry schedule.
func serveWebhookFlags(fs *flag.FlagSet, cfg *serveConfig) {
	fs.StringVar(&cfg.webhookAllowURLs, "webhook-allow-urls", env("GIFTWELL_WEBHOOK_ALLOW_URLS", ""),
		"comma-separated URL prefixes (like http://127.0.0.1:9999/) webhooks may register and dial, and OAuth client metadata documents and recipient photos may be fetched from, despite the public-address rule; for development and tests only (env GIFTWELL_WEBHOOK_ALLOW_URLS)")
	fs.StringVar(&cfg.webhookBackoffUnit, "webhook-backoff-unit", env("GIFTWELL_WEBHOOK_BACKOFF_UNIT", "1m"),
		"the unit of the webhook retry schedule: attempts wait 1, 2, 4 ... 64 units apart (env GIFTWELL_WEBHOOK_BACKOFF_UNIT)")
}

// configureWebhooks gives app's webhooks the SSRF-guarded client (sender
// and registration guard) and the retry unit, gives OAuth the fetcher of
// client ID metadata documents (the same guard and prefixes), and logs the allowed
// prefixes, which lift a security rule, when there are any.
func (cfg serveConfig) configureWebhooks(app *giftwell.App, log *slog.Logger) error {
	unit, err := time.ParseDuration(cfg.webhookBackoffUnit)
	if err != nil || unit <= 0 {
		return fmt.Errorf("--webhook-backoff-unit %q: must be a positive duration like 1m or 1s", cfg.webhookBackoffUnit)
	}
	prefixes := cfg.webhookPrefixes()
	client, err := webhooksend.New(webhooksend.Options{AllowPrefixes: prefixes})
	if err != nil {
		return fmt.Errorf("--webhook-allow-urls: %w", err)
	}
	app.Webhooks.Sender, app.Webhooks.Guard, app.Webhooks.BackoffUnit = client, client, unit
	// OAuth client ID metadata documents are fetched under the same rule
	// and the same allowed prefixes.
	if app.Connect.ClientMetadata, err = clientmeta.New(clientmeta.Options{AllowPrefixes: prefixes}); err != nil {
		return fmt.Errorf("--webhook-allow-urls: %w", err)
	}
	if len(prefixes) > 0 {
		log.Warn("webhooks may reach these URL prefixes despite the public-address rule", "prefixes", prefixes)
	}
	if unit != time.Minute {
		log.Info("webhook retry unit", "unit", unit.String())
	}
	return nil
}

// webhookPrefixes are --webhook-allow-urls' prefixes.
func (cfg serveConfig) webhookPrefixes() []string {
	var prefixes []string
	for p := range strings.SplitSeq(cfg.webhookAllowURLs, ",") {
		if p = strings.TrimSpace(p); p != "" {
			prefixes = append(prefixes, p)
		}
	}
	return prefixes
}
