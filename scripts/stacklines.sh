#!/usr/bin/env bash
# stacklines.sh puts the source lines back into a stack the wasm printed (the browser console's
# "ragjudge: NAME panicked: ..." and the frames after it), whose line tables `make build` dropped
# (scripts/droplines.mjs): it builds the wasm as `make build` does but keeps them, into a
# temporary directory, and writes the stack read on stdin with each "?:0" replaced by its file
# and line. Run it on the commit the wasm was built from (Go's builds are reproducible: the same
# source and Go version give the same functions at the same offsets).
#
#   bash scripts/stacklines.sh < console.txt
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd prompts/inline && go generate)
# The flags of the Makefile's $(WASM) rule, without scripts/droplines.mjs.
GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc go build -trimpath -gcflags=all=-l -ldflags="-s -w" -o "$tmp/ragjudge.wasm" ./wasm
node scripts/stacklines.mjs "$tmp/ragjudge.wasm"
