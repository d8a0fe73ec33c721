#!/usr/bin/env bash
# page.sh: run by `make bench` (bench/*.sh): time to a usable page in headless chromium (bench/page.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
node bench/page.mjs "${PAGE_RUNS:-15}"
