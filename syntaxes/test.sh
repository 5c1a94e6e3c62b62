#!/usr/bin/env bash
# Tests of the TextMate grammars (easyflow.tmLanguage.json,
# easyflow-topology.tmLanguage.json) with vscode-tmgrammar-test:
#   1. scope assertions   tests/unit/*.flow, tests/unit/*.topology
#   2. embedded grammars  tests/embedded/*.flow, with stand-in Ruby/Python
#                         grammars (tests/embedded/package.json)
#   3. snapshots          tests/snap/* against the committed tests/snap/*.snap
#                         (copies of the parser corpus and topology examples)
#
# Needs Node.js (>= 18) and npm: on Debian, `apt-get install nodejs npm`.
# Installs the locked dev dependency with `npm ci` when node_modules is missing.
# usage: syntaxes/test.sh            run everything
#        syntaxes/test.sh --update   rewrite the snapshots (then review the diff)
set -uo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node and npm are needed (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
if [ ! -x node_modules/.bin/vscode-tmgrammar-test ]; then
  npm ci --no-audit --no-fund --loglevel=error || exit 1
fi

if [ "${1:-}" = "--update" ]; then
  exec node_modules/.bin/vscode-tmgrammar-snap --updateSnapshot "tests/snap/*.flow" "tests/snap/*.topology"
fi

# Included grammars that are not installed here (source.ruby, source.python,
# source.shell) are reported by the tool as "grammar not found" and simply not
# expanded: that is expected, so those lines are filtered out.
quiet() { grep -v '^grammar not found for "source\.\(ruby\|python\|shell\)"$' || true; }

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
run() {
  local name="$1"
  shift
  echo "== $name"
  "$@" 2>&1 | quiet | tee -a "$log"
  local rc="${PIPESTATUS[0]}"
  if [ "$rc" != 0 ]; then
    echo "$name: exit status $rc"
    status=1
  fi
}

run "scope assertions" node_modules/.bin/vscode-tmgrammar-test "tests/unit/*.flow" "tests/unit/*.topology"
run "embedded grammars" node_modules/.bin/vscode-tmgrammar-test --config tests/embedded/package.json "tests/embedded/*.flow"
run "snapshots" node_modules/.bin/vscode-tmgrammar-snap "tests/snap/*.flow" "tests/snap/*.topology"

# Each passing test file prints one "✓ FILE run successfu(l)ly." line; a
# failing one prints its failures in one of several forms, so failures are
# counted as the test files that did not pass.
total=$(ls tests/unit/*.flow tests/unit/*.topology tests/embedded/*.flow tests/snap/*.flow tests/snap/*.topology | wc -l)
passed=$(grep -c '^✓ ' "$log")
failed=$((total - passed))
assertions=$(cat tests/unit/*.flow tests/unit/*.topology tests/embedded/*.flow | grep -E '^//\s*(\^|<~*-)' | wc -l)
echo "grammar test files: $passed passed, $failed failed ($assertions scope assertion lines, $(ls tests/snap/*.snap | wc -l) snapshots)"
if [ "$failed" != 0 ] || [ "$passed" = 0 ]; then
  status=1
fi
echo "$passed passed, $failed failed"
exit "$status"
