# Giftwell's one entry point for building, running and checking.
# `make run` and `make test` are all a new machine needs (see README.md).

GO       ?= go
BIN      := bin/giftwell
FUZZTIME ?= 10s
# Fuzz targets as package:FuzzName; each runs for FUZZTIME in `make fuzz`.
FUZZ_TARGETS := ./core:FuzzIsAPIKeyFormat ./tools:FuzzDecodeArgs ./rest:FuzzMerge ./rest:FuzzHandler ./mcp:FuzzHandler ./mcp:FuzzDecodeMessages

.PHONY: run build test generate verify bench fuzz

run: build
	$(BIN) serve

build:
	$(GO) build -o $(BIN) ./cmd/giftwell

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

generate:
	$(GO) tool sqlc generate
	$(GO) generate ./...
	$(GO) test ./tools ./rest -count=1 -run '^(TestToolSnapshots|TestToolDocs|TestOpenAPIDocs)$$' -update

# verify fails when `make generate` changes anything (stale generated code)
# or when a Go file is not gofmt-formatted.
verify:
	@.ci/verify

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$pkg $$name ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done
