#!/bin/sh
# `easyflow export --to cwl` through the release binary (issue 27): wall
# time (hyperfine: mean ± σ, min…max), peak RSS (`/usr/bin/time -v`, the
# median of 3 runs), the document's size, and with `--validate`, the time
# `cwltool --validate` takes on it (the engines of
# tests/run/install-engines.sh; it grows with the square of the steps).
#
#   bench/export-cwl.sh [--validate] [STEPS]...   (default: 10000)
#
# CWL cannot run code blocks, so the flow is the reference workload,
# `shared/tools/genflow.py STEPS` (GENFLOW=path overrides), with its `post`
# code blocks left out, under the catalog of `cargo xtask genflow
# --runnable`, which says how each of its packages runs; without
# genflow.py, `cargo xtask genflow STEPS --runnable` (a similar but not
# identical flow). The load average is printed before each measurement:
# the machine may be shared. `cargo bench -p easyflow-export --bench cwl`
# times the same work in process.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
validate=false
if [ "${1:-}" = "--validate" ]; then
    validate=true
    shift
fi
[ $# -gt 0 ] || set -- 10000
# Beside the repository (the lead's checkout) or beside its worktrees.
genflow=${GENFLOW:-$root/../shared/tools/genflow.py}
[ -f "$genflow" ] || [ -n "${GENFLOW:-}" ] || genflow=$root/../../shared/tools/genflow.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && cargo build --release --quiet -p easyflow-cli --bin easyflow)
easyflow=$target/release/easyflow
engines=${EASYFLOW_ENGINES:-${XDG_CACHE_HOME:-$HOME/.cache}/easyflow-ls/engines}

load() { cut -d' ' -f1-3 /proc/loadavg; }

for steps in "$@"; do
    flow=$work/flow-$steps.flow
    # The catalog (in the flow's folder, where export finds it), and the
    # flow without code blocks.
    (cd "$root" && cargo xtask genflow "$steps" --runnable "$work/easyflow-packages.toml" >"$flow")
    if [ -f "$genflow" ]; then
        python3 "$genflow" "$steps" |
            perl -0pe 's/\)\npost code ruby\n.*?\ncode end/);/gs' >"$flow"
    fi
    document=$work/flow-$steps.cwl
    "$easyflow" export "$flow" --to cwl >"$document"
    echo "== $steps steps: $(wc -c <"$flow") bytes of flow, $(wc -c <"$document") bytes of CWL"
    echo "load before: $(load)"
    hyperfine -N --warmup 1 --runs 10 --style basic "$easyflow export $flow --to cwl" 2>&1 |
        grep -E "Time|Range"
    for _ in 1 2 3; do
        /usr/bin/time -v "$easyflow" export "$flow" --to cwl 2>&1 >/dev/null |
            sed -n 's/.*Maximum resident set size (kbytes): //p'
    done | sort -n | sed -n 2p | awk '{ printf "peak RSS (median of 3): %.1f MB\n", $1 * 1024 / 1e6 }'
    if $validate; then
        echo "load before: $(load)"
        /usr/bin/time -f "cwltool --validate: %e s wall, %U s user, peak RSS %M KB" \
            "$engines/bin/cwltool" --validate "$document" 2>&1 >/dev/null | tail -1
    fi
done
