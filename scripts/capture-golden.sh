#!/usr/bin/env bash
#
# capture-golden.sh: record real PCP 6.0.3 protocol traffic as golden PDU
# files for the pdu package's tests.
#
# It starts private pmcd instances (never the system one) on private ports
# (reserved as the Go tests' testbed reserves them, see pick_port), runs
# PCP's own tools against them while dumpcap records the traffic, and
# turns each TCP connection into pdu/testdata/captures/<scenario>.pdus
# with scripts/capture/pdus (which reads the captures with tshark) and
# also writes the directory's
# README.md. Needs root (to capture on lo), PCP with its sample PMDA,
# tshark/dumpcap, go, and PCP's python bindings for the system python3. Re-runnable: every process it starts is stopped and its
# work directory removed on exit, and old .pdus files are replaced.
#
# usage: scripts/capture-golden.sh [output-dir]
#
# GOPCP_CAPTURE_KEEP=1 keeps the work directory (captures, logs) for study.

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/pdu/testdata/captures}
capdir=$repo/scripts/capture

die() { echo "capture-golden: $*" >&2; exit 1; }
note() { echo "capture-golden: $*" >&2; }

[ "$(id -u)" = 0 ] || die "must run as root to capture on lo"
for tool in tshark dumpcap go ss; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done
# pcp.env puts pcp.conf's settings (PCP_BINADM_DIR, PCP_PMDAS_DIR, ...)
# into the environment, as PCP's own scripts do.
pcpenv=${PCP_DIR:-}/etc/pcp.env
[ -f "$pcpenv" ] || die "PCP is not installed (no $pcpenv)"
# shellcheck disable=SC1090
set +u
. "$pcpenv"
set -u
pmcd_bin=$PCP_BINADM_DIR/pmcd
[ -x "$pmcd_bin" ] || die "no pmcd at $pmcd_bin"
sample_dir=$PCP_PMDAS_DIR/sample
[ -x "$sample_dir/pmdasample" ] || die "no sample PMDA in $sample_dir"
python=/usr/bin/python3
$python -c 'import pcp.pmapi' 2>/dev/null || die "PCP python bindings missing for $python"

work=$(mktemp -d /tmp/gopcp-capture.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/log" "$work/run" "$work/tmp/pmlogger" "$work/pmdas/sample" "$work/pcap"
pids=()

cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        stop_pid "$pid"
    done
    if [ -n "${GOPCP_CAPTURE_KEEP:-}" ]; then
        note "kept work directory $work"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stop_pid asks a process we started to finish, then kills it.
stop_pid() {
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# forget drops a stopped pid from the cleanup list.
forget() {
    local keep=() p
    for p in "${pids[@]}"; do
        [ "$p" = "$1" ] || keep+=("$p")
    done
    pids=("${keep[@]}")
}

# pick_port VAR sets VAR to a free private port and reserves it until the
# script exits, as the Go tests' testbed does, so that neither a test run
# nor this script takes a port the other has handed out but not yet
# bound: the range is the first of testbed's that lies outside the
# kernel's ephemeral range (where any connection on the machine may take
# a port), and the reservation is a flock on the port's file in
# /tmp/gopcp-testbed-ports, held on a descriptor of this shell.
port_lock_dir=/tmp/gopcp-testbed-ports
port_lo= port_hi=
choose_port_range() {
    local lo=0 hi=0 r
    read -r lo hi </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
    for r in 44400-44999 20400-20999 30400-30999; do
        if [ "${r#*-}" -lt "$lo" ] || [ "${r%-*}" -gt "$hi" ]; then
            port_lo=${r%-*} port_hi=${r#*-}
            return
        fi
    done
    port_lo=44400 port_hi=44999
}
picked=" "
pick_port() {
    local var=$1 p i fd lock
    [ -n "$port_lo" ] || choose_port_range
    if [ ! -d "$port_lock_dir" ]; then
        mkdir -p "$port_lock_dir" && chmod 1777 "$port_lock_dir"
    fi
    for i in $(seq 400); do
        p=$((port_lo + RANDOM % (port_hi - port_lo + 1)))
        case "$picked" in *" $p "*) continue ;; esac
        lock=$port_lock_dir/$p
        # an existing file is only opened, never created (a sticky
        # directory may refuse O_CREAT on another user's file)
        [ -e "$lock" ] || (set -C; : >"$lock") 2>/dev/null || true
        exec {fd}<"$lock" || continue
        if flock -n "$fd" && [ -z "$(ss -Htan "( sport = :$p or dport = :$p )")" ]; then
            picked="$picked$p "
            printf -v "$var" %s "$p"
            return 0
        fi
        exec {fd}<&-
    done
    die "no free port in $port_lo-$port_hi"
}

# The private namespace: pmcd's own metrics plus the sample subtree, as
# the sample PMDA's Install script would add it.
cat >"$work/root_sample" <<EOF
root {
	sample
}

#define SAMPLE 29
#include "$sample_dir/pmns"
EOF
pmns=$work/root
"$PCP_BINADM_DIR/pmnsmerge" "$PCP_VAR_DIR/pmns/root_pmcd" "$work/root_sample" "$pmns" >/dev/null
# The sample PMDA ships its help text unbuilt; build it privately and point
# only the agent at it through PCP_PMDAS_DIR.
sed -e 's/^@ SAMPLE\./@ 29./' "$sample_dir/help" |
    "$PCP_BINADM_DIR/newhelp" -n "$pmns" -v 2 -o "$work/pmdas/sample/help"
sample_cmd="/usr/bin/env PCP_PMDAS_DIR=$work/pmdas $sample_dir/pmdasample -d 29"

pdus=$work/pdus
(cd "$repo" && go build -o "$pdus" ./scripts/capture/pdus)

export PCP_RUN_DIR=$work/run PCP_TMP_DIR=$work/tmp
unset PMCD_PORT PMCD_LOCAL PMPROXY_HOST PMLOGGER_PORT

# start_pmcd NAME PORT CONF starts a private pmcd and waits until it
# answers; its pid is left in $pmcd_pid.
start_pmcd() {
    local name=$1 port=$2 conf=$3 i
    (cd "$work/log" && exec "$pmcd_bin" -f -A -p "$port" -c "$conf" -n "$pmns" \
        -s "$work/run/$name.socket" -l "$work/log/$name.log" \
        -x "$work/log/$name.fatal" >"$work/log/$name.out" 2>&1) &
    pmcd_pid=$!
    pids+=("$pmcd_pid")
    for i in $(seq 300); do
        if pminfo -h "localhost:$port" -f pmcd.agent.status 2>/dev/null |
            grep -q '"sample"\] value 0'; then
            return 0
        fi
        kill -0 "$pmcd_pid" 2>/dev/null || break
        sleep 0.1
    done
    cat "$work/log/$name.log" "$work/log/$name.out" >&2 || true
    die "pmcd $name on port $port did not start"
}

# start_capture FILTER NAME records loopback traffic to
# $work/pcap/NAME.pcap. It uses dumpcap, tshark's capture engine, which
# starts in a fraction of the time tshark itself takes.
start_capture() {
    local filter=$1 pcap=$work/pcap/$2.pcap i
    dumpcap -q -i lo -f "$filter" -w "$pcap" >"$pcap.err" 2>&1 &
    capture_pid=$!
    pids+=("$capture_pid")
    for i in $(seq 100); do
        grep -qs '^File:' "$pcap.err" && break
        sleep 0.1
    done
    grep -qs '^File:' "$pcap.err" || die "dumpcap did not start: $(cat "$pcap.err")"
    # A margin so the first SYN is not lost while capture begins.
    sleep 0.3
}

stop_capture() {
    # Let the last segments (FINs included) reach the capture.
    sleep 0.3
    kill -INT "$capture_pid" 2>/dev/null || true
    wait "$capture_pid" 2>/dev/null || true
    forget "$capture_pid"
}

# run_cmd OK|FAIL CMD... runs a scenario's command, logging its output and
# checking it succeeds or fails as the scenario intends.
run_cmd() {
    local expect=$1 rc=0
    shift
    echo "+ $*" >>"$work/log/commands.log"
    "$@" >>"$work/log/commands.log" 2>&1 || rc=$?
    if [ "$expect" = OK ] && [ $rc -ne 0 ]; then
        tail -20 "$work/log/commands.log" >&2
        die "command failed (exit $rc): $*"
    fi
    if [ "$expect" = FAIL ] && [ $rc -eq 0 ]; then
        die "command was meant to fail: $*"
    fi
}

# split PCAP NAME PORT WANT[:INDEX] COMMENT... writes the connections to
# PORT in $work/pcap/PCAP.pcap as $out/NAME.pdus; with INDEX, only that
# one of WANT connections.
split() {
    local pcap=$1 name=$2 port=$3 want=${4%%:*} index=0
    [[ $4 == *:* ]] && index=${4##*:}
    shift 4
    local args=() c
    for c in "$@"; do
        args+=(-comment "$c")
    done
    "$pdus" split -pcap "$work/pcap/$pcap.pcap" -port "$port" -name "$name" \
        -out "$out" -want "$want" -index "$index" "${args[@]}"
}

# retry runs a capture scenario up to three times: now and then dumpcap
# reports itself ready yet records nothing, which split then detects.
retry() {
    local i
    for i in 1 2 3; do
        "$@" && return 0
        note "attempt $i of $1 $2 failed; $(grep -hs 'Packets captured' "$work"/pcap/*.err | tail -1)"
    done
    die "giving up on $*"
}

# capture EXPECT NAME DESCRIPTION CMD... records one client command
# against the main pmcd.
capture() { retry capture_once "$@"; }

capture_once() {
    local expect=$1 name=$2 desc=$3
    shift 3
    start_capture "tcp port $port_a" "$name"
    run_cmd "$expect" "$@"
    stop_capture
    split "$name" "$name" "$port_a" 1 "scenario: $desc" "command: $*" \
        "connection: $(basename "$1") -> pmcd (pipe sample PMDA)"
}

mkdir -p "$out"
rm -f "$out"/*.pdus

# --- client <-> pmcd --------------------------------------------------------

pick_port port_a
host=localhost:$port_a
cat >"$work/pmcd-a.conf" <<EOF
pmcd	2	dso	pmcd_init	$PCP_PMDAS_DIR/pmcd/pmda_pmcd.so
sample	29	pipe	binary	$sample_cmd -l $work/log/sample-a.log
EOF
start_pmcd pmcd-a "$port_a" "$work/pmcd-a.conf"
note "pmcd for client scenarios on port $port_a"

capture OK pminfo-m "pminfo -m: name to PMID" pminfo -h "$host" -m sample.long.one
capture OK pminfo-d "pminfo -d: metric descriptor" pminfo -h "$host" -d sample.long.one
capture OK pminfo-f "pminfo -f: fetch one value" pminfo -h "$host" -f sample.long.one
capture OK pminfo-F "pminfo -F: fetch all instances" pminfo -h "$host" -F sample.colour
capture OK pminfo-T "pminfo -T: metric and instance domain help text" \
    pminfo -h "$host" -T sample.long.one sample.colour
capture OK pminfo-t "pminfo -t: one-line help text" pminfo -h "$host" -t sample.long.one
capture OK pminfo-l "pminfo -l: context, domain, indom, cluster, item and instance labels" \
    pminfo -h "$host" -l sample.colour
capture OK pminfo-x-events "pminfo -x -f: event records unpacked" \
    pminfo -h "$host" -x -f sample.event.records
capture OK pminfo-string "pminfo -f: a string value" pminfo -h "$host" -f sample.string.hullo
capture OK pminfo-aggregate "pminfo -f: an aggregate value" \
    pminfo -h "$host" -f sample.aggregate.hullo
capture OK pminfo-traverse "pminfo NAME: list the leaves of a subtree" pminfo -h "$host" sample
capture OK pminfo-instances "pminfo -f: instance domain listing" pminfo -h "$host" -f sample.colour
capture OK pminfo-pmid "pminfo PMID: PMID to name" pminfo -h "$host" -m 29.0.10
capture FAIL pminfo-unknown-name "pminfo: unknown metric name (error path)" \
    pminfo -h "$host" -f no.such.metric
capture FAIL pminfo-unknown-pmid "pminfo: unknown PMID (error path)" pminfo -h "$host" -d 29.0.999
capture OK pmprobe-I "pmprobe -I: instance names" pmprobe -h "$host" -I sample.colour
# pmprobe 6.0.3 refuses -v together with -I, so values are a scenario of
# their own.
capture OK pmprobe-v "pmprobe -v: values" pmprobe -h "$host" -v sample.colour sample.long.one
capture OK pmval "pmval: three samples" pmval -h "$host" -s 3 -t 0.2 sample.long.one
capture OK pmval-i "pmval -i: instance profile before fetches" \
    pmval -h "$host" -s 3 -t 0.2 -i red,blue sample.colour
capture OK pmstore "pmstore: a 32-bit value" pmstore -h "$host" sample.write_me 42
capture OK pmstore-string "pmstore: a string value" pmstore -h "$host" sample.string.write_me gopcp
capture FAIL pmstore-readonly "pmstore: read-only metric, refused by the PMDA" \
    pmstore -h "$host" sample.long.one 5
capture FAIL pmstore-badvalue "pmstore: bad value, refused by pmstore before any store PDU" \
    pmstore -h "$host" sample.write_me not-a-number
capture OK pminfo-container "pminfo --container: ATTR with a container name" \
    pminfo -h "$host" --container=gopcp-test -f sample.long.one
capture FAIL pminfo-auth-plain "SASL PLAIN attempt with a made-up user: AUTH exchange, refused" \
    pminfo -h "$host?username=gopcp-test&password=not-a-secret&method=plain" -f sample.long.one
capture OK pmapi-children "pmGetChildren of a dynamic and a static subtree (PCP python bindings)" \
    $python "$capdir/pmapi_calls.py" "$host" children sample.secret sample.long
capture OK pmapi-children-status "pmGetChildrenStatus (PCP python bindings)" \
    $python "$capdir/pmapi_calls.py" "$host" children-status sample.secret
capture OK pmapi-descs "pmLookupDescs (PCP python bindings)" \
    $python "$capdir/pmapi_calls.py" "$host" descs sample.long.one sample.colour sample.string.hullo

# --- pmlogger <-> pmcd and pmlc <-> pmlogger ---------------------------------

cat >"$work/pmlogger.config" <<'EOF'
log mandatory on 100 msec {
    sample.long.one
    sample.colour
    sample.event.records
}
EOF
cat >"$work/pmlc.in" <<'EOF'
status
query sample.long.one
log mandatory on 1 sec sample.long.ten
log mandatory off sample.colour
log advisory on 2 sec sample.long.hundred
query { sample.long.ten sample.colour sample.long.hundred }
new volume
flush
status
EOF

# start_pmlogger NAME BASE ARGS... starts pmlogger on the main pmcd with
# PMLOGGER_PORT=BASE and waits for its port map; the control port is left
# in $logger_port and must be BASE, which the capture filter already names.
start_pmlogger() {
    local name=$1 base=$2 map i
    shift 2
    PMLOGGER_PORT=$base pmlogger -h "$host" -c "$work/pmlogger.config" \
        -l "$work/log/$name.log" "$@" "$work/$name" &
    logger_pid=$!
    pids+=("$logger_pid")
    map=$work/tmp/pmlogger/$logger_pid
    for i in $(seq 100); do
        [ -f "$map" ] && [ "$(wc -l <"$map")" -ge 3 ] && break
        sleep 0.1
    done
    [ -f "$map" ] || die "pmlogger $name wrote no port map: $(cat "$work/log/$name.log")"
    logger_port=$(head -1 "$map")
    [ "$logger_port" = "$base" ] || die "pmlogger took port $logger_port, not $base; re-run"
}

stop_pmlogger() {
    stop_pid "$logger_pid"
    forget "$logger_pid"
}

# pmlogger_scenario records pmlogger's connection to pmcd, and pmlc's to
# both pmlogger and pmcd, as pmlc changes what pmlogger logs.
pmlogger_scenario() {
    local log_base
    pick_port log_base
    start_capture "tcp port $port_a or tcp port $log_base" pmlogger
    start_pmlogger pmlogger "$log_base"
    # Let it log a dozen samples before pmlc changes anything.
    sleep 1.5
    run_cmd OK pmlc -n "$pmns" -h localhost -p "$logger_port" -e <"$work/pmlc.in"
    stop_pmlogger
    stop_capture
    # pmlogger connects to pmcd first; pmlc then connects to pmcd too, for
    # the descriptors and instance domains its requests name.
    split pmlogger pmlogger-pmcd "$port_a" 2:1 \
        "scenario: pmlogger recording sample.long.one, sample.colour and sample.event.records every 100 msec, then changed by pmlc" \
        "command: pmlogger -h $host -c pmlogger.config -l pmlogger.log ARCHIVE" \
        "pmlogger.config: $(tr '\n' ' ' <"$work/pmlogger.config")" \
        "connection: pmlogger -> pmcd (pipe sample PMDA)" &&
    split pmlogger pmlc-pmcd "$port_a" 2:2 \
        "scenario: pmlc looking up descriptors and instances for its requests to pmlogger" \
        "command: pmlc -n PMNS -h localhost -p $logger_port -e < pmlc.in" \
        "pmlc.in: $(tr '\n' ';' <"$work/pmlc.in")" \
        "connection: pmlc -> pmcd (pipe sample PMDA)" &&
    split pmlogger pmlc-pmlogger "$logger_port" 1 \
        "scenario: pmlc controlling pmlogger over its TCP control port (LOG_PDU_VERSION 3)" \
        "command: pmlc -n PMNS -h localhost -p $logger_port -e < pmlc.in" \
        "pmlc.in: $(tr '\n' ';' <"$work/pmlc.in")" \
        "connection: pmlc -> pmlogger"
}

# pmlc_v2_scenario: pmlogger -I 2 speaks the older pmlc protocol,
# answering with LOG_STATUS_V2.
pmlc_v2_scenario() {
    local log_base
    pick_port log_base
    start_capture "tcp port $log_base" pmlc-pmlogger-v2
    start_pmlogger pmlogger-v2 "$log_base" -I 2
    run_cmd OK pmlc -n "$pmns" -h localhost -p "$logger_port" -e <<<"status"
    stop_pmlogger
    stop_capture
    split pmlc-pmlogger-v2 pmlc-pmlogger-v2 "$logger_port" 1 \
        "scenario: pmlc status against pmlogger -I 2 (LOG_PDU_VERSION 2)" \
        "command: pmlogger -I 2 -h $host ...; pmlc -n PMNS -h localhost -p $logger_port -e <<< status" \
        "connection: pmlc -> pmlogger"
}

retry pmlogger_scenario
retry pmlc_v2_scenario

# --- store refused by pmcd's [access] section --------------------------------

pick_port port_b
cat >"$work/pmcd-b.conf" <<EOF
pmcd	2	dso	pmcd_init	$PCP_PMDAS_DIR/pmcd/pmda_pmcd.so
sample	29	pipe	binary	$sample_cmd -l $work/log/sample-b.log

[access]
disallow ".*" : store;
disallow ":*" : store;
EOF
start_pmcd pmcd-b "$port_b" "$work/pmcd-b.conf"

denied_scenario() {
    start_capture "tcp port $port_b" pmstore-denied
    run_cmd FAIL pmstore -h "localhost:$port_b" sample.write_me 42
    stop_capture
    split pmstore-denied pmstore-denied "$port_b" 1 \
        "scenario: pmstore refused by pmcd's [access] section (PM_ERR_PERMISSION from pmcd)" \
        "command: pmstore -h localhost:$port_b sample.write_me 42" \
        "pmcd.conf [access]: disallow \".*\" : store; disallow \":*\" : store;" \
        "connection: pmstore -> pmcd"
}
retry denied_scenario
stop_pid "$pmcd_pid"
forget "$pmcd_pid"

# --- pmcd <-> pmdasample over a TCP socket ----------------------------------

# agent_capture NAME DESCRIPTION COMMANDS... starts a pmcd whose sample
# PMDA is a socket agent, runs the commands (each one shell word list in a
# string, HOST and SOCK standing for the pmcd) and records pmcd's
# connection to the agent from its handshake to pmcd's shutdown.
agent_capture() { retry agent_capture_once "$@"; }

agent_capture_once() {
    local name=pmcd-pmdasample-$1 desc=$2 port agent c
    shift 2
    pick_port port
    pick_port agent
    cat >"$work/$name.conf" <<EOF
pmcd	2	dso	pmcd_init	$PCP_PMDAS_DIR/pmcd/pmda_pmcd.so
sample	29	socket	inet $agent	$sample_cmd -l $work/log/$name-sample.log -i $agent
EOF
    start_capture "tcp port $agent" "$name"
    start_pmcd "$name" "$port" "$work/$name.conf"
    local comments=("scenario: $desc")
    for c in "$@"; do
        local cmd=${c//HOST/localhost:$port}
        cmd=${cmd//SOCK/$work/run/$name.socket}
        comments+=("command: $c")
        # shellcheck disable=SC2086
        run_cmd ANY $cmd
    done
    stop_pid "$pmcd_pid"
    forget "$pmcd_pid"
    stop_capture
    comments+=("connection: pmcd -> pmdasample (socket agent, pmcd connects); HOST is the private pmcd")
    split "$name" "$name" "$agent" 1 "${comments[@]}"
}

agent_capture handshake "pmcd starts the agent, negotiates, and shuts it down; no client touches it"
agent_capture fetch "fetches through pmcd: PROFILE, FETCH, RESULT, DESC_REQ/DESC, end of client context" \
    "pminfo -h HOST -f sample.long.one sample.colour"
agent_capture desc "descriptor lookups through pmcd" \
    "pminfo -h HOST -d sample.long.one sample.string.hullo" \
    "$python $capdir/pmapi_calls.py HOST descs sample.long.one sample.colour"
agent_capture instance "instance domain requests through pmcd" \
    "pmprobe -h HOST -I sample.colour"
agent_capture text "help and one-line text for a metric and an instance domain" \
    "pminfo -h HOST -T sample.long.one sample.colour" \
    "pminfo -h HOST -t sample.long.one"
agent_capture pmns "dynamic namespace (sample.secret): traverse, names, PMID to name, children" \
    "pminfo -h HOST -m sample.secret" \
    "pminfo -h HOST -m 29.0.1000" \
    "$python $capdir/pmapi_calls.py HOST children sample.secret"
agent_capture labels "labels for a metric with an instance domain" \
    "pminfo -h HOST -l sample.colour"
agent_capture profile "instance profile from pmval -i forwarded to the agent" \
    "pmval -h HOST -s 2 -t 0.2 -i red,blue sample.colour"
agent_capture store "stores: accepted, and refused by the agent" \
    "pmstore -h HOST sample.write_me 42" \
    "pmstore -h HOST sample.long.one 5"
agent_capture attr "client attributes forwarded as ATTR: unix socket credentials, container name" \
    "pminfo -h unix:SOCK -f sample.long.one" \
    "pminfo -h HOST --container=gopcp-test -f sample.long.one"
agent_capture events "event records fetched from the agent" \
    "pminfo -h HOST -x -f sample.event.records"

"$pdus" readme -dir "$out" \
    -note "CONTROL_REQ=nothing in PCP 6.0.3 sends it: libpcp has no encoder, and libpcp_pmda's main loop only logs and ignores it" \
    -note "FETCH=only pmcd -> PMDA: 6.0.3 clients send HIGHRES_FETCH because pmcd always advertises PDU_FLAG_HIGHRES" \
    -note "RESULT=clients send it only as a pmStore request; pmcd gets it from PMDAs; pmlogger answers LOG_CONTROL with it" \
    -note "ATTR=also PDU_AUTH (same code) in the SASL exchange" \
    -note "LOG_STATUS_V2=pmlogger -I 2 (old pmlc protocol)"
note "wrote $(ls "$out"/*.pdus | wc -l) capture files and README.md to $out"
