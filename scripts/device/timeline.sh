#!/usr/bin/env bash
# On the GPU machine (device tool): when each child of `doctor
# --no-frameworks` and of `verify --no-compile` runs, to see what the
# doctor waits for with the GPU (bench/speed.sh compares the two). A poller
# reads the process tree every few milliseconds (/proc: the children of
# each process) and prints every descendant with the time it was first and
# last seen, from the command's start; then each probe's own wall time from
# the documents. Results go to $OUT/timeline.txt (the checkout's path
# written as <checkout>).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/cudnnctl-device}
mkdir -p "$out"
root=$PWD
exec > >(sed -u "s|$root|<checkout>|g" | tee "$out/timeline.txt") 2>&1

echo "== machine"
date -u
uname -srm
nproc
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader 2>&1 | head -2

echo "== build"
if [ ! -x build-device/cudnnctl ]; then
        cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF >/dev/null &&
                ninja -C build-device cudnnctl >/dev/null || exit 1
fi
B=$root/build-device/cudnnctl
$B --version
# the compile proof's kept build, as a second run of the doctor finds it
"$B" doctor --no-frameworks >/dev/null 2>&1

python3 -u - "$B" <<'PY'
import json, os, subprocess, sys, tempfile, time

exe = sys.argv[1]


def children(pid):
    out = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                    out += [int(x) for x in f.read().split()]
            except OSError:
                pass
    except OSError:
        pass
    return out


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            a = f.read().split(b"\0")
        return " ".join(x.decode("utf-8", "replace") for x in a if x)[:150]
    except OSError:
        return "?"


def run(args, env=None):
    t0 = time.monotonic()
    # the document to a file: a pipe nobody reads while polling would stop the command
    sink = tempfile.TemporaryFile()
    p = subprocess.Popen(args, stdout=sink, stderr=subprocess.DEVNULL, env=env)
    seen = {}  # pid -> [first, last, cmdline]
    while p.poll() is None:
        now = (time.monotonic() - t0) * 1000
        todo, alive = [p.pid], set()
        while todo:
            q = todo.pop()
            for c in children(q):
                alive.add(c)
                todo.append(c)
        for c in alive:
            if c not in seen:
                seen[c] = [now, now, cmdline(c)]
            else:
                seen[c][1] = now
                # a child seen between fork and exec shows its parent's command
                if seen[c][2] in ("?", "") or (seen[c][2].startswith(exe + " ") and "__probe" not in seen[c][2]):
                    cl = cmdline(c)
                    if cl not in ("?", ""):
                        seen[c][2] = cl
        time.sleep(0.002)
    total = (time.monotonic() - t0) * 1000
    sink.seek(0)
    doc = sink.read()
    return total, seen, doc


def show(name, args, env=None):
    total, seen, doc = run(args, env)
    print("-- %s: %.0f ms" % (name, total))
    for pid, (a, b, cl) in sorted(seen.items(), key=lambda kv: kv[1][0]):
        print("  %6.0f .. %6.0f  (%5.0f ms)  %s" % (a, b, b - a, cl.replace(exe, "cudnnctl")))
    try:
        return json.loads(doc)
    except ValueError:
        return None


def probes(doc, label):
    if not doc:
        return
    for v in (doc.get("facts") or {}).get("verify") or []:
        d = v.get("document") or {}
        pr = ", ".join("%s %s ms" % (k, p.get("wall_ms")) for k, p in (d.get("probes") or {}).items()
                       if isinstance(p, dict))
        c = d.get("compile") or {}
        print("  %s installation %s (%s): verify %s ms; probes: %s; compiled program %s ms" %
              (label, v.get("installation"), v.get("role"), (d.get("summary") or {}).get("wall_ms"), pr,
               (c.get("run") or {}).get("wall_ms")))
    if "probes" in doc:
        pr = ", ".join("%s %s ms" % (k, p.get("wall_ms")) for k, p in doc["probes"].items() if isinstance(p, dict))
        print("  %s: probes: %s" % (label, pr))


for rnd in range(3):
    print("== round %d" % (rnd + 1))
    d = show("doctor --no-frameworks", [exe, "doctor", "--no-frameworks", "--json"])
    probes(d, "doctor")
    env = dict(os.environ, CUDNNCTL_JOBS="1")
    d = show("doctor --no-frameworks, CUDNNCTL_JOBS=1", [exe, "doctor", "--no-frameworks", "--json"], env)
    probes(d, "doctor (one job)")
    d = show("verify --no-compile", [exe, "verify", "--no-compile", "--json"])
    probes(d, "verify")
PY
