#!/usr/bin/env bash
# Runs fuzzing campaigns, one target at a time, at the lowest priority:
#
#   fuzz/campaign.sh TARGET|all [RUNS] [-- extra libFuzzer flags]
#
# RUNS is the number of executions per target (10,000,000 by default). Each
# run's log is fuzz/logs/TARGET.log; its last line holds the execution count
# (`Done N runs`). New inputs go to fuzz/corpus/TARGET (ignored by git),
# seeded from the test cases; a crash goes to fuzz/artifacts/TARGET/. Minimise
# it (`cargo fuzz tmin -s none TARGET FILE`), check it in under
# fuzz/regressions/TARGET/ (crates/fuzz replays it on stable) and fix it.
#
# Only a stable toolchain is needed: the targets are safe Rust, so they run
# without a sanitizer (`-s none`, no -Z flags), with debug assertions on.
#
# FUZZ_WORKER=N runs one more process on the same target and corpus (one per
# core), logging to fuzz/logs/TARGET.N.log.
set -euo pipefail
cd "$(dirname "$0")"
targets=(topology config catalog parse format edits analysis ide)
target=${1:?usage: campaign.sh TARGET|all [RUNS] [-- libFuzzer flags]}
runs=${2:-10000000}
shift $(( $# < 2 ? $# : 2 ))
[[ ${1:-} == -- ]] && shift
data=../tests/data
seeds() {
  case $1 in
    parse) echo "$data/parser/corpus $data/parser/ok $data/parser/err" ;;
    analysis) echo "$data/analysis $data/fit $data/parser/corpus" ;;
    ide) echo "$data/analysis $data/parser/corpus $data/lsp/catalog-workspace" ;;
    edits) echo "$data/analysis $data/parser/corpus" ;;
    topology) echo "$data/topology" ;;
    config) echo "$data/cli/discovery/easyflow.toml $data/catalog-config/easyflow.toml" ;;
    catalog) echo "$data/catalog" ;;
    format) echo "$data/fmt $data/parser/corpus" ;;
    *) echo "unknown target $1 (one of: ${targets[*]})" >&2; exit 2 ;;
  esac
}
# The seeds are folders of test cases (or single files); libFuzzer takes
# folders, so single files are copied into the corpus first.
campaign() {
  local name=$1 corpus=corpus/$1 inputs=()
  shift
  mkdir -p "$corpus" logs "regressions/$name"
  for seed in $(seeds "$name"); do
    # Named by their path: two seeds may share a file name.
    if [[ -d $seed ]]; then inputs+=("$seed"); else cp "$seed" "$corpus/${seed//\//_}"; fi
  done
  local log=logs/$name${FUZZ_WORKER:+.$FUZZ_WORKER}.log dict=() build=()
  [[ $name == parse || $name == analysis || $name == ide || $name == edits || $name == format ]] && dict=(-dict=parse.dict)
  # Tracing compares (for values the dictionary does not hold) halves the
  # rate of `edits`, whose every run parses and analyses up to 16 times.
  [[ $name == edits ]] && build=(--no-trace-compares)
  echo "$(date -u +%FT%TZ) $name${FUZZ_WORKER:+ (worker $FUZZ_WORKER)}: $runs runs" | tee -a logs/campaigns.log
  nice -n 19 cargo fuzz run -s none --debug-assertions "${build[@]}" "$name" "$corpus" "${inputs[@]}" -- \
    -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    "${dict[@]}" "$@" >"$log" 2>&1 || {
      echo "$(date -u +%FT%TZ) $name: FAILED (see fuzz/$log, fuzz/artifacts/$name/)" | tee -a logs/campaigns.log
      return 1
    }
  echo "$(date -u +%FT%TZ) $name${FUZZ_WORKER:+ (worker $FUZZ_WORKER)}: $(grep -E '^Done [0-9]+ runs' "$log" | tail -1)" | tee -a logs/campaigns.log
}
if [[ $target == all ]]; then
  for name in "${targets[@]}"; do campaign "$name" "$@" || true; done
else
  campaign "$target" "$@"
fi
