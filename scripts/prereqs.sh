#!/usr/bin/env bash
# prereqs.sh checks, installing nothing, that this machine has what `make test` (argument `test`,
# the default) or `make check` (argument `check`) needs, and stops at once naming the commands that
# install what is missing. scripts/install-deps.sh, which .ci/run runs, is those commands.
set -euo pipefail
cd "$(dirname "$0")/.."
tier=${1:-test}
PYTHON=${PYTHON:-/usr/bin/python3}
missing=() # what is missing, in words
apt=()     # Debian packages that install it
other=()   # other commands that install it

if [ "$tier" = test ]; then
  # The template oracle: Debian's python3 with python3-jinja2 (3.1.2 made the goldens).
  if ! "$PYTHON" -c 'import jinja2' 2>/dev/null; then
    missing+=("$PYTHON with jinja2 (the template oracle)")
    apt+=(python3 python3-jinja2)
  fi
  # The browser tests drive Debian's chromium; playwright-core never downloads a browser.
  if [ ! -x /usr/bin/chromium ]; then
    missing+=("/usr/bin/chromium (the browser tests)")
    apt+=(chromium)
  fi
fi

# Node ≥ 20 runs the JS tests and TypeScript. Debian 12's own nodejs is 18: too old.
if ! command -v node >/dev/null 2>&1 || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  missing+=("Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none))")
  other+=("install Node.js 20 or newer (Debian 13: apt-get install -y nodejs npm; Debian 12's nodejs is 18)")
elif ! stale=$(node -e '
    // Every devDependency at exactly the version package.json pins, as npm ci installs them.
    const fs = require("fs");
    const want = JSON.parse(fs.readFileSync("package.json", "utf8")).devDependencies || {};
    const bad = [];
    for (const [name, version] of Object.entries(want)) {
      let have = null;
      try { have = JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, "utf8")).version; } catch {}
      if (have !== version) bad.push(`${name} ${version} (${have ? "have " + have : "not installed"})`);
    }
    if (bad.length) { console.log(bad.join(", ")); process.exit(1); }
  '); then
  missing+=("node_modules as package.json pins it: $stale")
  other+=("npm ci")
fi

if ((${#missing[@]})); then
  {
    echo "make $tier: this machine lacks what the tests need:"
    printf '  - %s\n' "${missing[@]}"
    echo "Run, then make $tier again:"
    sudo=
    [ "$(id -u)" = 0 ] || sudo="sudo "
    if ((${#apt[@]})); then
      echo "  ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${apt[*]}"
    fi
    if ((${#other[@]})); then printf '  %s\n' "${other[@]}"; fi
    echo "(bash scripts/install-deps.sh does that; .ci/run runs it.)"
  } >&2
  exit 1
fi
