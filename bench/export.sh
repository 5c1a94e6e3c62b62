#!/bin/sh
# `easyflow export --to diet|workload|model` through the release binary
# (issue 30): per format, wall time (hyperfine: mean ± σ, min…max), peak
# RSS (`/usr/bin/time -v`, the median of 3 runs) and its ratio to
# `easyflow check`'s on the same flow, and the document's size; then the
# phases of `crates/cli/examples/cold_phases.rs` (the check's, the steps'
# values, the expanded workflow, each writer into a sink). `bench/export-cwl.sh` measures CWL,
# which needs a catalog.
#
#   bench/export.sh [STEPS|FILE.flow]...   (default: 10000 100000)
#
# Flows are the reference workload, `shared/tools/genflow.py STEPS`
# (GENFLOW=path overrides; without it, `cargo xtask genflow`, a similar but
# not identical flow). The load average is printed before each measurement:
# the machine may be shared, so compare figures taken at a similar load.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
[ $# -gt 0 ] || set -- 10000 100000

(cd "$root" && cargo build --release --quiet -p easyflow-cli --bin easyflow --example cold_phases)
easyflow=$target/release/easyflow

. "$root/bench/flows.sh"

# The median of 3 peak RSS of a command, in KB.
peak_rss() {
    for _ in 1 2 3; do
        /usr/bin/time -v "$@" 2>&1 >/dev/null |
            sed -n 's/.*Maximum resident set size (kbytes): //p'
    done | sort -n | sed -n 2p
}

for what in "$@"; do
    flow_of "$what"
    echo "== $what: $(wc -c <"$flow") bytes of flow"
    check=$(peak_rss "$easyflow" check "$flow")
    echo "check: peak RSS (median of 3) $(awk -v k="$check" 'BEGIN { printf "%.1f MB", k * 1024 / 1e6 }')"
    for format in diet workload model; do
        echo "-- $format: $("$easyflow" export "$flow" --to "$format" | wc -c) bytes of document"
        echo "load before: $(load)"
        hyperfine -N --warmup 1 --runs 10 --style basic \
            "$easyflow export $flow --to $format" 2>&1 | grep -E "Time|Range"
        peak_rss "$easyflow" export "$flow" --to "$format" | awk -v check="$check" \
            '{ printf "peak RSS (median of 3): %.1f MB = %.2fx the check'"'"'s\n", $1 * 1024 / 1e6, $1 / check }'
    done
    "$target/release/examples/cold_phases" "$flow"
done
