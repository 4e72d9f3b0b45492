#!/usr/bin/env bash
# `cudnnctl doctor --json` on every host of a list over ssh, a bounded number at a time, each document fetched
# into OUTDIR/<host>.json (through a temporary name, renamed), then `cudnnctl report OUTDIR` (docs/fleet.md).
#
# usage: scripts/fleet/ssh-doctor.sh HOSTFILE OUTDIR
#   HOSTFILE: one ssh destination per line ([user@]host, or a Host of ~/.ssh/config);
#   blank lines and # comments are skipped.
# environment:
#   CUDNNCTL              the program here, for report and for the copy (default: cudnnctl on PATH)
#   CUDNNCTL_REMOTE       the program's path on the hosts (default: cudnnctl, on their PATH)
#   CUDNNCTL_FLEET_COPY=1 copy this machine's program to each host first (scp into a temporary directory there,
#                         removed after): for hosts without cudnnctl installed (same architecture, glibc 2.36 or
#                         newer for a program built on Debian 12)
#   CUDNNCTL_FLEET_JOBS   hosts at a time (default 8)
#   CUDNNCTL_FLEET_TIMEOUT  seconds each host may take, ssh included (default 300)
#   CUDNNCTL_DOCTOR_ARGS  more doctor options, split on blanks
#   SSH_OPTS              more ssh/scp options, split on blanks (BatchMode=yes and ConnectTimeout=10 are set)
# Hosts that could not be reached (ssh's status 255, or the time limit) are listed in OUTDIR/unreachable.txt,
# hosts where the doctor failed (status 2 or more) in OUTDIR/failed.txt, with why.
# exit status: report's, or 1 when a host gave no document (after the report of the others), 2 on bad usage.
set -euo pipefail
[ $# -eq 2 ] || {
        echo "usage: scripts/fleet/ssh-doctor.sh HOSTFILE OUTDIR" >&2
        exit 2
}
hostfile=$1
outdir=$2
cudnnctl=${CUDNNCTL:-cudnnctl}
remote=${CUDNNCTL_REMOTE:-cudnnctl}
jobs=${CUDNNCTL_FLEET_JOBS:-8}
limit=${CUDNNCTL_FLEET_TIMEOUT:-300}
for v in "$jobs" "$limit"; do
        case $v in '' | *[!0-9]* | 0) echo "ssh-doctor: CUDNNCTL_FLEET_JOBS/TIMEOUT must be positive numbers" >&2; exit 2 ;; esac
done
[ -r "$hostfile" ] || { echo "ssh-doctor: cannot read $hostfile" >&2; exit 2; }
command -v "$cudnnctl" >/dev/null || { echo "ssh-doctor: $cudnnctl not found (set CUDNNCTL)" >&2; exit 2; }
read -r -a ssh_opts <<<"${SSH_OPTS:-}"
ssh_opts=(-o BatchMode=yes -o ConnectTimeout=10 "${ssh_opts[@]}")
read -r -a doctor_args <<<"${CUDNNCTL_DOCTOR_ARGS:-}"
mkdir -p "$outdir"
work=$(mktemp -d "$outdir/.ssh-doctor.XXXXXX")
trap 'rm -rf "$work"' EXIT

one() { # one HOST: its document into OUTDIR/<name>.json, or a line in $work/unreachable or $work/failed
        local host=$1 name rc=0 exe=$remote dir=""
        name=${host##*@}
        name=${name//[^A-Za-z0-9._-]/_}
        local tmp=$outdir/.$name.json.$$.$BASHPID
        if [ "${CUDNNCTL_FLEET_COPY:-0}" = 1 ]; then
                dir=$(timeout "$limit" ssh "${ssh_opts[@]}" "$host" 'mktemp -d /tmp/cudnnctl.XXXXXX' 2>"$work/$name.stderr") ||
                        rc=$?
                if [ $rc = 0 ]; then
                        timeout "$limit" scp -q "${ssh_opts[@]}" "$(command -v "$cudnnctl")" "$host:$dir/cudnnctl" \
                                2>>"$work/$name.stderr" || rc=$?
                fi
                exe=$dir/cudnnctl
        fi
        if [ $rc = 0 ]; then
                # the remote command is one string for the remote shell: each word quoted
                timeout --kill-after=10 "$limit" ssh "${ssh_opts[@]}" "$host" \
                        "$(printf '%q ' "$exe" doctor --json --quiet "${doctor_args[@]}")" \
                        >"$tmp" 2>>"$work/$name.stderr" || rc=$?
        fi
        [ -z "$dir" ] || timeout 30 ssh "${ssh_opts[@]}" "$host" "rm -rf $(printf '%q' "$dir")" 2>/dev/null || true
        if { [ $rc = 0 ] || [ $rc = 1 ]; } && [ -s "$tmp" ]; then
                mv -f "$tmp" "$outdir/$name.json"
                echo "ssh-doctor: $host: document (doctor status $rc)"
                return 0
        fi
        rm -f "$tmp"
        local why
        why=$(tail -n 1 "$work/$name.stderr" 2>/dev/null || true)
        case $rc in
        255 | 124 | 137)
                [ $rc = 255 ] || why="over the time limit of $limit s"
                echo "$host	$why" >>"$work/unreachable"
                ;;
        *) echo "$host	doctor status $rc: $why" >>"$work/failed" ;;
        esac
        echo "ssh-doctor: $host: no document (status $rc) $why" >&2
}

start=$(date +%s)
hosts=()
while IFS= read -r line || [ -n "$line" ]; do
        line=${line%%#*}
        read -r line _ <<<"$line" || true
        [ -n "$line" ] && hosts+=("$line")
done <"$hostfile"
[ ${#hosts[@]} -gt 0 ] || { echo "ssh-doctor: $hostfile names no host" >&2; exit 2; }
echo "ssh-doctor: ${#hosts[@]} hosts, $jobs at a time -> $outdir"
running=0
for h in "${hosts[@]}"; do
        if [ $running -ge "$jobs" ]; then
                wait -n || true
                running=$((running - 1))
        fi
        one "$h" </dev/null &
        running=$((running + 1))
done
wait
rm -f "$outdir/unreachable.txt" "$outdir/failed.txt"
missing=0
for f in unreachable failed; do
        [ -s "$work/$f" ] || continue
        sort "$work/$f" >"$outdir/$f.txt"
        missing=1
        echo "ssh-doctor: $f ($outdir/$f.txt):" >&2
        sed 's/^/  /' "$outdir/$f.txt" >&2
done
docs=("$outdir"/*.json)
[ -e "${docs[0]}" ] || docs=()
echo "ssh-doctor: ${#docs[@]} documents in $outdir ($(($(date +%s) - start)) s)"
[ ${#docs[@]} -gt 0 ] || exit 1
rc=0
"$cudnnctl" report "$outdir" --html "$outdir/report.html" || rc=$?
echo "ssh-doctor: report status $rc; the page: $outdir/report.html"
[ $missing = 0 ] || [ $rc -ne 0 ] || rc=1
exit $rc
