#!/usr/bin/env bash
# Headless test of the Neovim plugin (editors/nvim) against the built
# easyflow-ls: filetype detection, fallback syntax, root detection, and
# require("easyflow").setup() attaching the server and receiving diagnostics.
# usage: editors/nvim/test/run.sh [path/to/easyflow-ls]
#   NVIM=/path/to/nvim selects another Neovim (default: nvim on PATH; Debian 12's
#   is 0.7.2, `apt-get install neovim`). Build the server first:
#   cargo build -p easyflow-ls
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
server="${1:-$root/target/debug/easyflow-ls}"
nvim="${NVIM:-nvim}"
if ! command -v "$nvim" >/dev/null; then
  echo "nvim is not installed (Debian: apt-get install neovim)" >&2
  exit 1
fi
if [ ! -x "$server" ]; then
  echo "no server binary at $server (cargo build -p easyflow-ls)" >&2
  exit 1
fi
cd "$root"
# -u NONE: no user config; the test adds the plugin to 'runtimepath' itself.
EASYFLOW_LS="$server" EASYFLOW_ROOT="$root" timeout 120 \
  "$nvim" --headless -u NONE -i NONE -n -c "luafile editors/nvim/test/setup_test.lua"
