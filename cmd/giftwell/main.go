// Command giftwell runs the Giftwell gifting service and its operator tasks.
//
//	giftwell serve [--addr HOST:PORT] [--site-url URL] [--data-dir DIR] [--metrics-addr HOST:PORT] [--trust-forwarded-for] [--test-fulfilment on|off] [--secret-key-file FILE] [--webhook-allow-urls PREFIXES] [--webhook-backoff-unit DURATION] [--blob-url URL]
//	giftwell migrate
//	giftwell workspace create --name NAME --owner-email EMAIL --owner-password PASSWORD [--api-key] [--demo]
//	giftwell workspace add-member --workspace ID --email EMAIL --password PASSWORD --role admin|member [--api-key]
//	giftwell catalog import [--images DIR] FILE
//	giftwell staff enable-live --workspace ID
//	giftwell staff refund --send ID --decision approve|reject
//	giftwell staff gift --send ID (--status STATUS [--carrier NAME --tracking-number N --tracking-url URL] [--reason TEXT] | --final-price CENTS)
//
// Every command uses DATABASE_URL when it is set, and otherwise a private
// PostgreSQL cluster under GIFTWELL_DATA_DIR (default ./.giftwell).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/giftwell/giftwell/core"
)

const usage = `usage:
  giftwell serve [--addr HOST:PORT] [--site-url URL] [--data-dir DIR] [--metrics-addr HOST:PORT] [--trust-forwarded-for] [--test-fulfilment on|off] [--secret-key-file FILE] [--webhook-allow-urls PREFIXES] [--webhook-backoff-unit DURATION] [--blob-url URL]
  giftwell migrate
  giftwell workspace create --name NAME --owner-email EMAIL --owner-password PASSWORD [--api-key] [--demo]
  giftwell workspace add-member --workspace ID --email EMAIL --password PASSWORD --role admin|member [--api-key]
  giftwell catalog import [--images DIR] FILE
  giftwell staff enable-live --workspace ID
  giftwell staff refund --send ID --decision approve|reject
  giftwell staff gift --send ID (--status STATUS [--carrier NAME --tracking-number N --tracking-url URL] [--reason TEXT] | --final-price CENTS)

Environment: DATABASE_URL (else a private cluster under GIFTWELL_DATA_DIR, default ./.giftwell),
GIFTWELL_ADDR, GIFTWELL_SITE_URL, GIFTWELL_METRICS_ADDR, GIFTWELL_TRUST_FORWARDED_FOR,
GIFTWELL_TEST_FULFILMENT, GIFTWELL_SECRET_KEY_FILE, GIFTWELL_WEBHOOK_ALLOW_URLS, GIFTWELL_WEBHOOK_BACKOFF_UNIT, GIFTWELL_BLOB_URL.
`

// command is one subcommand: it parses its own flags from args.
type command func(ctx context.Context, args []string, stdout io.Writer) error

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	commands := map[string]command{
		"serve":                serve,
		"migrate":              migrate,
		"workspace create":     workspaceCreate,
		"workspace add-member": workspaceAddMember,
		"catalog import":       catalogImport,
		"staff enable-live":    staffEnableLive,
		"staff gift":           staffGift,
		"staff refund":         staffRefund,
	}
	var cmd command
	var rest []string
	for n := 2; n >= 1 && cmd == nil; n-- {
		if len(args) >= n {
			cmd, rest = commands[strings.Join(args[:n], " ")], args[n:]
		}
	}
	if cmd == nil {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err := cmd(ctx, rest, stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 2
		}
		fmt.Fprintln(stderr, "giftwell:", oneLine(err))
		return 1
	}
	return 0
}

// oneLine renders an error on one line; a *core.Error shows its code, and
// its cause only when it is internal or an outage (operators need it).
func oneLine(err error) string {
	var e *core.Error
	msg := err.Error()
	if errors.As(err, &e) {
		msg = e.Code.Wire() + ": " + e.Message
		if len(e.Fields) == 1 {
			if f, ok := flagNames[e.Fields[0]]; ok {
				msg = e.Code.Wire() + ": " + f + strings.TrimPrefix(e.Message, e.Fields[0])
			}
		}
		if (e.Code == core.CodeInternal || core.Unavailable(e)) && e.Cause != nil {
			msg += ": " + e.Cause.Error()
		}
	}
	return strings.Join(strings.Fields(msg), " ")
}

// flagNames maps core's field names to the flags that set them, so that an
// error names what the operator typed.
var flagNames = map[string]string{
	"name":          "--name",
	"ownerEmail":    "--owner-email",
	"ownerPassword": "--owner-password",
	"email":         "--email",
	"password":      "--password",
	"role":          "--role",
	"workspace":     "--workspace",
}

// newFlags is a flag set that reports errors instead of exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("giftwell "+name, flag.ContinueOnError)
	return fs
}

// env returns the environment variable or def when it is unset or empty.
func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
