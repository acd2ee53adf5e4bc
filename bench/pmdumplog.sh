#!/bin/sh
# Side by side: PCP's pmdumplog and gopcp's on one archive (by default the
# largest of PCP's QA suite by size on disk), the same options, in one
# run. Each side runs ROUNDS times (3 by default) with output to
# /dev/null; the median wall time, user+system CPU and peak RSS (from
# /usr/bin/time -v) of each side are printed with their ratios
# (PCP / gopcp: above 1 means gopcp uses less). The two outputs are
# compared first and must be identical.
#
#   bench/pmdumplog.sh [archive [options...]]
set -e
cd "$(dirname "$0")/.."
QA=/var/lib/pcp/testsuite/archives
ARCHIVE=${1:-$QA/20180102}
[ $# -gt 0 ] && shift
OPTS=${*:--a}
ROUNDS=${ROUNDS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/pmdumplog" ./cmd/pmdumplog
export TZ=${TZ:-UTC}

pmdumplog $OPTS "$ARCHIVE" > "$TMP/pcp.out" 2>&1 || true
"$TMP/pmdumplog" $OPTS "$ARCHIVE" > "$TMP/go.out" 2>&1 || true
if cmp -s "$TMP/pcp.out" "$TMP/go.out"; then
	echo "outputs identical ($(wc -l < "$TMP/go.out") lines)"
else
	echo "OUTPUTS DIFFER"; diff "$TMP/pcp.out" "$TMP/go.out" | head; exit 1
fi

measure() { # prog -> "wall cpu rss" medians
	for i in $(seq "$ROUNDS"); do
		/usr/bin/time -v "$1" $OPTS "$ARCHIVE" 2> "$TMP/time" > /dev/null
		awk -F': ' '
			/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
			/User time/ { u = $2 } /System time/ { s = $2 }
			/Maximum resident/ { r = $2 }
			END { printf "%.3f %.3f %d\n", w, u + s, r }' "$TMP/time"
	done | sort -n | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2)'
}
set -- $(measure "$(command -v pmdumplog)")
PW=$1 PC=$2 PR=$3
set -- $(measure "$TMP/pmdumplog")
GW=$1 GC=$2 GR=$3
echo "pmdumplog $OPTS $(basename "$ARCHIVE"), median of $ROUNDS rounds"
printf "%-8s %10s %10s %12s\n" "" "wall s" "cpu s" "peak RSS kB"
printf "%-8s %10s %10s %12s\n" PCP "$PW" "$PC" "$PR"
printf "%-8s %10s %10s %12s\n" gopcp "$GW" "$GC" "$GR"
awk -v pw="$PW" -v pc="$PC" -v pr="$PR" -v gw="$GW" -v gc="$GC" -v gr="$GR" \
	'BEGIN { printf "%-8s %10.2f %10.2f %12.2f\n", "PCP/gopcp", pw / gw, pc / gc, pr / gr }'
