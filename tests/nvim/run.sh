#!/usr/bin/env bash
# Runs the headless Neovim LSP test against the built easyflow-ls.
# usage: tests/nvim/run.sh [path/to/easyflow-ls]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
server="${1:-$root/target/debug/easyflow-ls}"
if ! command -v nvim >/dev/null; then
  echo "nvim is not installed (Debian: apt-get install neovim)" >&2
  exit 1
fi
EASYFLOW_LS="$server" EASYFLOW_ROOT="$root" timeout 120 \
  nvim --headless -u NONE -i NONE -n -c "luafile $root/tests/nvim/lsp_test.lua"
