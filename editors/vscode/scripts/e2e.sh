#!/usr/bin/env bash
# The end-to-end test: the packaged extension in a real VS Code (code-server
# 4.139.1, VS Code 1.139) driven in headless Chromium by playwright-core.
#
#   scripts/e2e.sh VSIX [LARGE_FLOW]
#
# VSIX is the extension to install (`cargo xtask test` packages it as
# `cargo xtask dist` does, with the debug server; with the release server,
# what users install, when EASYFLOW_E2E_SERVER=release). LARGE_FLOW, a flow whose
# graph view the test opens and times (`cargo xtask test` gives a generated
# one of 10 000 steps; without it that check is skipped). code-server is installed
# once into ${XDG_CACHE_HOME:-$HOME/.cache}/easyflow-ls (scripts/code-server.sh).
# Screenshots go to editors/vscode/test-results/e2e/.
# UPDATE_SCREENSHOTS=1 also copies the README's screenshots into images/.
#
# Exit status 77: skipped, code-server cannot be installed here (the message
# says what to install). Needs node >= 20 with npm, and /usr/bin/chromium
# (apt-get install chromium; CHROMIUM names another).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
[ $# = 1 ] || [ $# = 2 ] || { echo "usage: scripts/e2e.sh VSIX [LARGE_FLOW]" >&2; exit 2; }
vsix="$(realpath "$1")"
large="${2:+$(realpath "$2")}"
cd "$here"
[ -f "$vsix" ] || { echo "e2e.sh: no VSIX at $vsix" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "e2e.sh: no ${CHROMIUM:-/usr/bin/chromium}: apt-get install chromium (or set CHROMIUM)" >&2; exit 77; }

status=0
code_server="$(scripts/code-server.sh)" || status=$?
if [ "$status" = 77 ]; then
  echo "e2e.sh: SKIPPED: the VS Code end-to-end test needs code-server" >&2
  exit 77
elif [ "$status" != 0 ]; then
  echo "e2e.sh: installing code-server failed" >&2
  exit "$status"
fi

# playwright-core and esbuild; `cargo xtask test` has run npm ci already.
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --loglevel=error
node scripts/build.mjs --e2e
echo "e2e.sh: testing $vsix in code-server ($code_server)"
CODE_SERVER_DIR="$code_server" EASYFLOW_VSIX="$vsix" EASYFLOW_LARGE_FLOW="$large" node --test out/e2e/

if [ -n "${UPDATE_SCREENSHOTS:-}" ]; then
  mkdir -p images
  for shot in problems hover graph completion; do
    cp "test-results/e2e/$shot.png" "images/screenshot-$shot.png"
  done
  echo "e2e.sh: README screenshots updated in images/"
fi
