#!/bin/sh
# Runs PCP's pmcd and gopcp's side by side (see docs/pmcd.md): fetch round
# trips per second, latency (median, p99) and daemon CPU per fetch with 1
# and 32 concurrent clients, for sample metrics behind a pipe agent and for pmcd's own
# metrics, and each daemon's resident memory; GOPCP_BENCH_ROUNDS rounds
# (3 by default), medians. GOPCP_BENCH_OUT names a file for the table.
# Run it on an otherwise idle machine.
set -e
cd "$(dirname "$0")/.."
GOPCP_BENCH=1 exec go test -count=1 -timeout 30m -run '^TestPMCDSideBySide$' -v "$@" ./bench/
