#!/bin/sh
# CPU of PCP's replay tools and ours on one archive, by perf stat's
# task-clock (ms), alternating PCP's and ours ROUNDS times with -r REPS
# each: /usr/bin/time counts CPU in 10 ms steps, too coarse for runs of
# 4-150 ms. The wall time of the same runs (perf stat's duration_time,
# ms) follows each line: on a machine other work shares it measures
# the queue for a CPU as much as the program. Outputs are compared
# first and must be identical. The
# archive is bench/replay.sh's (GOPCP_BENCH_REPLAY_DIR keeps it); ours
# are built as installed (CGO_ENABLED=0) unless BIN names a directory
# holding them (docs/bench.md, "Replay: fourth pass, pmval CPU").
#
# OLD names a directory of the same tools built from another commit
# ("before"): they are measured in the same rounds, alternating with
# PCP's and ours, so that a change is compared under one machine load.
#
#   bench/replay_cpu.sh /var/tmp/replay/linux-100ms-100mb
#   ROUNDS=5 REPS=8 BIN=/tmp/old ONLY="pmval pminfo" bench/replay_cpu.sh ARCHIVE
#   OLD=/tmp/before bench/replay_cpu.sh ARCHIVE
set -e
cd "$(dirname "$0")/.."
archive=${1:?usage: bench/replay_cpu.sh ARCHIVE}
rounds=${ROUNDS:-3}
reps=${REPS:-5}
bin=${BIN:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)
	trap 'rm -rf "$bin"' EXIT
	CGO_ENABLED=0 go build -o "$bin/" ./cmd/pmval ./cmd/pmdumplog ./cmd/pminfo
fi
pcpbin() { echo "/usr/bin/$1"; }
out=$(mktemp)
trap 'rm -f "$out" "$out.a" "$out.b"; [ -n "${BIN:-}" ] || rm -rf "$bin"' EXIT
# How the page cache holds the volume, before and after the runs: as a
# logger wrote it (small pages) or read back from disk (large folios,
# where reading costs about half: docs/bench.md, "Replay: the cost of
# reading 100 MB"). Printed for root only.
folios() { python3 bench/replay_folios.py "$archive.0" 2>/dev/null || true; }
folios
while IFS='|' read -r tool args; do
	[ -n "$tool" ] || continue
	case " ${ONLY:-$tool} " in *" $tool "*) ;; *) continue ;; esac
	# shellcheck disable=SC2086
	"$(pcpbin "$tool")" $args -a "$archive" </dev/null >"$out.a" 2>&1 || true
	# shellcheck disable=SC2086
	"$bin/$tool" $args -a "$archive" </dev/null >"$out.b" 2>&1 || true
	if ! cmp -s "$out.a" "$out.b"; then
		echo "$tool $args: outputs differ" >&2
		exit 1
	fi
	pcp="" ours="" old="" pcpwall="" ourswall="" oldwall=""
	sides="pcp ours"
	[ -z "${OLD:-}" ] || sides="pcp old ours"
	for _ in $(seq "$rounds"); do
		for side in $sides; do
			case $side in
			pcp) prog=$(pcpbin "$tool") ;;
			old) prog=$OLD/$tool ;;
			*) prog=$bin/$tool ;;
			esac
			# shellcheck disable=SC2086
			perf stat -r "$reps" -x, -e task-clock,duration_time -o "$out" "$prog" $args -a "$archive" </dev/null >/dev/null 2>&1 || true
			ms=$(grep task-clock "$out" | cut -d, -f1)
			wall=$(grep duration_time "$out" | cut -d, -f1 | awk '{printf "%.1f", $1 / 1e6}')
			case $side in
			pcp) pcp="$pcp $ms" pcpwall="$pcpwall $wall" ;;
			old) old="$old $ms" oldwall="$oldwall $wall" ;;
			*) ours="$ours $ms" ourswall="$ourswall $wall" ;;
			esac
		done
	done
	if [ -n "${OLD:-}" ]; then
		printf '%s %s | PCP ms:%s | old ms:%s | ours ms:%s | wall PCP:%s old:%s ours:%s\n' "$tool" "$args" "$pcp" "$old" "$ours" "$pcpwall" "$oldwall" "$ourswall"
	else
		printf '%s %s | PCP ms:%s | ours ms:%s | wall PCP:%s ours:%s\n' "$tool" "$args" "$pcp" "$ours" "$pcpwall" "$ourswall"
	fi
done <<EOF
pmval|kernel.all.load
pmval|-t 0.01 kernel.percpu.cpu.user
pmval|-s 1 kernel.all.load
pmval|-S +60 -T +120 kernel.all.load
pmval|-S -60 kernel.all.load
pmval|-S -10 -t 0.01 kernel.percpu.cpu.user
pminfo|-f
pmdumplog|
EOF
folios
