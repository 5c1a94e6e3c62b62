#!/usr/bin/env bash
# Batch test of editors/emacs/easyflow.el with Eglot against the built server.
# Needs: Emacs 29+ (Eglot built in), or Emacs 28 with Eglot (Debian 12:
# apt-get install emacs-nox elpa-eglot).
# usage: editors/emacs/test/run.sh [path/to/easyflow-ls]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
server="${1:-$root/target/debug/easyflow-ls}"
command -v emacs >/dev/null || { echo "emacs is not installed (Debian: apt-get install emacs-nox elpa-eglot)" >&2; exit 1; }
[ -x "$server" ] || { echo "no server binary at $server (cargo build -p easyflow-ls)" >&2; exit 1; }
cd "$root"
EASYFLOW_LS="$server" EASYFLOW_ROOT="$root" HOME="$(mktemp -d)" timeout 120 \
  emacs --batch -Q -l editors/emacs/test/eglot_test.el
