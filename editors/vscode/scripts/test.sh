#!/usr/bin/env bash
# Tests of the VS Code extension, for CI (after `cargo build`, which builds the
# server): npm ci, the type check, the unit, protocol and webview tests
# (node --test; the webview in Debian's headless Chromium), then a VSIX
# packaged with the server, whose contents are checked.
#
#   scripts/test.sh [SERVER]
#
# SERVER is the easyflow-ls to test and package (default: $EASYFLOW_LS, else
# the debug build). Needs node >= 20 with npm, /usr/bin/chromium (apt-get
# install chromium; CHROMIUM names another), unzip. Leaves screenshots and the
# VSIX in editors/vscode/test-results/.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
target="$(realpath -m "${CARGO_TARGET_DIR:-$here/../../target}")"
server="$(realpath -m "${1:-${EASYFLOW_LS:-$target/debug/easyflow-ls}}")"
cd "$here"
[ -x "$server" ] || { echo "test.sh: no server at $server: run cargo build -p easyflow-ls (or set EASYFLOW_LS)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "test.sh: no ${CHROMIUM:-/usr/bin/chromium}: apt-get install chromium (or set CHROMIUM)" >&2; exit 1; }

echo "test.sh: npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "test.sh: type check"
npm run --silent typecheck

echo "test.sh: unit, protocol and webview tests"
node scripts/build.mjs --tests
EASYFLOW_LS="$server" EASYFLOW_REQUIRE_SERVER=1 node --test out/test/

echo "test.sh: packaging"
mkdir -p server test-results
# The debug server without its debug info: a fifth of the size, packs faster.
strip -o server/easyflow-ls "$server" 2>/dev/null || cp "$server" server/easyflow-ls
# The CLI that "EasyFlow: Run Workflow" runs, built beside the server.
strip -o server/easyflow "$(dirname "$server")/easyflow" 2>/dev/null || cp "$(dirname "$server")/easyflow" server/easyflow
chmod 755 server/easyflow-ls server/easyflow
vsix=test-results/easyflow-linux-x64.vsix
rm -f "$vsix"
npm run --silent package -- --target linux-x64 --out "$vsix" >/dev/null
listing=$(unzip -Z "$vsix")
failed=0
for entry in \
  extension/package.json extension/readme.md extension/changelog.md extension/LICENSE.txt extension/images/icon.png \
  extension/out/extension.js extension/out/webview/graph.js extension/out/webview/graph.css \
  extension/out/THIRD_PARTY_NOTICES.txt \
  extension/syntaxes/easyflow.tmLanguage.json extension/syntaxes/easyflow-topology.tmLanguage.json \
  extension/language-configuration.json extension/topology-language-configuration.json \
  extension/docs/diagnostics.md extension/server/easyflow-ls extension/server/easyflow; do
  grep -q " $entry\$" <<<"$listing" || { echo "test.sh: $vsix lacks $entry" >&2; failed=1; }
done
grep -Eq '^-rwx.* extension/server/easyflow-ls$' <<<"$listing" || { echo "test.sh: the packaged server is not executable" >&2; failed=1; }
if grep -Eq ' extension/(node_modules|src|test|scripts)/' <<<"$listing"; then
  echo "test.sh: $vsix contains sources or node_modules" >&2
  failed=1
fi
# The packaged server runs.
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
unzip -q "$vsix" extension/server/easyflow-ls -d "$unpacked"
"$unpacked/extension/server/easyflow-ls" --version >/dev/null || { echo "test.sh: the packaged server does not run" >&2; failed=1; }
[ "$failed" = 0 ] || exit 1
echo "test.sh: packaged $vsix ($(du -h "$vsix" | cut -f1)): contents ok"
