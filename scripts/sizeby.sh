#!/usr/bin/env bash
# sizeby.sh shows where the bytes of web/ragjudge.wasm go (see scripts/sizeby.mjs): it builds
# the wasm as `make build` does but without -ldflags=-s, so that the function names stay, into a
# temporary directory, and prints the size of each section, the code of each Go package and the
# largest functions. Arguments go to sizeby.mjs:
#
#   bash scripts/sizeby.sh                       packages and the 40 largest functions
#   bash scripts/sizeby.sh --top 100 template    the 100 largest functions with "template" in their name
#   bash scripts/sizeby.sh --why time.Time.Format --why 'reflect.(*rtype).Method'
#                                                what keeps these symbols in the wasm
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd prompts/inline && go generate)
# The flags of the Makefile's $(WASM) rule, but -w only: -s drops the names this reads.
GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc go build -trimpath -gcflags=all=-l -ldflags="-w -dumpdep" -o "$tmp/ragjudge.wasm" ./wasm 2>"$tmp/deps.txt"
node scripts/sizeby.mjs "$tmp/ragjudge.wasm" --deps "$tmp/deps.txt" "$@"
