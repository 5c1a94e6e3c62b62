#!/bin/sh
# Keystroke -> diagnostics, easyflow-ls beside Sprocket's WDL language server
# (issue 30's "≥ 50× faster than Sprocket's at 10k", one run side by side).
#
#   bench/sprocket/run.sh [STEPS|FILE.flow]...   (default: 10000)
#
# For each size: the reference workload (`bench/flows.sh`), its WDL 1.2
# translation (`flow2wdl.py`), then `keystrokes.py` against `sprocket
# analyzer --stdio` on the WDL and `easyflow-ls --stdio` on the flow, one
# after the other, both with pull diagnostics (Sprocket has no other kind),
# and easyflow-ls once more with push diagnostics (what its own
# `cargo bench -p easyflow-ls` times). Prints each server's p50/p90/p99/max
# and the ratio of the pull p50s. KEYSTROKES (default 50) sets the count.
#
# Sprocket is installed from crates.io at the pinned version below into
# target/sprocket when missing (`cargo install --locked`, under nice: a
# long build); easyflow-ls is built in release. The load average is printed
# before each server's run: the machine may be shared.
set -eu
sprocket_version=0.33.0
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/bench/sprocket
target=${CARGO_TARGET_DIR:-$root/target}
keystrokes=${KEYSTROKES:-50}
[ $# -gt 0 ] || set -- 10000

sprocket=$target/sprocket/bin/sprocket
# `sprocket --version` prints e.g. "sprocket 0.33.0 (2026-11-28)".
if ! "$sprocket" --version 2>/dev/null | grep -q "^sprocket $sprocket_version "; then
    echo "installing sprocket $sprocket_version into $target/sprocket (a long build)" >&2
    nice -n 10 cargo install --quiet --locked --version "$sprocket_version" \
        --root "$target/sprocket" sprocket
fi
(cd "$root" && cargo build --release --quiet -p easyflow-ls)
easyflow_ls=$target/release/easyflow-ls

. "$root/bench/flows.sh"

for what in "$@"; do
    flow_of "$what"
    # Each document alone in its own folder, the servers' workspace root.
    mkdir -p "$work/easyflow" "$work/wdl"
    cp "$flow" "$work/easyflow/bench.flow"
    python3 "$here/flow2wdl.py" "$flow" >"$work/wdl/bench.wdl"
    echo "== $what: $(wc -c <"$work/easyflow/bench.flow") bytes of EasyFlow, $(wc -c <"$work/wdl/bench.wdl") bytes of WDL; $keystrokes keystrokes"
    echo "load: $(load)"
    python3 "$here/keystrokes.py" --name sprocket --language-id wdl --mode pull \
        --keystrokes "$keystrokes" --json "$work/sprocket.json" \
        "$work/wdl/bench.wdl" -- "$sprocket" analyzer --stdio
    echo "load: $(load)"
    python3 "$here/keystrokes.py" --name easyflow-ls --language-id easyflow --mode pull \
        --keystrokes "$keystrokes" --json "$work/easyflow.json" \
        "$work/easyflow/bench.flow" -- "$easyflow_ls" --stdio
    python3 "$here/keystrokes.py" --name easyflow-ls --language-id easyflow --mode push \
        --keystrokes "$keystrokes" "$work/easyflow/bench.flow" -- "$easyflow_ls" --stdio
    echo "load: $(load)"
    python3 "$here/keystrokes.py" --ratio "$work/easyflow.json" "$work/sprocket.json"
    rm -rf "$work/easyflow" "$work/wdl"
done
