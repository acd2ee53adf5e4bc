#!/bin/sh
# Compares Prometheus's node_exporter with PCP's pmdalinux and gopcp's for
# the families both serve (TestLinuxNodeExporter): CPU per scrape or fetch,
# the same number of each, in one run; and its processes collector with
# PCP's pmdaproc and gopcp's for the process and thread counts
# (TestProcNodeExporter). Installs Debian's
# prometheus-node-exporter when it is absent (needs root and apt); it is
# started only on a private loopback port, never as a service.
#
#   bench/node_exporter.sh            # 3 rounds of 500
#   GOPCP_BENCH_ROUNDS=5 GOPCP_BENCH_FETCHES=1000 bench/node_exporter.sh
set -e
cd "$(dirname "$0")/.."
if ! command -v prometheus-node-exporter >/dev/null 2>&1 &&
	! command -v node_exporter >/dev/null 2>&1 && [ -z "$GOPCP_NODE_EXPORTER" ]; then
	apt-get install -y --no-install-recommends prometheus-node-exporter
fi
GOPCP_BENCH=1 exec go test -count=1 -run 'TestLinuxNodeExporter$|TestProcNodeExporter$' -v ./bench/
