#!/bin/sh
# Side by side: PCP's pmval and gopcp's on a QA archive with 20 derived
# metrics (the first 20 definitions of derive/testdata/archive.txt, over
# 20041125), each metric reported by its own pmval -a run, interpolated
# every 10 s over the whole archive. The outputs of every run are
# compared first and must be identical; then each side runs the 20
# commands ROUNDS times (3 by default) and the median total wall time and
# user+system CPU are printed with their ratio (PCP / gopcp: above 1
# means gopcp is faster).
#
#   bench/derived_pmval.sh
set -e
cd "$(dirname "$0")/.."
QA=/var/lib/pcp/testsuite/archives
ARCHIVE=$QA/20041125
ROUNDS=${ROUNDS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/pmval" ./cmd/pmval
export TZ=${TZ:-UTC}

awk '/^archive 20041125 /{on=1; next} /^archive /{on=0} on && NF && !/^#/ && n < 20 { printf "bench.m%02d = %s\n", n, $0; n++ }' \
	derive/testdata/archive.txt > "$TMP/derived.conf"
export PCP_DERIVED_CONFIG="$TMP/derived.conf"
NAMES=$(awk '{print $1}' "$TMP/derived.conf" | tr "\n" " ")

for m in $NAMES; do
	pmval -a "$ARCHIVE" -t 10 "$m" > "$TMP/pcp.out" 2>&1 || true
	"$TMP/pmval" -a "$ARCHIVE" -t 10 "$m" > "$TMP/go.out" 2>&1 || true
	if ! cmp -s "$TMP/pcp.out" "$TMP/go.out"; then
		echo "OUTPUTS DIFFER for $m ($(grep "^$m " "$TMP/derived.conf"))"
		diff "$TMP/pcp.out" "$TMP/go.out" | head
		exit 1
	fi
done
echo "outputs identical for all 20 derived metrics"

run20() { # prog -> "wall cpu" of the 20 runs
	/usr/bin/time -f '%e %U %S' sh -c "for m in $NAMES; do \"$1\" -a \"$ARCHIVE\" -t 10 \$m > /dev/null 2>&1; done" 2>&1 |
		awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
measure() {
	for i in $(seq "$ROUNDS"); do run20 "$1"; done | sort -n | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2)'
}
set -- $(measure "$(command -v pmval)")
pw=$1 pc=$2
set -- $(measure "$TMP/pmval")
gw=$1 gc=$2
printf '%-8s %10s %10s\n' "" "wall s" "cpu s"
printf '%-8s %10s %10s\n' PCP "$pw" "$pc"
printf '%-8s %10s %10s\n' gopcp "$gw" "$gc"
awk -v a="$pw" -v b="$gw" -v c="$pc" -v d="$gc" 'BEGIN { printf "%-8s %10.2f %10.2f\n", "PCP/ours", a / b, c / d }'
