#!/usr/bin/env bash
# size.sh prints the raw size of web/ragjudge.wasm and the sizes of the precompressed files
# `make build` wrote beside it (web/ragjudge.wasm.br, brotli -q 11, and web/ragjudge.wasm.gz,
# gzip -9: what a browser downloads), in bytes. With --check it fails when the brotli file is over
# 800,000 bytes or the gzip file over 1,100,000 bytes: the budgets of the wasm on the wire
# (docs/ARCHITECTURE.md), brotli for the browsers that take it, gzip for static hosts without it.
# It measures the files themselves, so the budget holds for exactly what is served; files older
# than the wasm (not of this build) are an error.
set -euo pipefail
cd "$(dirname "$0")/.."
f=web/ragjudge.wasm
budget=1100000
br_budget=800000
for c in br gz; do
  if [ ! -f "$f.$c" ] || [ "$(stat -c %y "$f.$c")" != "$(stat -c %y "$f")" ]; then
    echo "size: $f.$c is missing or not of this build of $f: run make build" >&2
    exit 1
  fi
done
raw=$(wc -c <"$f")
br=$(wc -c <"$f.br")
gz=$(wc -c <"$f.gz")
printf 'ragjudge.wasm: raw %d bytes, gzip -9 %d bytes (%s.gz), brotli -q 11 %d bytes (%s.br) (budgets: brotli %d, gzip %d)\n' "$raw" "$gz" "$f" "$br" "$f" "$br_budget" "$budget"
if [ "${1:-}" = --check ] && [ "$gz" -gt "$budget" ]; then
  echo "size: FAIL: gzip size $gz is over the budget of $budget bytes" >&2
  exit 1
fi
if [ "${1:-}" = --check ] && [ "$br" -gt "$br_budget" ]; then
  echo "size: FAIL: brotli size $br is over the budget of $br_budget bytes" >&2
  exit 1
fi
