# Sourced by the bench scripts (which set `root`): a scratch directory
# `work`, removed at exit; `load` (the load average, printed before
# each measurement), and `flow_of WHAT`, which sets `flow` to WHAT when it
# is a .flow file, else to the reference workload of WHAT steps written in
# $work (`shared/tools/genflow.py` as $genflow; without it, `cargo xtask
# genflow`, a similar but not identical flow).

# Beside the repository (the lead's checkout) or beside its worktrees.
genflow=${GENFLOW:-$root/../shared/tools/genflow.py}
[ -f "$genflow" ] || [ -n "${GENFLOW:-}" ] || genflow=$root/../../shared/tools/genflow.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }

flow_of() {
    case $1 in
        *.flow) flow=$1 ;;
        *)
            flow=$work/$1.flow
            if [ -f "$genflow" ]; then
                python3 "$genflow" "$1" >"$flow"
            else
                (cd "$root" && cargo xtask genflow "$1" >"$flow")
            fi
            ;;
    esac
}
