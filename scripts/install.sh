#!/usr/bin/env bash
# Installs the project (editable) with the given extras, once per version of pyproject.toml:
# a stamp in instance/ skips the slow pip step when nothing changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
target="."
[ -n "$extras" ] && target=".[$extras]"
mkdir -p instance
stamp="instance/.installed-$(cat pyproject.toml | sha256sum | cut -c1-16)-${extras:-base}"
if [ ! -f "$stamp" ] || ! python3 -c "import workbench" 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check -e "$target"
  touch "$stamp"
fi
# The browser tests inject axe-core (from the npm registry, pinned in tests/web/browser/axe/).
if [ "$extras" = "test" ] && [ ! -f tests/web/browser/axe/node_modules/axe-core/axe.min.js ]; then
  (cd tests/web/browser/axe && npm ci --no-audit --no-fund --silent)
fi
