#!/usr/bin/env bash
# ensure-deps.sh installs what `make test` needs and this machine lacks: Debian's python3-jinja2
# (the template oracle) and chromium (the browser tests), and the npm packages from
# package-lock.json. As root it installs them; otherwise it stops at once naming the command.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-/usr/bin/python3}
need=()
"$PYTHON" -c 'import jinja2' 2>/dev/null || need+=(python3-jinja2)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-deps: installing ${need[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" python3 >/dev/null
  else
    echo "ensure-deps: missing ${need[*]}; install with: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi
if [ -f package-lock.json ]; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
