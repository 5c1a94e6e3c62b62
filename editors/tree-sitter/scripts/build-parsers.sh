#!/usr/bin/env bash
# Compiles the committed parsers into shared libraries for editors that load
# them directly (Neovim's `parser/NAME.so`):
#   OUT/easyflow.so           the flow grammar (parser.c + scanner.c)
#   OUT/easyflow_topology.so  the topology grammar
# usage: scripts/build-parsers.sh [OUT]   (default: editors/tree-sitter/parser)
# Needs a C compiler (`cc`, or $CC). No tree-sitter CLI, no node.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/parser}"
cc="${CC:-cc}"
case "$(uname -s)" in
  Darwin) shared=(-dynamiclib) ;;
  *) shared=(-shared) ;;
esac
mkdir -p "$out"
"$cc" "${shared[@]}" -fPIC -O2 -std=c11 -I "$here/easyflow/src" \
  "$here/easyflow/src/parser.c" "$here/easyflow/src/scanner.c" -o "$out/easyflow.so"
"$cc" "${shared[@]}" -fPIC -O2 -std=c11 -I "$here/topology/src" \
  "$here/topology/src/parser.c" -o "$out/easyflow_topology.so"
echo "built $out/easyflow.so and $out/easyflow_topology.so"
