# Giftwell's one entry point for building, running and checking.
# `make run` and `make test` are all a new machine needs (see README.md).

GO       ?= go
BIN      := bin/giftwell
FUZZTIME ?= 10s
# Fuzz targets as package:FuzzName; each runs for FUZZTIME in `make fuzz`.
FUZZ_TARGETS := ./core/identity:FuzzIsAPIKeyFormat ./tools:FuzzDecodeArgs ./rest:FuzzMerge ./rest:FuzzHandler ./mcp:FuzzHandler ./mcp:FuzzDecodeMessages ./mcp:FuzzFastCall ./core/campaign:FuzzRecipientDecoder ./core/campaign:FuzzCampaignDecoder ./core/campaign:FuzzNormalizeLinkedInProfile ./core/connect:FuzzRedirectURIMatches ./tools:FuzzCreateCampaignArgs ./tools:FuzzAddRecipientsArgs ./tools:FuzzGiftLinkRecordsArgs ./internal/webhooksend:FuzzCheckURL ./webhookverify:FuzzVerify ./oauth:FuzzRegister ./oauth:FuzzTokenForm ./web:FuzzWebForm ./core/distribution:FuzzReadSourceCSV ./core/distribution:FuzzChunkAssembler ./core/artwork:FuzzInspect

# The browser tests drive Debian's chromium headless (web/browser_test.go).
CHROMIUM := /usr/bin/chromium

.PHONY: run build deps tsdeps test generate verify bench fuzz

run: build
	$(BIN) serve

# build makes the release binary: paths trimmed (-trimpath, so the binary
# names no directory of the machine that built it) and stripped of its
# symbol table and DWARF (-s -w); panics still print their stack traces.
# TAGS=gcs adds GCS's own API for gs:// artwork stores (its SDK doubles
# the binary's resident memory; s3:// reaches GCS without it).
TAGS ?=
build:
	$(GO) build -trimpath -tags '$(TAGS)' -ldflags='-s -w' -o $(BIN) ./cmd/giftwell

# deps installs what the tests need beyond Go and PostgreSQL: Debian's
# chromium, only when it is missing, as root with apt-get (without root it
# only warns: the browser tests then skip on a workstation and fail in CI),
# and stripe-mock for the Stripe tests, with go install, when it is missing
# (internal/stripemock finds it on PATH or in Go's bin directory).
STRIPE_MOCK := github.com/stripe/stripe-mock@v0.203.0
deps:
	@if ! command -v stripe-mock >/dev/null 2>&1 && [ ! -x "$$($(GO) env GOPATH)/bin/stripe-mock" ] && [ ! -x "$$($(GO) env GOBIN)/stripe-mock" ]; then \
		echo "stripe-mock not found; installing $(STRIPE_MOCK)"; \
		$(GO) install $(STRIPE_MOCK); \
	fi
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "$(CHROMIUM) not found; installing Debian's chromium package"; \
			export DEBIAN_FRONTEND=noninteractive; \
			apt-get update && apt-get install -y --no-install-recommends chromium; \
		else \
			echo "warning: $(CHROMIUM) not found and not root; run 'sudo make deps' (browser tests skip outside CI)" >&2; \
		fi; \
	fi

# tsdeps installs the pinned TypeScript MCP SDK for the compatibility test
# (cmd/giftwell/tsclient_test.go) with npm ci, when node_modules is missing
# or older than the lockfile. Without npm, or offline, it only warns: the
# test then skips on a workstation and fails in CI.
# It installs the same way the pinned openapi-typescript and TypeScript that
# type-check a client generated from the OpenAPI document
# (rest/tsopenapi_test.go).
TSDIRS := internal/tsclient internal/tsopenapi
tsdeps:
	@if command -v npm >/dev/null 2>&1; then \
		for d in $(TSDIRS); do \
			if [ ! -f $$d/node_modules/.package-lock.json ] || [ $$d/package-lock.json -nt $$d/node_modules/.package-lock.json ]; then \
				npm ci --prefix $$d --no-audit --no-fund || \
					echo "warning: npm ci failed in $$d (offline?); its TypeScript test skips outside CI" >&2; \
			fi; \
		done; \
	else \
		echo "warning: npm not found; the TypeScript tests skip outside CI" >&2; \
	fi

# test starts one throwaway PostgreSQL for the whole run (testpg) and hands
# it to every test binary through TEST_DATABASE_URL.
test: deps tsdeps
	$(GO) vet ./...
	$(GO) build -o bin/testpg ./internal/testdb/testpg
	bin/testpg -- $(GO) test -race -count=1 ./...

generate:
	$(GO) tool sqlc generate
	$(GO) generate ./...
	$(GO) test ./tools ./rest -count=1 -run '^(TestToolSnapshots|TestToolDocs|TestOpenAPIDocs)$$' -update

# verify fails when `make generate` changes anything (stale generated code)
# or when a Go file is not gofmt-formatted.
verify:
	@.ci/verify

# bench prints the benchmark suite's figures (docs/performance.md): the
# server's read and add paths over MCP and REST and the webhook fan-out,
# each beside a bare go-sdk server's SELECT 1 on the same database
# (x-bare is the ratio). Figures are never asserted.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$pkg $$name ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 3s $$pkg; \
	done
