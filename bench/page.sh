#!/usr/bin/env bash
# page.sh: run by `make bench` (bench/*.sh): time to the evaluator buttons, to the engine ready and
# to a whole page, cold and warm, on loopback and a throttled link, against the page of main
# (bench/page.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
node bench/page.mjs "${PAGE_RUNS:-7}" --ref "${PAGE_REF:-main}"
