#!/usr/bin/env bash
# scripts/fleet/slurm-doctor.sh on a real one-node Slurm (Debian's slurm-wlm and munge), started here as root on
# the loopback address in a temporary directory: munged with its own key and socket, slurmctld and slurmd on free
# ports with a generated slurm.conf (proctrack/linuxproc and task/none: no systemd, no cgroups needed). srun runs
# the doctor, the shared directory gets one document per node, report reads it. Everything is stopped in a trap.
# usage: tests/fleet/test_slurm.sh CUDNNCTL [SOURCE_DIR]      exit 77: not root, or Slurm/munge not installed
set -euo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
start=$(date +%s)
say() { echo "test_slurm: $*"; }
skip() { say "SKIP: $*"; exit 77; }
fail() { say "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root (munged and slurmd run as root here)"
PATH=$PATH:/usr/sbin:/sbin
for t in munged mungekey slurmctld slurmd srun sinfo scontrol scancel python3; do
        command -v "$t" >/dev/null || skip "$t is not installed (scripts/deps.sh: slurm-wlm munge)"
done

tmp=$(mktemp -d /tmp/cudnnctl-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
        local rc=$?
        set +e
        if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
                timeout 10 scancel --quiet --full -u root >/dev/null 2>&1
        fi
        for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null; done
        for _ in $(seq 50); do
                alive=0
                for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
                [ $alive = 0 ] && break
                sleep 0.1
        done
        for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
        # slurmstepd processes of this cluster (their command line names our spool directory's node)
        for p in $(pgrep -f "slurmstepd: \[" 2>/dev/null); do
                grep -qs "$tmp" "/proc/$p/environ" && kill -KILL "$p" 2>/dev/null
        done
        if [ $rc != 0 ] && [ $rc != 77 ]; then
                for f in "$tmp"/log/*.log; do
                        [ -f "$f" ] || continue
                        echo "---- $f"
                        tail -n 25 "$f"
                done
        fi
        rm -rf "$tmp"
        say "stopped everything ($(($(date +%s) - start)) s in all)"
        exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/shared"
chmod 755 "$tmp/munge" # munged wants its socket directory searchable by all
# munge: its own key, socket, pid and seed files
mungekey --create --keyfile="$tmp/munge/munge.key" >/dev/null 2>&1 ||
        dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
sock=$tmp/munge/munge.socket
munged --foreground --socket="$sock" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
        --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" --num-threads=2 >"$tmp/log/munged.stderr.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "munged did not make its socket"
munge --socket="$sock" -n </dev/null | unmunge --socket="$sock" >/dev/null || fail "munge/unmunge through $sock"
say "munged up on $sock"

read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
node=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=cudnnctl-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.stderr.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/log/slurmd.stderr.log" 2>&1 &
pids+=($!)
say "slurmctld on 127.0.0.1:$ctld_port, slurmd $node on :$slurmd_port ($cpus CPUs); waiting for the node"
state=
for _ in $(seq 300); do
        state=$(sinfo -h -N -n "$node" -o '%T' 2>/dev/null | head -n 1) || true
        [ "$state" = idle ] && break
        sleep 0.1
done
[ "$state" = idle ] || fail "the node is '$state', not idle, after 30 s"
say "sinfo: $node idle ($(($(date +%s) - start)) s)"

out=$tmp/shared/doctor
have_report=0
"$exe" report --help >/dev/null 2>&1 && have_report=1
[ $have_report = 1 ] || say "NOTE: this cudnnctl has no 'report' command yet: the documents are checked here, report is not"
rc=0
CUDNNCTL=$exe CUDNNCTL_FLEET_TIMEOUT=60 CUDNNCTL_DOCTOR_ARGS="--no-compile --no-frameworks" \
        "$src/scripts/fleet/slurm-doctor.sh" "$out" >"$tmp/run.log" 2>&1 || rc=$?
sed 's/^/  | /' "$tmp/run.log"
say "slurm-doctor.sh exited $rc ($(($(date +%s) - start)) s)"
if [ $have_report = 1 ]; then
        [ $rc = 0 ] || [ $rc = 1 ] || fail "slurm-doctor.sh status $rc"
else
        grep -q "slurm-doctor: 1 documents" "$tmp/run.log" || fail "slurm-doctor.sh made no document"
fi

say "checks: one document per node, each the doctor's, no temporary or .err left"
python3 - "$out" "$node" <<'PY' || fail "the documents"
import json, os, sys
out, node = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(out))
docs = [n for n in names if n.endswith(".json")]
assert docs == [node + ".json"], f"documents {docs}, want [{node}.json]"
left = [n for n in names if n.startswith(".") or n.endswith(".err")]
assert not left, f"left behind: {left}"
d = json.load(open(os.path.join(out, docs[0])))
assert d.get("command") == "doctor", f"command {d.get('command')!r}"
assert d.get("mode") is not None and "findings" in d and "facts" in d, "not a doctor document"
print(f"  {docs[0]}: command doctor, {len(d['findings'])} findings")
PY
if [ $have_report = 1 ]; then
        say "checks: report --json reads the directory (nodes == 1), report.html written"
        [ -s "$out/report.html" ] || fail "no $out/report.html"
        rrc=0
        "$exe" report --json "$out" >"$tmp/report.json" || rrc=$?
        [ $rrc -le 1 ] || fail "report --json exited $rrc"
        python3 - "$tmp/report.json" "$node" <<'PY' || fail "report --json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r.get("command") == "report", r.get("command")
assert r.get("nodes") == 1, f"nodes {r.get('nodes')}"
assert len(r.get("groups", [])) == 1, f"groups {r.get('groups')}"
assert not r.get("unreadable"), f"unreadable {r.get('unreadable')}"
print(f"  report: nodes 1, groups 1 ({r['groups'][0].get('names')})")
PY
fi
say "PASS ($(($(date +%s) - start)) s)"
