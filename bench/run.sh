#!/bin/sh
# Runs the side-by-side benchmarks of gopcp against libpcp (see
# docs/bench.md): GOPCP_BENCH_ROUNDS rounds (3 by default) of every case,
# the median table printed at the end and, if GOPCP_BENCH_OUT names a
# file, written there too. Extra arguments go to go test, e.g.
# -benchtime=2s. Run it on an otherwise idle machine.
set -e
cd "$(dirname "$0")/.."
GOPCP_BENCH=1 exec go test -count=1 -timeout 60m -run '^TestSideBySide$' -v "$@" ./bench/
