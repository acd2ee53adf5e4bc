#!/bin/sh
# Side by side: PCP's replay tools and ours (pmdumplog -a, pmval -a, pmval
# -a -t, pminfo -a -f) on the largest uncompressed QA archives and on an
# archive of 100 MB that PCP's pmlogger makes from the Linux agent every
# 100 ms, and PCP's pmrep against the same replay through our fetchgroup
# on a kernel.percpu archive of a many-CPU fixture: wall, CPU and peak
# RSS with their ratios, outputs compared first (docs/bench.md).
#
#   bench/replay.sh                          # makes the archives in temp dirs
#   GOPCP_BENCH_REPLAY_DIR=/var/tmp/replay bench/replay.sh   # keeps and reuses them
set -e
cd "$(dirname "$0")/.."
GOPCP_BENCH=1 exec go test -count=1 -timeout 3h -v \
	-run '^(TestReplayMemorySideBySide|TestReplayLargeSideBySide|TestPmrepSideBySide)$' ./bench/ "$@"
