#!/bin/sh
# The scaling study (docs/bench.md, "Scaling"): PCP's pmcd and ours
# against clients, instances and metrics per fetch, PCP's pmdumplog and
# ours against archive size; CSV to bench/testdata/scaling/, charts to
# docs/bench/scaling-*.png. GOPCP_SCALING_SECONDS sets each point's
# length (2 by default), GOPCP_BENCH_ROUNDS the rounds (3). Extra
# arguments go to go test.
set -e
cd "$(dirname "$0")/.."
uptime
# Two runs: go test runs tests in file order, and the charts must come
# after the figures.
GOPCP_BENCH=1 go test -count=1 -timeout 30m -run '^TestScaling(SideBySide|Replay)$' -v "$@" ./bench/
uptime
GOPCP_BENCH=1 exec go test -count=1 -run '^TestScalingPlots$' ./bench/
