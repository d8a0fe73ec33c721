# ragjudge: `make run` serves the page on 127.0.0.1:8080, `make test` runs every test.
SHELL      := /bin/bash
GO         ?= go
GOROOT     := $(shell $(GO) env GOROOT)
PYTHON     ?= /usr/bin/python3
WASM       := web/ragjudge.wasm
WASM_EXEC  := web/wasm_exec.js
# Where wasm_exec.js lives moved from misc/wasm to lib/wasm in Go 1.24.
WASM_DIR   := $(firstword $(wildcard $(GOROOT)/lib/wasm) $(wildcard $(GOROOT)/misc/wasm))
FUZZTIME   ?= 3s
ADDR       ?= 127.0.0.1:8080
UPSTREAM   ?= https://api.openai.com/v1

.PHONY: all build run test deps check-deps vet test-go test-wasm test-js test-size test-fuzz \
        test-e2e bench size fuzz clean

all: build

build: check-deps $(WASM) $(WASM_EXEC)

# -gcflags=all=-l turns off inlining: Go's wasm code grows a lot with it (measured 1.56 MB gzip
# with inlining, 1.36 MB without) and the core's speed does not depend on it.
$(WASM): FORCE
	GOOS=js GOARCH=wasm $(GO) build -trimpath -gcflags=all=-l -ldflags="-s -w" -o $@ ./wasm

$(WASM_EXEC): $(WASM_DIR)/wasm_exec.js
	cp $< $@

FORCE:

# check-deps keeps HTTP, go-openai and the dev server's WebSocket library out of the wasm (they
# triple its size; DESIGN.md, Layout), encoding/json too (168 KB gzip of a 1.25 MB budget;
# core/value has the JSON the wasm needs), and syscall/js and net/http out of core/.
check-deps:
	@bad=$$(GOOS=js GOARCH=wasm $(GO) list -deps ./wasm | grep -E '^(net/http|encoding/json|github.com/sashabaranov/go-openai|github.com/coder/websocket)' || true); \
	if [ -n "$$bad" ]; then echo "check-deps: the wasm links $$bad" >&2; exit 1; fi
	@bad=$$($(GO) list -deps ./core/... | grep -E '^(syscall/js|net/http|net|os/exec)$$' || true); \
	if [ -n "$$bad" ]; then echo "check-deps: core/ imports $$bad" >&2; exit 1; fi

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
	node bench/batch.mjs
	@for f in bench/*.sh; do [ -e "$$f" ] && bash "$$f"; done; true

size: build
	@bash scripts/size.sh

fuzz:
	@bash scripts/fuzz.sh 60s

clean:
	rm -f $(WASM) $(WASM_EXEC)
