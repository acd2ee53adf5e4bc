#!/usr/bin/env bash
#
# fresh-root.sh: try README's two commands as a new user would, on a clean
# Debian 12 root.
#
# It builds a minimal Debian 12 (bookworm) root with debootstrap from
# Debian's packages (installing debootstrap with apt when missing), copies
# this machine's Go into it, clones the project's committed HEAD, and then
# inside the root (chroot, with its own mount, PID and hostname namespaces):
#
#   1. with the network: `go run ./cmd/pmcd` (checked to answer, then
#      stopped) and `scripts/test.sh`, which installs what the suite needs;
#   2. with a private network namespace (only loopback, nothing reachable):
#      the same two commands again, this time beside the root's own system
#      pmcd on port 44321, with a listing of every file outside the Go
#      caches taken before and after the suite, to show what tests leave.
#
# For developers before a release, not for CI: it needs root, the network
# to Debian's packages and the Go module proxy, and 20-60 minutes.
#
# usage: scripts/fresh-root.sh [-k] [-r ROOT] [-p PHASES]
#   -k        keep the root afterwards (its path is printed)
#   -r ROOT   reuse a root made by an earlier -k run (no debootstrap, no
#             clone: the project is fetched again from this checkout)
#   -p LIST   phases to run, comma separated: net,private (default both)
#   -t ARGS   run `go test -race -count=1 ARGS` instead of scripts/test.sh
#             in each phase (to re-check packages after a full run)
#
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian).
# Logs go to ROOT/../<root>.log/ and are printed in summary at the end.

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
keep=""
root=""
phases="net,private"
testargs=""
while getopts kr:p:t: opt; do
	case $opt in
	k) keep=1 ;;
	r) root=$(cd "$OPTARG" && pwd) ;;
	p) phases=$OPTARG ;;
	t) testargs=$OPTARG ;;
	*) sed -n '/^# usage:/,/^# Environment/p' "$0" >&2; exit 2 ;;
	esac
done

die() { echo "fresh-root: $*" >&2; exit 1; }
note() { echo "fresh-root: $(date -u +%H:%M:%S) $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, namespaces)"
for tool in unshare chroot git mount findmnt; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
goroot=$(go env GOROOT 2>/dev/null) || die "go is not installed"
[ -x "$goroot/bin/go" ] || die "no go under $goroot"

reused=""
if [ -n "$root" ]; then
	reused=1
	[ -x "$root/usr/local/go/bin/go" ] || die "$root was not made by this script"
else
	root=$(mktemp -d /var/tmp/gopcp-fresh-root.XXXXXX)
	# It becomes the root directory: open to all, as / is (PCP's agents
	# run as user pcp), where mktemp made it private.
	chmod 755 "$root"
fi
logs=$root.log
mkdir -p "$logs"

# mounted_under prints the mount points at or below the root; it must be
# empty before anything under the root is removed.
mounted_under() {
	findmnt -rn -o TARGET | awk -v r="$root" 'index($0, r) == 1'
}

cleanup() {
	local rc=$?
	if [ -n "$keep" ] || [ -n "$reused" ]; then
		note "kept the root at $root (logs in $logs)"
	elif [ -n "$(mounted_under)" ]; then
		note "something is still mounted under $root; leaving it:"
		mounted_under >&2
	else
		rm -rf --one-file-system "$root"
		note "removed the root (logs kept in $logs)"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$reused" ]; then
	if ! command -v debootstrap >/dev/null; then
		note "installing debootstrap"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
	fi
	note "debootstrap bookworm (minbase) into $root"
	start=$SECONDS
	# git and ca-certificates: what a new user needs to clone a project;
	# nothing else beyond minbase, so the project's own setup must bring
	# the rest.
	debootstrap --variant=minbase --include=git,ca-certificates \
		bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 ||
		{ tail -30 "$logs/debootstrap.log" >&2; die "debootstrap failed"; }
	note "debootstrap took $((SECONDS - start))s"
	# A root made by debootstrap names its mirror but not the security
	# suite; add both as a Debian 12 install has them.
	cat >"$root/etc/apt/sources.list" <<-EOF
		deb $mirror bookworm main
		deb $mirror bookworm-updates main
		deb http://deb.debian.org/debian-security bookworm-security main
	EOF
	# debootstrap writes no /etc/hosts. Give the root the one a container
	# or an installed system has, localhost only: its hostname is left for
	# the project's set-up to find unresolved.
	printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
	note "copying Go from $goroot"
	mkdir -p "$root/usr/local"
	cp -a "$goroot" "$root/usr/local/go"
fi

# The project: its committed HEAD, cloned as a new user would clone it.
rm -rf "$root/root/gopcp"
git clone -q --no-local "$repo" "$root/root/gopcp"
git -C "$root/root/gopcp" checkout -q "$(git -C "$repo" rev-parse HEAD)"
note "cloned $(git -C "$root/root/gopcp" log --oneline -1)"
# The root's resolver: the machine's own, as debootstrap copies it.
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The machine's local certificate authorities (a site's TLS proxy, say):
# a new user's machine on that site trusts them too, and the Go module
# proxy is reached over TLS.
if [ -n "$(ls /usr/local/share/ca-certificates/ 2>/dev/null)" ]; then
	cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
	chroot "$root" update-ca-certificates >/dev/null 2>&1 || note "update-ca-certificates failed in the root"
fi

# in_root NET SCRIPT runs SCRIPT with bash inside the root, in new mount,
# PID and UTS namespaces (so every process it starts ends with it and no
# mount outlives it), and with NET=private in a new network namespace too.
# The hostname is one no host file on this machine names, as on a freshly
# installed machine whose name the DNS does not know.
in_root() {
	local net=$1 script=$2 nsflags=(--mount --pid --uts --ipc --fork)
	[ "$net" = private ] && nsflags+=(--net)
	unshare "${nsflags[@]}" -- /bin/bash -c '
		set -e
		root=$1 net=$2 script=$3
		hostname gopcp-fresh
		mount -t proc proc "$root/proc"
		mount -t sysfs sysfs "$root/sys" 2>/dev/null || true
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/dev/shm" 2>/dev/null || true
		if [ "$net" = private ]; then
			ip link set lo up
		fi
		exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/go/bin:/root/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/bash -c "$script"
	' in_root "$root" "$net" "$script"
}

# The steps inside the root. main_job runs README's first command and asks
# it for a metric with the project's own pminfo; a system pmcd may hold
# 44321, in which case README says to pick another port.
read -r -d '' steps <<'EOF' || true
set -uo pipefail
cd /root/gopcp
say() { echo "== $(date -u +%H:%M:%S) $*"; }
port_busy() { (exec 3<>/dev/tcp/127.0.0.1/44321) 2>/dev/null; }
main_job() {
	local args=() i ok=""
	if port_busy; then args=(-p 44777); port=44777; else port=44321; fi
	say "go run ./cmd/pmcd ${args[*]}"
	go build -o /tmp/gopcp-pminfo ./cmd/pminfo || return 1
	go run ./cmd/pmcd "${args[@]}" >/tmp/gopcp-pmcd.out 2>&1 &
	local pid=$!
	for i in $(seq 600); do
		if /tmp/gopcp-pminfo -h "localhost:$port" -f hinv.ncpu kernel.all.load >/tmp/gopcp-pminfo.out 2>&1; then
			ok=1; break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	cat /tmp/gopcp-pminfo.out
	# go run's child is the collector; end the whole group of this job.
	kill -TERM $(cat /proc/"$pid"/task/*/children 2>/dev/null) "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	cat /tmp/gopcp-pmcd.out | tail -5
	rm -f /tmp/gopcp-pminfo /tmp/gopcp-pminfo.out /tmp/gopcp-pmcd.out
	[ -n "$ok" ] && say "main job answered" || { say "main job FAILED"; return 1; }
}
# listing prints every file and directory outside the Go caches and the
# kernel's file systems, with its size, for a before/after comparison.
listing() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev \
		-o -path /root/go -o -path /root/.cache -o -path /root/gopcp/.git \) -prune \
		-o -printf '%y %p\n' 2>/dev/null | sort
}
run_suite() {
	if [ -n "${TESTARGS:-}" ]; then
		scripts/setup-pcp.sh || return 1
		say "GOPCP_REQUIRE_PCP=1 go test -race -count=1 $TESTARGS"
		GOPCP_REQUIRE_PCP=1 go test -race -count=1 $TESTARGS
	else
		say "scripts/test.sh"
		scripts/test.sh
	fi
}
EOF

summary=()
for phase in ${phases//,/ }; do
	case $phase in
	net) body='
		main_job; mj=$?
		start=$SECONDS; run_suite; rc=$?
		say "suite exit $rc after $((SECONDS - start))s"
		exit $(( mj ? 10 + rc : rc ))' ;;
	private) body='
		main_job; mj=$?
		# The root'"'"'s own system pmcd, as a packaged PCP runs it, once
		# the main job has let go of its port.
		for i in $(seq 100); do port_busy || break; sleep 0.2; done
		/usr/lib/pcp/bin/pmcd >/dev/null 2>&1
		for i in $(seq 100); do pminfo -h localhost pmcd.version >/dev/null 2>&1 && break; sleep 0.3; done
		if pminfo -h localhost -f pmcd.version pmcd.agent.status; then
			say "system pmcd $(cat /run/pcp/pmcd.pid 2>/dev/null) answers on 44321"
		else
			say "system pmcd does not answer"; tail -20 /var/log/pcp/pmcd/pmcd.log
		fi
		listing >/tmp/gopcp-before.list
		start=$SECONDS; run_suite; rc=$?
		say "suite exit $rc after $((SECONDS - start))s"
		listing >/tmp/gopcp-after.list
		pminfo -h localhost -f pmcd.pid && say "system pmcd still answers" || say "system pmcd is gone"
		say "files that appeared or vanished during the suite (outside Go caches):"
		diff /tmp/gopcp-before.list /tmp/gopcp-after.list | grep "^[<>]" | grep -v "/tmp/gopcp-\(before\|after\).list" | head -200
		rm -f /tmp/gopcp-before.list /tmp/gopcp-after.list
		exit $(( mj ? 10 + rc : rc ))' ;;
	*) die "unknown phase $phase" ;;
	esac
	note "phase $phase: log in $logs/$phase.log"
	start=$SECONDS
	rc=0
	in_root "$phase" "TESTARGS='$testargs'; $steps
$body" >"$logs/$phase.log" 2>&1 || rc=$?
	took=$((SECONDS - start))
	summary+=("phase $phase: exit $rc in ${took}s")
	note "phase $phase: exit $rc in ${took}s"
	grep -E '^(== |--- FAIL|FAIL|ok )' "$logs/$phase.log" | grep -v '^ok ' | tail -60 >&2 || true
done

printf 'fresh-root: %s\n' "${summary[@]}" >&2
for s in "${summary[@]}"; do
	case $s in *"exit 0 "*) ;; *) exit 1 ;; esac
done
