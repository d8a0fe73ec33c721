# ragjudge: `make run` serves the page on 127.0.0.1:8080, `make check` runs the fast checks (under a
# minute), `make test` runs every test (the fast checks included).
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
# UPSTREAM may name several, space-separated, the first the default:
#   make run UPSTREAM="local=http://127.0.0.1:11434/v1 openai=https://api.openai.com/v1" UPSTREAM_KEY_ENV=openai=OPENAI_API_KEY
UPSTREAM   ?= https://api.openai.com/v1
UPSTREAM_KEY_ENV ?=
# The JS unit tests of the code in web/, under Node (browser.test.mjs alone loads the JS API in
# Chromium too). They live in test/unit/, outside web/, which is served and published as it is.
JS_UNIT    := $(wildcard test/unit/*.test.mjs)
# staticcheck, pinned, run by `go run` so that go.mod does not carry it and its dependencies. The
# module cache is asked first: `go run pkg@version` looks the module up (for deprecations) even when
# the cache has it, and this keeps it working offline after the first download.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
STATICCHECK_ENV := GOPROXY=file://$(shell $(GO) env GOMODCACHE)/cache/download,$(shell $(GO) env GOPROXY)

.PHONY: all build preload dist pack run check test prereqs prereqs-check check-deps vet staticcheck typecheck \
        test-go test-wasm test-js test-proxy test-size test-fuzz test-e2e test-cli bench size size-report fuzz clean

all: build

build: check-deps $(WASM) $(WASM_EXEC) $(EVALUATORS) $(WASM).br preload

# index.html's modulepreload block lists app.js's import graph, read from the modules themselves
# (scripts/webfiles.mjs), so a module added to the first paint is asked for with the rest.
preload:
	node scripts/webfiles.mjs preload web

# dist: one folder for any static host: web/'s files (the wasm with its .br and .gz copies), the
# service worker's precache list (precache.js; serve/ computes the same on the fly) and _headers.
DIST ?= dist
dist: build
	node scripts/webfiles.mjs dist web $(DIST)

# pack: the npm package ragjudge (the JS API, the wasm, its types and the ragjudge command) as
# pkg/ragjudge-<version>.tgz, which `npm install ./pkg/ragjudge-<version>.tgz` installs anywhere.
# package.json's "files" must list exactly what the API and the command import: npm pack's
# prepack (scripts/packfiles.mjs --check; --write updates the list) stops it otherwise, and when
# something is not built; make check's unit tests (test/unit/packfiles.test.mjs) fail on a stale
# list long before, naming that command. The declarations are TypeScript's, from the API's JSDoc types.
PKG := pkg
pack: build
	rm -rf $(PKG)/types
	node_modules/.bin/tsc --ignoreConfig web/ragjudge.js types/node.d.ts --allowJs --declaration --emitDeclarationOnly \
	  --outDir $(PKG)/types --target ES2022 --module ES2022 --moduleResolution bundler --lib ES2022,DOM --skipLibCheck
	npm pack --pack-destination $(PKG)

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
# The wasm takes the prompts from prompts/inline (Go strings, generated from prompts/*.md), not
# from the embed.FS of package prompts: package embed would link io/fs and time (46 KB of brotli).
# GOEXPERIMENT=nogreenteagc builds the wasm with Go 1.25's garbage collector rather than Go 1.26's
# default "Green Tea" one: 51 KB less wasm code (10 KB of brotli), and bench/api.mjs measured no
# difference in speed (the wasm runs on one thread, where Green Tea's gains are small). Go says
# it will drop the opt-out in a later release: the build then fails on the unknown experiment,
# and this line goes.
# scripts/packdata.mjs joins the tens of thousands of data segments Go's linker writes (one after
# every run of eight zero bytes) across short zero runs: the same memory, 70 KB less brotli.
# scripts/droplines.mjs first zeroes the runtime's line tables, read only to print a stack (a
# panic's): 58 KB less brotli; scripts/stacklines.sh puts the lines back into a stack from the console.
$(WASM): FORCE
	cd prompts/inline && $(GO) generate
	GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc $(GO) build -trimpath -gcflags=all=-l -ldflags="-s -w" -o $@ ./wasm
	node scripts/droplines.mjs $@
	node scripts/packdata.mjs $@

$(WASM_EXEC): $(WASM_DIR)/wasm_exec.js
	cp $< $@

FORCE:

# check-deps runs the one dependency guard, wasm/deps_test.go: what the wasm must not link
# (HTTP, go-openai, the WebSocket library, encoding/json, regexp, text/template), what core/
# must not import (syscall/js, the network, processes, file I/O), and which ragjudge package each
# core package may import (the parts table of docs/ARCHITECTURE.md).
check-deps:
	@$(GO) test -count=1 -run '^(TestNoUnwantedDeps|TestCoreDeps|TestCoreImportsFollowTheTable|TestTableGuardWorks|TestGuardWorks)$$' ./wasm/

run: build
	$(GO) run ./serve -addr $(ADDR) $(foreach u,$(UPSTREAM),-upstream $(u)) $(foreach k,$(UPSTREAM_KEY_ENV),-upstream-key-env $(k))

# prereqs stops at once, naming the command to run, when the machine lacks what the tests need
# (python3-jinja2, chromium, Node ≥ 20, node_modules); it installs nothing: .ci/run does.
prereqs:
	@bash scripts/prereqs.sh test

prereqs-check:
	@bash scripts/prereqs.sh check

# check is the fast tier: what to run before every commit.
check: prereqs-check vet staticcheck typecheck test-go build test-js
	@echo "make check: all passed"

test: prereqs check-deps vet staticcheck typecheck test-go test-wasm build test-js test-proxy \
      test-size test-fuzz test-e2e test-cli
	@echo "make test: all passed"

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$($(GO) list -f '{{.Dir}}' ./...)); if [ -n "$$out" ]; then echo "gofmt needed: $$out" >&2; exit 1; fi

# staticcheck runs twice: natively, and for js/wasm, where wasm/main.go is compiled (-exec runs the
# native staticcheck binary with the js/wasm environment). There U1000 is off: staticcheck takes
# the //go:wasmexport functions, which JS calls, and what they use for unused.
staticcheck:
	$(STATICCHECK_ENV) $(GO) run $(STATICCHECK) ./...
	$(STATICCHECK_ENV) $(GO) run -exec 'env GOOS=js GOARCH=wasm' $(STATICCHECK) -checks inherit,-U1000 ./wasm/

# typecheck: TypeScript over the page's JavaScript and its JSDoc types (tsconfig.json).
typecheck: prereqs-check
	node_modules/.bin/tsc -p tsconfig.json

test-go:
	PYTHON=$(PYTHON) $(GO) test -count=1 ./...

# The core's tests again, compiled to wasm (with the wasm's garbage collector) and run by Node.
test-wasm:
	PATH="$(WASM_DIR):$$PATH" GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc $(GO) test -count=1 ./core/...

test-js: prereqs-check build
	@if [ -z "$(JS_UNIT)" ]; then echo "test-js: no JS unit tests found" >&2; exit 1; fi
	node --test $(JS_UNIT)

# The official OpenAI SDK as a client of the real dev server (built from serve/).
test-proxy: prereqs-check
	node --test test/proxy/

test-size: build
	@bash scripts/size.sh --check

test-fuzz:
	@bash scripts/fuzz.sh $(FUZZTIME)

test-e2e: build
	@if [ -d test/e2e ]; then node --test --test-concurrency=1 test/e2e/; fi

# The ragjudge command (cli/) as CI runs it, a process against the fake upstream: runs, gates,
# resume after SIGKILL and Ctrl+C, refusals, the batch file, the page's verdicts and report against
# the command's in Chromium, and `make pack`'s tarball installed offline in an empty folder.
test-cli: build
	node --test --test-concurrency=1 test/cli/

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./core/...
	PATH="$(WASM_DIR):$$PATH" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem ./core/judge/
	PATH="$(WASM_DIR):$$PATH" GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc $(GO) test -gcflags=all=-l -run '^$$' -bench 'Pairwise10|Rubric' -benchmem ./core/template/
	node bench/api.mjs
	node bench/boundary.mjs
	node bench/engines.mjs
	node bench/batch.mjs
	@for f in bench/*.sh; do [ -e "$$f" ] && bash "$$f"; done; true

size: build
	@bash scripts/size.sh

# size-report: where the wasm's bytes go, by package and function (scripts/sizeby.sh; it also
# tells what keeps a symbol in: bash scripts/sizeby.sh --why SYMBOL).
size-report:
	@bash scripts/sizeby.sh

fuzz:
	@bash scripts/fuzz.sh 60s

clean:
	rm -f $(WASM) $(WASM_EXEC)
	rm -rf $(DIST)
