#!/usr/bin/env bash
# install-deps.sh installs what `make test` needs on a fresh Debian machine, as root: Debian's
# chromium (the browser tests) and python3-jinja2 (the template oracle) with apt-get, and the npm
# packages package-lock.json pins with npm ci. .ci/run runs it; `make test` itself installs nothing
# and only says what is missing (scripts/prereqs.sh). What is already there is not installed again.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}

apt=()
"$PYTHON" -c 'import jinja2' 2>/dev/null || apt+=(python3 python3-jinja2)
[ -x /usr/bin/chromium ] || apt+=(chromium)
if ((${#apt[@]})); then
  if [ "$(id -u)" != 0 ]; then
    echo "install-deps: installing ${apt[*]} needs root: sudo bash scripts/install-deps.sh" >&2
    exit 1
  fi
  echo "install-deps: apt-get install ${apt[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${apt[@]}" >/dev/null
fi

# npm ci only when node_modules differs from what package.json pins (prereqs.sh says which).
if ! bash scripts/prereqs.sh check 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
fi
bash scripts/prereqs.sh test
