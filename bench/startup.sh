#!/bin/sh
# Start-up side by side: PCP's pminfo -f, pmval -s 1, pmprobe -v (against
# one private PCP pmcd with the sample agent), pmdumplog -l and pmval -s 1
# -a (on a QA archive), and gopcp's, each command run RUNS times per side
# (20 by default), the two sides alternating. Outputs are compared first
# and must be identical. Prints the median wall time, CPU time (user +
# system) and peak RSS per run, and the ratios PCP / gopcp (above 1 means
# gopcp is faster). GOPCP_BENCH_OUT names a file for the table;
# GOPCP_BENCH_STARTUP_BIN a directory of prebuilt gopcp tools to time.
#
#   RUNS=50 bench/startup.sh
set -e
cd "$(dirname "$0")/.."
GOPCP_BENCH=1 GOPCP_BENCH_STARTUP_RUNS=${RUNS:-20} exec go test -count=1 -timeout 30m \
	-run '^TestStartupSideBySide$' -v "$@" ./bench/
