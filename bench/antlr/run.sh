#!/bin/sh
# The ANTLR 4 reference parse of issue 13, built from EasyFlow.g4 and timed
# in-process by ParseBench.java (warm, best of RUNS).
#
#   bench/antlr/run.sh FILE.flow [RUNS] [WARMUP]
#
# Needs a JDK (javac, java) and Debian's `antlr4` and `libantlr4-runtime-java`
# (`apt-get install antlr4 libantlr4-runtime-java`: the tool and runtime
# 4.7.2, jars in /usr/share/java), or ANTLR4_JAR pointing at an
# antlr-4.x-complete.jar. Builds into target/antlr-bench (not committed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="${CARGO_TARGET_DIR:-$root/target}/antlr-bench"
file=${1:?usage: bench/antlr/run.sh FILE.flow [RUNS] [WARMUP]}
runs=${2:-5}
warmup=${3:-2}
if [ -n "${ANTLR4_JAR:-}" ]; then
    tool_cp=$ANTLR4_JAR
    runtime_cp=$ANTLR4_JAR
else
    for jar in /usr/share/java/antlr4.jar /usr/share/java/antlr4-runtime.jar; do
        [ -f "$jar" ] || { echo "missing $jar: apt-get install antlr4 libantlr4-runtime-java (or set ANTLR4_JAR)" >&2; exit 2; }
    done
    # The Debian tool's own class path (its antlr3 runtime, ST4, …).
    tool_cp=/usr/share/java/stringtemplate4.jar:/usr/share/java/antlr4.jar:/usr/share/java/antlr4-runtime.jar:/usr/share/java/antlr3-runtime.jar:/usr/share/java/treelayout.jar
    runtime_cp=/usr/share/java/antlr4-runtime.jar
fi
if [ ! -f "$build/ParseBench.class" ] || [ "$here/EasyFlow.g4" -nt "$build/ParseBench.class" ] || [ "$here/ParseBench.java" -nt "$build/ParseBench.class" ]; then
    rm -rf "$build"
    mkdir -p "$build"
    cp "$here/EasyFlow.g4" "$build/"
    (cd "$build" && java -cp "$tool_cp" org.antlr.v4.Tool -no-listener -no-visitor EasyFlow.g4)
    javac -nowarn -cp "$runtime_cp" -d "$build" "$build"/*.java "$here/ParseBench.java"
fi
# The 100k-step flow's tokens and parse tree need a few GB.
exec java -Xms4g -Xmx8g -cp "$runtime_cp:$build" ParseBench "$file" "$runs" "$warmup"
