#!/usr/bin/env bash
# proxy.sh: what the dev proxy adds to a chat completion's latency. Runs BenchmarkProxyLatency
# (serve/bench_test.go: the fake upstream called directly and through newServer, loopback only,
# plain and streaming, 1 and 64 concurrent clients, a fixed number of requests each) and prints
# p50 and p99 per case with proxy minus direct, and the proxy's CPU per request (which, unlike
# latency, does not depend on what else the machine runs). REQUESTS=n changes the count (default 2000).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
REQUESTS=${REQUESTS:-2000}
out=$("$GO" test -run '^$' -bench '^BenchmarkProxyLatency$' -benchtime="${REQUESTS}x" -count=1 ./serve/)
echo "$out" | grep -E '^(goos|goarch|cpu|Benchmark)' || true
echo "load average while measuring: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) on $(nproc 2>/dev/null || echo '?') CPUs"
echo
echo "$out" | awk -v n="$REQUESTS" '
  /^BenchmarkProxyLatency\// {
    split($1, part, "/"); sub(/-[0-9]+$/, "", part[4])
    key = part[2] " " part[3]
    for (i = 2; i <= NF; i++) {
      if ($i == "p50-µs") p50[key, part[4]] = $(i-1)
      if ($i == "p99-µs") p99[key, part[4]] = $(i-1)
      if ($i == "cpu-µs/req") cpu[key, part[4]] = $(i-1)
    }
    if (!(key in seen)) { seen[key] = 1; order[++k] = key }
  }
  END {
    printf "proxy latency, %d requests per case, loopback (µs)\n", n
    printf "%-16s %10s %10s %10s   %10s %10s %10s   %10s\n", "case", "p50 direct", "p50 proxy", "p50 added", "p99 direct", "p99 proxy", "p99 added", "cpu added"
    for (j = 1; j <= k; j++) {
      key = order[j]
      printf "%-16s %10.0f %10.0f %10.0f   %10.0f %10.0f %10.0f   %10.0f\n", key,
        p50[key, "direct"], p50[key, "proxy"], p50[key, "proxy"] - p50[key, "direct"],
        p99[key, "direct"], p99[key, "proxy"], p99[key, "proxy"] - p99[key, "direct"],
        cpu[key, "proxy"] - cpu[key, "direct"]
    }
  }'
