#!/usr/bin/env bash
# fuzz.sh runs every fuzz target under core/ and serve/ for the given time each (default 3s).
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-3s}
for pkg in $(go list ./core/... ./serve/...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz: $pkg $target ($t)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" "$pkg" >/tmp/ragjudge-fuzz.log 2>&1 || { cat /tmp/ragjudge-fuzz.log; exit 1; }
  done
done
