#!/usr/bin/env bash
# Installs what gopcp's tests need: Debian's PCP 6 (pcp, pcp-testsuite for
# its QA archives, libpcp3-dev, libpcp-pmda3-dev, libpcp-mmv1-dev and libpcp-trace2-dev for the C
# reference harnesses, python3-pcp), a C compiler (gcc and libc6-dev: `go test -race`
# needs cgo, and the harnesses are C), tshark, and the compressors whose
# output the archive tests read (ncompress for compress(1)'s .Z, bzip2,
# xz-utils, zip for the zip files gzip -dc also reads), and libsasl2-modules, which apt brings as a recommendation of
# libsasl2-2 on an installed system but a minimal root lacks (without it
# PCP's clients meet a pmcd asking for authentication differently), sasl2-bin
# (saslpasswd2 makes the private sasldb of the authentication tests), and
# chromium, the browser pmproxy's web view is tested in, and time (GNU
# time: the benchmarks under bench/ read peak memory from it). Then
# it gives the machine what PCP itself expects of an
# installed system, only where it is missing (see host_setup below). Safe to
# run again: it does nothing when all is present.
#
# PCP's postinst asks systemd to start pmcd and pmlogger, which fails on
# machines without systemd. While installing we put a no-op systemctl first
# on PATH and forbid service starts through policy-rc.d, then take both away:
# the tests start private daemons of their own and never the system pmcd.
set -euo pipefail

packages=(pcp pcp-testsuite libpcp3-dev libpcp-pmda3-dev libpcp-mmv1-dev libpcp-trace2-dev python3-pcp tshark ncompress bzip2 xz-utils zip gcc libc6-dev libsasl2-modules sasl2-bin chromium redis-server time openssl)

installed() {
	local p
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || return 1
	done
}

if ! installed; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup-pcp: need root to install ${packages[*]}" >&2
		exit 1
	fi
	shim_dir=$(mktemp -d)
	ln -s /bin/true "$shim_dir/systemctl"
	made_shim=""
	if [ ! -e /usr/local/sbin/systemctl ]; then
		mkdir -p /usr/local/sbin
		ln -s /bin/true /usr/local/sbin/systemctl
		made_shim=/usr/local/sbin/systemctl
	fi
	made_policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		made_policy=/usr/sbin/policy-rc.d
	fi
	cleanup() {
		rm -rf "$shim_dir"
		[ -n "$made_shim" ] && rm -f "$made_shim"
		[ -n "$made_policy" ] && rm -f "$made_policy"
		return 0
	}
	trap cleanup EXIT
	export DEBIAN_FRONTEND=noninteractive
	export PATH="$shim_dir:$PATH"
	apt-get update -qq
	# A maintainer script can still fail the first pass on a machine
	# without systemd; configuring again completes it.
	apt-get install -y -qq "${packages[@]}" >/tmp/gopcp-apt.log 2>&1 ||
		dpkg --configure -a >>/tmp/gopcp-apt.log 2>&1 ||
		{ tail -30 /tmp/gopcp-apt.log >&2; exit 1; }
	installed || { echo "setup-pcp: ${packages[*]} not all installed" >&2; tail -30 /tmp/gopcp-apt.log >&2; exit 1; }
fi

# pmcd's start-up script normally builds the system namespace; we never run
# the system pmcd, so build it here.
if [ ! -f /var/lib/pcp/pmns/root ]; then
	(cd /var/lib/pcp/pmns && ./Rebuild -u)
fi

# host_setup gives a bare machine (a debootstrap root, a container) the two
# things an installed Debian system has and PCP relies on, each only when
# missing and in the way the system itself would make it:
#  - /etc/machine-id, which systemd creates at first boot (PCP labels every
#    context with it). Made as systemd-machine-id-setup or dbus-uuidgen
#    would: from dbus's copy when there is one, else a new random id.
#  - a hostname that resolves, which Debian's installer gives with a
#    "127.0.1.1 <hostname>" line in /etc/hosts (and localhost, which every
#    system has but a bare debootstrap root lacks). PCP's pmcd access rules
#    and pmlogger name this host.
host_setup() {
	if [ ! -s /etc/machine-id ]; then
		[ "$(id -u)" = 0 ] || { echo "setup-pcp: need root to create /etc/machine-id" >&2; exit 1; }
		if command -v systemd-machine-id-setup >/dev/null; then
			systemd-machine-id-setup >/dev/null
		elif command -v dbus-uuidgen >/dev/null; then
			dbus-uuidgen --ensure=/etc/machine-id
		elif grep -qsE '^[0-9a-f]{32}$' /var/lib/dbus/machine-id; then
			install -m 0444 /var/lib/dbus/machine-id /etc/machine-id
		else
			tr -d '-' </proc/sys/kernel/random/uuid | install -m 0444 /dev/stdin /etc/machine-id
		fi
		echo "setup-pcp: created /etc/machine-id" >&2
	fi
	local name
	# A root with no /etc/hosts at all (debootstrap makes none) does not
	# even know localhost; Debian's installer writes these two lines.
	if ! getent hosts localhost >/dev/null; then
		[ "$(id -u)" = 0 ] || { echo "setup-pcp: need root to add localhost to /etc/hosts" >&2; exit 1; }
		printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >>/etc/hosts
		echo "setup-pcp: localhost did not resolve; added it to /etc/hosts" >&2
	fi
	name=$(hostname)
	if ! getent hosts "$name" >/dev/null; then
		[ "$(id -u)" = 0 ] || { echo "setup-pcp: need root to add $name to /etc/hosts" >&2; exit 1; }
		printf '127.0.1.1\t%s\n' "$name" >>/etc/hosts
		echo "setup-pcp: $name did not resolve; added it to /etc/hosts as 127.0.1.1" >&2
	fi
}
host_setup
