#!/usr/bin/env bash
# size.sh prints the raw, gzip and brotli size of web/ragjudge.wasm in bytes. With --check it fails
# when the gzip size is over the budget (1,250,000 bytes, issue 2).
set -euo pipefail
cd "$(dirname "$0")/.."
f=web/ragjudge.wasm
budget=1250000
raw=$(wc -c <"$f")
gz=$(gzip -9 -c "$f" | wc -c)
if command -v brotli >/dev/null 2>&1; then br=$(brotli -c -q 11 "$f" | wc -c); else br=$(node -e 'const z=require("zlib");const b=require("fs").readFileSync(process.argv[1]);console.log(z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length)' "$f"); fi
printf 'ragjudge.wasm: raw %d bytes, gzip -9 %d bytes, brotli -q 11 %d bytes (gzip budget %d)\n' "$raw" "$gz" "$br" "$budget"
if [ "${1:-}" = --check ] && [ "$gz" -gt "$budget" ]; then
  echo "size: FAIL: gzip size $gz is over the budget of $budget bytes" >&2
  exit 1
fi
