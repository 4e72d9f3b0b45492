#!/usr/bin/env bash
# `cudnnctl doctor --json` once on every node of a Slurm cluster, into a shared directory, then `cudnnctl report`
# of that directory (docs/fleet.md).
#
# One job step of one task per node (srun --nodes=N --ntasks-per-node=1), not a job array: an array's tasks are
# placed by the scheduler and two of them may land on one node while another node gets none; one step over N
# nodes is one allocation with exactly one task on each. Each task writes OUTDIR/<node>.json (the Slurm node
# name, SLURMD_NODENAME, else the host name) through a temporary name in OUTDIR renamed over it, so a reader
# never sees half a document. The doctor's exit status 1 (errors found on that node) is a finding, not a failure
# of the job: the task succeeds with a document. A node with no document (status 2 or more, the time limit, the
# node failing) leaves OUTDIR/<node>.err with why, and is listed at the end.
#
# usage: scripts/fleet/slurm-doctor.sh OUTDIR [srun options...]
#   OUTDIR must be the same directory on every node (a shared file system) and on this one.
#   srun options choose the nodes: -p PARTITION, -w NODELIST, --nodes=N, -A ACCOUNT, ... Without --nodes/-N
#   (or -w/--nodelist) the step gets as many nodes as sinfo lists responding (in every partition: give
#   --nodes with -p on a cluster of several partitions).
# environment:
#   CUDNNCTL              the program, the same path on every node (default: cudnnctl on PATH)
#   CUDNNCTL_DOCTOR_ARGS  more doctor options, split on blanks (e.g. "--no-compile --no-frameworks")
#   CUDNNCTL_FLEET_TIMEOUT  seconds each node's doctor may take (default 300); the step's --time is that plus a
#                         minute, rounded up to minutes
# exit status: report's, or 1 when a node gave no document (after the report of the others), 2 on bad usage.
set -euo pipefail
usage() {
        sed -n 's/^# usage: //p' "$0" >&2
        exit 2
}
[ $# -ge 1 ] || usage
case $1 in -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
outdir=$1
shift
cudnnctl=${CUDNNCTL:-cudnnctl}
limit=${CUDNNCTL_FLEET_TIMEOUT:-300}
case $limit in '' | *[!0-9]*) echo "slurm-doctor: CUDNNCTL_FLEET_TIMEOUT must be a number of seconds" >&2; exit 2 ;; esac
for tool in srun sinfo; do
        command -v "$tool" >/dev/null || { echo "slurm-doctor: $tool is not on PATH" >&2; exit 2; }
done
command -v "$cudnnctl" >/dev/null || { echo "slurm-doctor: $cudnnctl not found (set CUDNNCTL)" >&2; exit 2; }
case $cudnnctl in */*) cudnnctl=$(cd "$(dirname "$cudnnctl")" && pwd)/$(basename "$cudnnctl") ;; esac
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

srun_opts=("$@")
have_nodes=0
for o in "${srun_opts[@]}"; do
        case $o in -N | -N* | --nodes | --nodes=* | -w | -w* | --nodelist | --nodelist=*) have_nodes=1 ;; esac
done
if [ $have_nodes = 0 ]; then
        n=$(sinfo -h -N -r -o '%N' | sort -u | wc -l)
        [ "$n" -ge 1 ] || { echo "slurm-doctor: sinfo lists no responding node" >&2; exit 1; }
        srun_opts+=("--nodes=$n")
fi
minutes=$(((limit + 60 + 59) / 60))

# What each task runs: bash -c TASK task OUTDIR CUDNNCTL LIMIT [DOCTOR ARGS...]
# shellcheck disable=SC2016 # expanded by the task's bash
task='set -u
out=$1 exe=$2 limit=$3
shift 3
node=${SLURMD_NODENAME:-$(hostname)}
tmp=$out/.$node.json.$$
rm -f "$out/$node.err"
rc=0
timeout --kill-after=10 "$limit" "$exe" doctor --json --quiet "$@" >"$tmp" 2>"$tmp.stderr" || rc=$?
if { [ $rc = 0 ] || [ $rc = 1 ]; } && [ -s "$tmp" ]; then
        mv -f "$tmp" "$out/$node.json"
        rm -f "$tmp.stderr"
        exit 0
fi
case $rc in 124 | 137) why="over the time limit of $limit s" ;; *) why="doctor exited with status $rc" ;; esac
{ echo "$node: $why"; cat "$tmp.stderr"; } >"$out/.$node.err.$$"
mv -f "$out/.$node.err.$$" "$out/$node.err"
rm -f "$tmp" "$tmp.stderr"
exit 1'
read -r -a doctor_args <<<"${CUDNNCTL_DOCTOR_ARGS:-}"

echo "slurm-doctor: ${srun_opts[*]} --ntasks-per-node=1 --time=$minutes -> $outdir"
start=$(date +%s)
srun_rc=0
srun --job-name=cudnnctl-doctor --ntasks-per-node=1 --time="$minutes" --kill-on-bad-exit=0 --no-kill \
        "${srun_opts[@]}" bash -c "$task" task "$outdir" "$cudnnctl" "$limit" "${doctor_args[@]}" || srun_rc=$?
docs=("$outdir"/*.json)
[ -e "${docs[0]}" ] || docs=()
echo "slurm-doctor: ${#docs[@]} documents in $outdir ($(($(date +%s) - start)) s, srun status $srun_rc)"
failed=0
for e in "$outdir"/*.err; do
        [ -e "$e" ] || continue
        failed=1
        echo "slurm-doctor: no document from $(basename "$e" .err): $(head -n 1 "$e")" >&2
done
[ $srun_rc = 0 ] || [ $failed = 1 ] || {
        echo "slurm-doctor: srun failed (status $srun_rc) and left no .err: see its messages above" >&2
        failed=1
}
[ ${#docs[@]} -gt 0 ] || { echo "slurm-doctor: no document at all" >&2; exit 1; }
rc=0
"$cudnnctl" report "$outdir" --html "$outdir/report.html" || rc=$?
echo "slurm-doctor: report status $rc; the page: $outdir/report.html"
[ $failed = 0 ] || [ $rc -ne 0 ] || rc=1
exit $rc
