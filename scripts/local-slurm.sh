#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the test of the guide's job-array recipes
# (tests/tests/end_to_end/slurm_cli.rs).
#
#   bash scripts/local-slurm.sh start    # a cluster that answers, or a message why not (exit 0)
#   bash scripts/local-slurm.sh status   # what answers and what this script started (exit 1: none)
#   bash scripts/local-slurm.sh stop     # stops what `start` started, and nothing else
#
# start: when a Slurm controller already answers (a real cluster, or an earlier start) it is
# used as it is. Otherwise, as root, it installs Debian's slurmctld, slurmd, slurm-client and
# munge when they are missing (about 20 s), starts munged if no munge daemon answers, writes a
# slurm.conf under $DRAFTI_SLURM_DIR (default /var/tmp/drafti-slurm) naming this host at
# 127.0.0.1 with the CPUs and memory that `slurmd -C` reports (no accounting, no cgroups, a
# scheduler that starts jobs at once), links /etc/slurm/slurm.conf to it when that file does not
# exist, and starts slurmctld and slurmd directly (no systemd needed); the cluster is up in about
# a second. An /etc/slurm/slurm.conf of the machine's own whose controller does not answer is
# left as it is: the cluster runs from the script's config alone, which the Slurm tools read
# with SLURM_CONF set to it (the script says so). What it started (pids, the link) is recorded
# in $DRAFTI_SLURM_DIR/started, so `stop` stops only that. When it cannot run a cluster (not
# root and no Slurm; the packages cannot be installed) it says so and exits 0, and the test
# skips saying why.
#
# When start leaves a cluster that answers, it writes $DRAFTI_SLURM_DIR/cluster, one line
# `SLURM_CONF=PATH` (PATH empty: the tools' default config): the Slurm test then uses that
# config, and fails, rather than skips, if the cluster does not answer. `stop` removes it.
set -euo pipefail

DIR=${DRAFTI_SLURM_DIR:-/var/tmp/drafti-slurm}
CONF=$DIR/slurm.conf
STARTED=$DIR/started
CLUSTER=$DIR/cluster
SYSTEM_CONF=/etc/slurm/slurm.conf
PACKAGES=(slurmctld slurmd slurm-client munge)

say() { echo "local-slurm: $*" >&2; }

# Exit 0 with the reason the cluster cannot be run here (the test then skips).
cannot() {
    rm -f "$CLUSTER" 2>/dev/null || true
    say "no Slurm cluster: $*; the Slurm test (tests/tests/end_to_end/slurm_cli.rs) will skip"
    exit 0
}

# Tells the Slurm test that a cluster answers, and which config its tools read (CONF; empty:
# their default). Best effort: a user who cannot write $DIR uses a cluster that answers anyway.
mark_answering() {
    { mkdir -p "$DIR" && echo "SLURM_CONF=$1" >"$CLUSTER"; } 2>/dev/null || true
}

# The controller that the config FILE names (SlurmctldHost, or the older ControlMachine).
controller_of() {
    sed -n -E 's/^[[:space:]]*(SlurmctldHost|ControlMachine)[[:space:]]*=[[:space:]]*([^[:space:]#]+).*/\2/p' "$1" 2>/dev/null |
        head -n 1
}

# A controller answers and at least one node is up (idle, mixed or allocated).
cluster_answers() {
    command -v sinfo >/dev/null || return 1
    timeout 10 scontrol ping >/dev/null 2>&1 || return 1
    timeout 10 sinfo --noheader --responding --format=%t 2>/dev/null |
        grep -Eq '^(idle|mix|alloc|comp)'
}

munge_answers() {
    command -v munge >/dev/null && munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1
}

# Waits up to 5 s for the daemon NAME to write its pid to FILE (the daemons fork and write it
# after their start) and prints the pid, or nothing.
wait_pid() {
    local name=$1 file=$2 pid=
    for _ in $(seq 1 50); do
        pid=$(pid_of "$name" "$file")
        [ -n "$pid" ] && break
        sleep 0.1
    done
    echo "$pid"
}

# Records what was started, one "pid NAME PID" or "link PATH" a line.
record() { echo "$*" >>"$STARTED"; }

# Whether process PID runs and is named NAME (a zombie, dead but not yet reaped, does not run).
alive() {
    local pid=$1 name=$2 stat
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 1
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
    # pid (comm) STATE ...
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# PID of the daemon named NAME read from pid file FILE, or nothing.
pid_of() {
    local name=$1 file=$2 pid
    [ -s "$file" ] || return 0
    pid=$(tr -dc '0-9' <"$file")
    if [ -n "$pid" ] && alive "$pid" "$name"; then
        echo "$pid"
    fi
}

install_packages() {
    local missing=()
    command -v slurmctld >/dev/null || missing+=(slurmctld)
    command -v slurmd >/dev/null || missing+=(slurmd)
    command -v sbatch >/dev/null || missing+=(slurm-client)
    command -v munged >/dev/null || missing+=(munge)
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || cannot "${missing[*]} missing and no apt-get to install them"
    say "installing ${PACKAGES[*]} (about 20 s)"
    local started=$SECONDS
    local apt=(apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120)
    if ! DEBIAN_FRONTEND=noninteractive "${apt[@]}" "${PACKAGES[@]}" >"$DIR/install.log" 2>&1; then
        # A fresh machine has no package lists yet.
        if ! { apt-get update -qq -o DPkg::Lock::Timeout=120 &&
            DEBIAN_FRONTEND=noninteractive "${apt[@]}" "${PACKAGES[@]}"; } >"$DIR/install.log" 2>&1; then
            tail -n 5 "$DIR/install.log" >&2
            cannot "the packages ${PACKAGES[*]} could not be installed (log: $DIR/install.log)"
        fi
    fi
    say "installed in $((SECONDS - started)) s"
}

start_munge() {
    if munge_answers; then
        return 0
    fi
    local key=/etc/munge/munge.key
    if [ ! -s "$key" ]; then
        install -d -o munge -g munge -m 0700 /etc/munge
        dd if=/dev/urandom of="$key" bs=128 count=1 status=none
        chown munge:munge "$key"
        chmod 0400 "$key"
    fi
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
    runuser -u munge -- /usr/sbin/munged
    local pid
    pid=$(wait_pid munged /run/munge/munged.pid)
    [ -n "$pid" ] || { say "munged did not start"; exit 1; }
    record "pid munged $pid"
    munge_answers || { say "munged started (pid $pid) but does not answer"; exit 1; }
}

write_conf() {
    local node cpus_line host
    host=$(hostname -s)
    # NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105
    node=$(slurmd -C | head -n 1)
    cpus_line=${node#NodeName=* }
    cat >"$CONF" <<EOF
# Written by scripts/local-slurm.sh: a single-node cluster on this machine for drafti's tests.
ClusterName=drafti-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 $cpus_line State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# The advice for a shell that is to use the cluster started from $CONF alone.
advise_conf() {
    say "$SYSTEM_CONF is not this cluster's config: in a shell, \`export SLURM_CONF=$CONF\` before sinfo, sbatch or squeue (the Slurm test reads it from $CLUSTER)"
}

start() {
    if cluster_answers; then
        say "a Slurm cluster answers; using it: $(sinfo --noheader --format='%P %D nodes %c CPUs %t' | head -n 1)"
        mark_answering "${SLURM_CONF:-}"
        return 0
    fi
    # The cluster of an earlier start, run from this script's config alone.
    if [ -s "$STARTED" ] && [ -s "$CONF" ] && SLURM_CONF=$CONF cluster_answers; then
        say "the cluster this script started answers: $(SLURM_CONF=$CONF sinfo --noheader --format='%P %D nodes %c CPUs %t' | head -n 1)"
        mark_answering "$CONF"
        advise_conf
        return 0
    fi
    rm -f "$CLUSTER" 2>/dev/null || true
    [ "$(id -u)" -eq 0 ] || cannot "no controller answers, and starting one needs root"
    mkdir -p "$DIR"
    local own_conf_only=
    if [ -e "$SYSTEM_CONF" ] && [ "$(readlink -f "$SYSTEM_CONF")" != "$(readlink -f "$CONF")" ]; then
        say "$SYSTEM_CONF exists but its controller ($(controller_of "$SYSTEM_CONF")) does not answer; leaving it as it is and starting a cluster from $CONF"
        own_conf_only=1
    fi
    if [ -s "$STARTED" ]; then
        # An earlier start whose daemons died: stop what is left of it first.
        stop
    fi
    install_packages
    mkdir -p "$DIR/state" "$DIR/spool"
    : >"$STARTED"
    start_munge
    write_conf
    if [ ! -e "$SYSTEM_CONF" ]; then
        mkdir -p "$(dirname "$SYSTEM_CONF")"
        ln -s "$CONF" "$SYSTEM_CONF"
        record "link $SYSTEM_CONF"
    fi
    # The checks below, and the daemons, read this config whatever $SYSTEM_CONF says.
    export SLURM_CONF=$CONF
    local started=$SECONDS pid
    # -c: no jobs of an earlier run of this script are recovered.
    slurmctld -c -f "$CONF"
    pid=$(wait_pid slurmctld "$DIR/slurmctld.pid")
    [ -n "$pid" ] || { say "slurmctld did not start (log: $DIR/slurmctld.log)"; exit 1; }
    record "pid slurmctld $pid"
    slurmd -f "$CONF" -N "$(hostname -s)"
    pid=$(wait_pid slurmd "$DIR/slurmd.pid")
    [ -n "$pid" ] || { say "slurmd did not start (log: $DIR/slurmd.log)"; exit 1; }
    record "pid slurmd $pid"
    for _ in $(seq 1 150); do
        if cluster_answers; then
            say "started a single-node cluster in $((SECONDS - started)) s: $(sinfo --noheader --format='%P %D node %c CPUs %m MB %t')"
            say "config $CONF; \`bash scripts/local-slurm.sh stop\` stops it"
            mark_answering "$CONF"
            [ -z "$own_conf_only" ] || advise_conf
            return 0
        fi
        sleep 0.2
    done
    say "the cluster did not come up in 30 s (logs: $DIR/slurmctld.log, $DIR/slurmd.log):"
    sinfo >&2 || true
    exit 1
}

stop() {
    rm -f "$CLUSTER" 2>/dev/null || true
    if [ ! -s "$STARTED" ]; then
        say "nothing started by this script is running"
        rm -f "$STARTED"
        return 0
    fi
    local kind name pid path
    # Newest first: slurmd, slurmctld, the link, munged.
    tac "$STARTED" | while read -r kind name pid; do
        case $kind in
            pid)
                if alive "$pid" "$name"; then
                    kill "$pid"
                    for _ in $(seq 1 100); do
                        alive "$pid" "$name" || break
                        sleep 0.1
                    done
                    if alive "$pid" "$name"; then
                        say "$name (pid $pid) still runs 10 s after SIGTERM"
                    else
                        say "stopped $name (pid $pid)"
                    fi
                fi
                ;;
            link)
                path=$name
                if [ -L "$path" ] && [ "$(readlink "$path")" = "$CONF" ]; then
                    rm -f "$path"
                fi
                ;;
        esac
    done
    rm -f "$STARTED"
}

status() {
    # The config the last start left the tools (the Slurm test reads the same).
    if [ -z "${SLURM_CONF:-}" ] && [ -s "$CLUSTER" ]; then
        local conf
        conf=$(sed -n 's/^SLURM_CONF=//p' "$CLUSTER")
        [ -z "$conf" ] || export SLURM_CONF=$conf
    fi
    if cluster_answers; then
        echo "a Slurm cluster answers${SLURM_CONF:+ (SLURM_CONF=$SLURM_CONF)}:"
        sinfo
    else
        echo "no Slurm cluster answers${SLURM_CONF:+ (SLURM_CONF=$SLURM_CONF)}"
    fi
    if [ -s "$STARTED" ]; then
        echo "started by this script ($STARTED):"
        cat "$STARTED"
    fi
    cluster_answers
}

case ${1:-} in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *)
        echo "usage: $0 start|stop|status" >&2
        exit 2
        ;;
esac
