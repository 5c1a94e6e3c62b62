#!/bin/sh
# `easyflow fmt -` through the release binary (issue 30): wall time
# (hyperfine: mean ± σ, min…max, and its user and system time), peak RSS
# (`/usr/bin/time -v`, the median of 3 runs) and its ratio to the flow's
# size. With BASE=path/to/another/easyflow, the same for that binary,
# interleaved, and whether both write the same bytes (`cmp`).
#
#   bench/fmt.sh [STEPS|FILE.flow]...   (default: 10000 100000)
#
# Flows are the reference workload, `shared/tools/genflow.py STEPS` (see
# `bench/flows.sh`). The load average is printed before each measurement:
# the machine may be shared, so compare figures taken at a similar load.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
[ $# -gt 0 ] || set -- 10000 100000

(cd "$root" && cargo build --release --quiet -p easyflow-cli --bin easyflow)
easyflow=$target/release/easyflow

. "$root/bench/flows.sh"

# The median of 3 peak RSS of `fmt -` on $flow by the binary $1, in KB.
peak_rss() {
    for _ in 1 2 3; do
        /usr/bin/time -v "$1" fmt - <"$flow" 2>&1 >/dev/null |
            sed -n 's/.*Maximum resident set size (kbytes): //p'
    done | sort -n | sed -n 2p
}

for what in "$@"; do
    flow_of "$what"
    size=$(wc -c <"$flow")
    echo "== $what: $size bytes of flow"
    for binary in ${BASE:+"$BASE"} "$easyflow"; do
        echo "-- $binary"
        echo "load before: $(load)"
        # Through a shell, for the redirection (hyperfine subtracts its start).
        hyperfine --warmup 1 --runs 10 --style basic \
            "$binary fmt - <$flow" 2>&1 | grep -E "Time|Range"
        peak_rss "$binary" | awk -v size="$size" \
            '{ printf "peak RSS (median of 3): %.1f MB = %.1fx the flow\n", $1 * 1024 / 1e6, $1 * 1024 / size }'
    done
    if [ -n "${BASE:-}" ]; then
        "$BASE" fmt - <"$flow" >"$work/base.out" || true
        "$easyflow" fmt - <"$flow" >"$work/new.out" || true
        cmp "$work/base.out" "$work/new.out" && echo "same bytes as $BASE"
    fi
done
