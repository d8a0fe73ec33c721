# ragjudge: `make run` serves the page on 127.0.0.1:8080, `make test` runs every test.
SHELL      := /bin/bash
GO         ?= go
GOROOT     := $(shell $(GO) env GOROOT)
PYTHON     ?= /usr/bin/python3
WASM       := web/ragjudge.wasm
WASM_EXEC  := web/wasm_exec.js
EVALUATORS := web/evaluators.json
# Where wasm_exec.js lives moved from misc/wasm to lib/wasm in Go 1.24.
WASM_DIR   := $(firstword $(wildcard $(GOROOT)/lib/wasm) $(wildcard $(GOROOT)/misc/wasm))
FUZZTIME   ?= 3s
ADDR       ?= 127.0.0.1:8080
UPSTREAM   ?= https://api.openai.com/v1

.PHONY: all build run test deps check-deps vet test-go test-wasm test-js test-size test-fuzz \
        test-e2e bench size fuzz clean

all: build

build: check-deps $(WASM) $(WASM_EXEC) $(EVALUATORS) $(WASM).br

# The evaluators' descriptions, what rj.evaluators() returns, as a file the page reads at once to
# draw the picker and the forms while the wasm still loads (cmd/describe asks the same bridge).
$(EVALUATORS): FORCE
	$(GO) run ./cmd/describe -o $@

# The wasm precompressed, brotli -q 11 (.br) and gzip -9 (.gz), for servers that send them as is.
# Node's zlib encodes (scripts/precompress.mjs), at build time only; an output that still matches
# the wasm is kept, so an unchanged build costs no recompression.
$(WASM).br: $(WASM)
	node scripts/precompress.mjs $(WASM)

# -gcflags=all=-l turns off inlining: Go's wasm code grows a lot with it (measured 1.56 MB gzip
# with inlining, 1.36 MB without) and the core's speed does not depend on it.
$(WASM): FORCE
	GOOS=js GOARCH=wasm $(GO) build -trimpath -gcflags=all=-l -ldflags="-s -w" -o $@ ./wasm

$(WASM_EXEC): $(WASM_DIR)/wasm_exec.js
	cp $< $@

FORCE:

# check-deps runs the one dependency guard, wasm/deps_test.go: what the wasm must not link
# (HTTP, go-openai, the WebSocket library, encoding/json, regexp, text/template) and what core/
# must not import (syscall/js, the network, processes, file I/O).
check-deps:
	@$(GO) test -count=1 -run '^(TestNoUnwantedDeps|TestCoreDeps|TestGuardWorks)$$' ./wasm/

run: build
	$(GO) run ./serve -addr $(ADDR) -upstream $(UPSTREAM)

deps:
	@bash scripts/ensure-deps.sh

test: deps check-deps vet test-go test-wasm build test-js test-size test-fuzz test-e2e
	@echo "make test: all passed"

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l core prompts wasm serve 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt needed: $$out" >&2; exit 1; fi

test-go:
	PYTHON=$(PYTHON) $(GO) test -count=1 ./...

# The core's tests again, compiled to wasm and run by Node.
test-wasm:
	PATH="$(WASM_DIR):$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 ./core/...

test-js: build
	node --test web/test/
	@if [ -d test/batch ]; then node --test test/batch/; fi
	node --test test/proxy/

test-size: build
	@bash scripts/size.sh --check

test-fuzz:
	@bash scripts/fuzz.sh $(FUZZTIME)

test-e2e: build
	@if [ -d test/e2e ]; then node --test --test-concurrency=1 test/e2e/; fi

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./core/...
	PATH="$(WASM_DIR):$$PATH" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem ./core/judge/
	node bench/api.mjs
	node bench/boundary.mjs
	node bench/batch.mjs
	@for f in bench/*.sh; do [ -e "$$f" ] && bash "$$f"; done; true

size: build
	@bash scripts/size.sh

fuzz:
	@bash scripts/fuzz.sh 60s

clean:
	rm -f $(WASM) $(WASM_EXEC)
