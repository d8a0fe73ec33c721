#!/usr/bin/env bash
# size.sh prints the raw, gzip and brotli size of web/ragjudge.wasm in bytes. With --check it fails
# when the brotli size is over 950,000 bytes or the gzip size over 1,330,000 bytes: the budgets of
# the wasm on the wire (docs/ARCHITECTURE.md), brotli for the browsers that take it, gzip for
# static hosts without it. Node's zlib is the brotli encoder when the brotli command is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
f=web/ragjudge.wasm
budget=1330000
br_budget=950000
raw=$(wc -c <"$f")
gz=$(gzip -9 -c "$f" | wc -c)
if command -v brotli >/dev/null 2>&1; then br=$(brotli -c -q 11 "$f" | wc -c); else br=$(node -e 'const z=require("zlib");const b=require("fs").readFileSync(process.argv[1]);console.log(z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length)' "$f"); fi
printf 'ragjudge.wasm: raw %d bytes, gzip -9 %d bytes, brotli -q 11 %d bytes (budgets: brotli %d, gzip %d)\n' "$raw" "$gz" "$br" "$br_budget" "$budget"
if [ "${1:-}" = --check ] && [ "$gz" -gt "$budget" ]; then
  echo "size: FAIL: gzip size $gz is over the budget of $budget bytes" >&2
  exit 1
fi
if [ "${1:-}" = --check ] && [ "$br" -gt "$br_budget" ]; then
  echo "size: FAIL: brotli size $br is over the budget of $br_budget bytes" >&2
  exit 1
fi
