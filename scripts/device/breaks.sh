#!/usr/bin/env bash
# On the GPU machine (device tool): break cuDNN the ways users break it, and
# for each break put what the real program does beside what the doctor says.
# Each break is set up in its own temporary directory and environment
# (LD_LIBRARY_PATH, LD_PRELOAD, CUDA_VISIBLE_DEVICES, files; LD_LIBRARY_PATH
# is unset unless the break sets it); then, in that environment:
#   (a) the real program: scripts/device/traceprobe.c for a plain program
#       (dlopen libcudnn.so.9, cudnnCreate, the four version checks, an RNN
#       descriptor, a convolution on the GPU), a small PyTorch (and JAX)
#       program for the framework breaks, a program built with the break's
#       headers for the header break; its exit status, its KEY=VALUE lines
#       and the cuDNN files it mapped, and a one-line verdict (works, or the
#       first failing status);
#   (b) `cudnnctl doctor --gpu --no-frameworks --json` (`doctor --gpu --json`,
#       frameworks included, for the framework breaks): verdict, counts and
#       findings; its text is rendered from that JSON (`doctor --facts`).
# The machine is left as it was: the break that writes to /etc/ld.so.conf.d
# takes its file out and runs ldconfig again, in a trap too; the temporary
# directories go. Results go to $OUT: breaks.txt (the log), breaks.json
# ({"breaks": [{name, setup, env, real, doctor}]}) and breaks-doctor.json
# (each break's whole doctor document), with the machine's temporary
# directories written as <case-NAME> and <tmp>, the checkout as <checkout>.
# The whole run is held under BREAKS_BUDGET_S seconds (450: 7.5 minutes).
# Off the GPU machine: CUDNN_DIR (the distro's cuDNN, /usr/lib/x86_64-linux-gnu)
# and CUDNN_WHEEL_DIR (the pip wheel's lib/) point elsewhere.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
here=$PWD/scripts/device
checkout=$PWD
out=${OUT:-/tmp/cudnnctl-device}
mkdir -p "$out"
tmp=$(mktemp -d)
t0=$(date +%s)
budget=${BREAKS_BUDGET_S:-450}
ldconf_file=/etc/ld.so.conf.d/zz-cudnnctl-break.conf
ldconf_dir=/opt/cudnnctl-break-ldconf

# The one change outside $tmp: take it back (idempotent: both traps may call it).
ldconf_cleanup() {
        if [ -e "$ldconf_file" ] || [ -e "$ldconf_dir" ]; then
                rm -f "$ldconf_file"
                rm -rf "$ldconf_dir"
                timeout 120 ldconfig
        fi
}

# The machine's temporary directory as <case-NAME>/<tmp>, the checkout as <checkout>.
placeholders() {
        sed -E "s#$tmp/case-([a-zA-Z0-9-]+)#<case-\\1>#g; s#$tmp/([a-zA-Z0-9._-]+)#<\\1>#g; s#$tmp#<tmp>#g; s#$checkout#<checkout>#g; s#/tmp/cudnnctl-([a-z]+)-[A-Za-z0-9]{6}#<cudnnctl-\\1>#g" "$@"
}

# On exit (also when stopped): the JSON from what the breaks recorded, the
# files into $OUT, the machine as it was.
finish() {
        ldconf_cleanup
        if [ -f "$tmp/log" ]; then
                timeout 60 "${py:-python3}" - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
breaks, docs = [], {}
try:
    lines = open(os.path.join(tmp, "breaks.jsonl")).read().splitlines()
except OSError:
    lines = []
for l in lines:
    if l.strip():
        b = json.loads(l)
        doc = b.pop("doctor_document", None)
        if doc is not None:
            docs[b["name"]] = doc
        breaks.append(b)
json.dump({"breaks": breaks}, open(os.path.join(tmp, "breaks.json"), "w"), indent=1)
json.dump({"doctor": docs}, open(os.path.join(tmp, "breaks-doctor.json"), "w"), indent=1)
PY
                placeholders "$tmp/log" >"$out/breaks.txt"
                for f in breaks.json breaks-doctor.json; do
                        [ -f "$tmp/$f" ] && placeholders "$tmp/$f" >"$out/$f"
                done
        fi
        rm -rf "$tmp"
}
trap finish EXIT
trap 'exit 143' TERM INT HUP

# timeout for a step that wants WANT seconds: no more than the budget leaves,
# keeping 12 s for each break still to come; prints 0 when none is left.
bound() {
        local want=$1 left t
        left=$((budget - ($(date +%s) - t0) - 15))
        t=$((left - 12 * ${breaks_after:-0}))
        [ "$t" -lt 10 ] && t=$left
        [ "$t" -gt "$want" ] && t=$want
        [ "$t" -lt 5 ] && t=0
        echo "$t"
}

# run WANT CMD...: CMD under timeout (bounded), exit 124 at once when no time is left
run() {
        local t
        t=$(bound "$1")
        shift
        if [ "$t" -eq 0 ]; then
                echo "not run: out of time" >&2
                return 124
        fi
        timeout -k 5 "$t" "$@"
}

# ---------------------------------------------------------------- the machine
machine() {
        echo "== machine"
        date -u
        uname -srm
        timeout 30 nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -2
        echo "user: $(id -un) ($(id -u)); /etc/ld.so.conf.d writable: $([ -w /etc/ld.so.conf.d ] && echo yes || echo no)"
        echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH-(unset)} CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-(unset)}"
        py=$(command -v python3)
        echo "python3: $py ($(timeout 30 "$py" --version 2>&1))"
        distro=${CUDNN_DIR:-/usr/lib/x86_64-linux-gnu} # the distro cuDNN 9
        if ! ls "$distro"/libcudnn*.so.9 >/dev/null 2>&1; then
                echo "no distro cuDNN 9 in $distro"
                return 1
        fi
        wheel=${CUDNN_WHEEL_DIR:-$(timeout 60 "$py" -c 'import os, nvidia.cudnn as c; print(os.path.join(list(c.__path__)[0], "lib"))' 2>/dev/null)}
        [ -e "$wheel/libcudnn.so.9" ] || wheel=""
        echo "distro: $distro: $(cd "$distro" && printf '%s ' libcudnn*.so.9*)"
        echo "wheel lib: ${wheel:-none}"
        # the distro's headers (cudnn_version.h, or the v9 alternative Ubuntu links it to)
        distro_inc=""
        for d in /usr/include /usr/include/x86_64-linux-gnu "$distro/../include" "$distro/../../include"; do
                if [ -e "$d/cudnn_version.h" ] || [ -e "$d/cudnn_version_v9.h" ]; then
                        distro_inc=$(cd "$d" && pwd)
                        break
                fi
        done
        wheel_inc=""
        [ -n "$wheel" ] && [ -e "$wheel/../include/cudnn_version.h" ] && wheel_inc=$(cd "$wheel/../include" && pwd)
        echo "distro headers: ${distro_inc:-none}; wheel headers: ${wheel_inc:-none}"
        cudart=""
        for c in /usr/local/cuda/lib64/libcudart.so.13 /usr/local/cuda/lib64/libcudart.so \
                "${wheel:-/nonexistent}/../../cu13/lib/libcudart.so.13"; do
                [ -e "$c" ] && {
                        cudart=$c
                        break
                }
        done
        echo "cudart: ${cudart:-none}"
        has_jax=no
        timeout 120 "$py" -c 'import jax' >/dev/null 2>&1 && has_jax=yes
        echo "JAX importable: $has_jax"
        echo "-- ldconfig -p | grep libcudnn.so"
        timeout 30 ldconfig -p | grep -E 'libcudnn(_ops)?\.so\.9 '
        return 0
}

# ---------------------------------------------------------------- the tools
build() {
        echo "== build"
        gcc -O1 -o "$tmp/traceprobe" "$here/traceprobe.c" -ldl || echo "traceprobe: build failed"
        B=$PWD/build-device/cudnnctl
        if run 300 cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_TESTS=OFF \
                -DCUDNNCTL_WITH_LIBARCHIVE=OFF >"$tmp/build.log" 2>&1 &&
                run 300 ninja -C build-device cudnnctl >>"$tmp/build.log" 2>&1; then
                "$B" --version
        else
                echo "cudnnctl: build failed; the doctor is not run"
                tail -20 "$tmp/build.log"
                B=""
        fi
        # the framework breaks' program: PyTorch, then JAX when asked, in one process
        cat >"$tmp/fwprog.py" <<'PY'
import sys, traceback
seen = set()
failed = False


def out(key, value):
    print("%s=%s" % (key, value), flush=True)


def maps(stage):
    """The cuDNN files mapped now that were not before."""
    try:
        for line in open("/proc/self/maps"):
            p = line.split(None, 5)
            if len(p) == 6 and "cudnn" in p[5] and p[5].strip() not in seen:
                seen.add(p[5].strip())
                out("mapped." + stage, p[5].strip())
    except OSError:
        pass


def step(key, fn):
    global failed
    try:
        v = fn()
        out(key, v)
        return True
    except BaseException as e:  # noqa: BLE001 - an import error, a RuntimeError, a SystemExit...
        failed = True
        lines = str(e).strip().splitlines()
        out(key, "failed %s: %s" % (type(e).__name__, lines[0] if lines else ""))
        traceback.print_exc()
        return False


def torch_conv():
    import torch
    x = torch.randn(1, 1, 8, 8, device="cuda")
    w = torch.randn(1, 1, 3, 3, device="cuda")
    torch.nn.functional.conv2d(x, w)
    torch.cuda.synchronize()
    return "ok"


def jax_conv():
    import jax
    import jax.numpy as jnp
    x = jnp.ones((1, 3, 16, 16), dtype=jnp.float32)
    w = jnp.ones((4, 3, 3, 3), dtype=jnp.float32)
    y = jax.lax.conv(x, w, (1, 1), "SAME")
    y.block_until_ready()
    return "ok" if float(y[0, 0, 8, 8]) == 27.0 else "wrong result %r" % float(y[0, 0, 8, 8])


def jax_backend():
    import jax
    b = jax.default_backend()
    if b == "cpu":
        raise RuntimeError("JAX runs on the CPU: no GPU backend (%s)" % jax.devices())
    return b


def jax_cudnn():
    import importlib
    for name in ("jax_cuda13_plugin._versions", "jax_cuda12_plugin._versions", "jax_plugins.xla_cuda13",
                 "jax_plugins.xla_cuda12", "jaxlib.cuda._versions", "jax._src.lib.cuda_versions"):
        try:
            cv = importlib.import_module(name)
        except Exception:  # noqa: BLE001
            continue
        cv = getattr(cv, "cuda_versions", cv)
        if cv is not None and hasattr(cv, "cudnn_get_version"):
            return "%s (%s)" % (cv.cudnn_get_version(), name)
    return "unknown"


if step("torch.import", lambda: __import__("torch").__version__):
    maps("import")
    step("torch.cudnn_version", lambda: __import__("torch").backends.cudnn.version())
    maps("version")
    step("torch.conv", torch_conv)
    maps("torch-conv")
if "--jax" in sys.argv[1:] and step("jax.import", lambda: __import__("jax").__version__):
    maps("jax-import")
    step("jax.backend", jax_backend)
    step("jax.cudnn_version", jax_cudnn)
    step("jax.conv", jax_conv)
    maps("jax-conv")
sys.exit(1 if failed else 0)
PY
        # the header break's program: the header's CUDNN_VERSION beside the library's cudnnGetVersion()
        cat >"$tmp/hdrprog.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cudnn_version.h>

size_t cudnnGetVersion(void);

int main(void)
{
        char line[1024], last[1024] = "";
        FILE *f;

        printf("header.CUDNN_VERSION=%d\n", (int)CUDNN_VERSION);
        printf("cudnnGetVersion=%zu\n", cudnnGetVersion());
        if ((f = fopen("/proc/self/maps", "r")) != NULL) {
                while (fgets(line, sizeof(line), f) != NULL) {
                        char *p = strchr(line, '/');

                        if (p == NULL || strstr(p, "cudnn") == NULL || strcmp(p, last) == 0)
                                continue;
                        snprintf(last, sizeof(last), "%s", p);
                        p[strcspn(p, "\n")] = '\0';
                        printf("mapped.run=%s\n", p);
                }
                fclose(f);
        }
        return 0;
}
C
        # one break's record: the log's summary lines, and a line of breaks.jsonl
        cat >"$tmp/record.py" <<'PY'
import json, os, re, sys
name, res, jsonl = sys.argv[1:4]


def read(f, default=""):
    try:
        return open(os.path.join(res, f), errors="replace").read()
    except OSError:
        return default


STATUS = {"cudnnCreate", "cudnnGraphVersionCheck", "cudnnOpsVersionCheck", "cudnnCnnVersionCheck",
          "cudnnAdvVersionCheck", "cudnnCreateRNNDescriptor", "cudnnConvolutionForward", "cudaDeviceSynchronize",
          "cudaMalloc", "descriptors"}


def failing(k, v):
    """Whether one KEY=VALUE line of a real program says it failed."""
    if k in ("missing", "convolution") or v.startswith(("failed", "not run", "wrong")):
        return True
    if k.endswith("cudnn_version") and v == "None":
        return True  # PyTorch without cuDNN
    if k in STATUS:
        tok = v.split(" ", 1)[0]
        return not (tok.lstrip("-").isdigit() and int(tok) == 0)
    return False


def real_result(outf="real.out", errf="real.err"):
    if not os.path.exists(os.path.join(res, outf)):
        return None
    results, mapped, exit_status, first = {}, [], None, None
    for line in read(outf).splitlines():
        k, sep, v = line.partition("=")
        if not sep:
            continue
        if k.startswith("mapped."):
            mapped.append({"stage": k[7:], "path": v})
        elif k == "exit":
            exit_status = int(v) if v.lstrip("-").isdigit() else v
        else:
            results[k] = v if k not in results else results[k] + "; " + v
            if first is None and failing(k, v):
                first = "%s=%s" % (k, v)
    err = [l for l in read(errf).splitlines() if l.strip()]
    if first is not None:
        verdict = "fails: " + first
    elif exit_status == 124 or exit_status == 137:
        verdict = "fails: timed out (exit %s)" % exit_status
    elif isinstance(exit_status, int) and exit_status > 128:
        verdict = "fails: killed by signal %d (exit %d)" % (exit_status - 128, exit_status)
    elif exit_status != 0:
        verdict = "fails: exit %s%s" % (exit_status, (": " + err[-1]) if err else "")
    else:
        verdict = "works"
    r = {"program": read("program").strip(), "exit": exit_status, "results": results, "mapped": mapped,
         "stderr_last": err[-1] if err else None, "verdict": verdict}
    if "header.CUDNN_VERSION" in results and "cudnnGetVersion" in results:
        same = results["header.CUDNN_VERSION"] == results["cudnnGetVersion"]
        r["note"] = "header CUDNN_VERSION %s, cudnnGetVersion() %s: %s" % (
            results["header.CUDNN_VERSION"], results["cudnnGetVersion"], "the same" if same else "different")
    return r


def doctor_result():
    rc = read("doctor.exit", "").strip()
    if rc == "":
        return None, None
    d = {"command": read("doctor.cmd").strip(), "exit": int(rc) if rc.lstrip("-").isdigit() else rc,
         "seconds": float(read("doctor.s", "0").strip() or 0)}
    try:
        doc = json.loads(read("doctor.json"))
    except ValueError:
        err = [l for l in read("doctor.err").splitlines() if l.strip()]
        d["error"] = "no JSON document" + (": " + err[-1] if err else "")
        return d, None
    s = doc.get("summary", {})
    for k in ("verdict", "errors", "warnings", "infos", "wall_ms"):
        d[k] = s.get(k)
    d["findings"] = [{"id": f.get("id"), "severity": f.get("severity"),
                      "summary": (f.get("summary") or "").splitlines()[0] if f.get("summary") else ""}
                     for f in doc.get("findings", [])]
    d["areas"] = [{"id": a.get("id"), "status": a.get("status"), "summary": a.get("summary")}
                  for a in doc.get("areas", [])]
    fw = (doc.get("facts") or {}).get("frameworks")
    if isinstance(fw, dict):
        d["frameworks"] = [{"interpreter": it.get("path"), "name": f.get("name"),
                            "version": (f.get("info") or {}).get("version"), "state": f.get("state"),
                            "cudnn": (f.get("cudnn") or {}).get("version"),
                            "directories": [x.get("path") for x in (f.get("cudnn") or {}).get("directories", [])],
                            "gpu_call": f.get("gpu_call"), "verdict": f.get("verdict"),
                            "verdicts": {v.get("id"): v.get("status") for v in f.get("verdicts", [])}}
                           for it in fw.get("interpreters", []) for f in it.get("frameworks", [])]
    return d, doc


env = {}
for line in read("env").splitlines():
    k, _, v = line.partition("=")
    env[k] = None if v == "(unset)" else v
b = {"name": name, "setup": read("setup").strip(), "env": env}
skip = read("skip").strip()
if skip:
    b.update({"skipped": skip, "real": None, "doctor": None})
    print("real: " + skip)
else:
    b["real"] = real_result()
    b["real_wheel"] = real_result("real-wheel.out", "real-wheel.err")
    b["doctor"], doc = doctor_result()
    if doc is not None:
        b["doctor_document"] = doc
    r, d = b["real"], b["doctor"]
    print("real: " + (r["verdict"] if r else "not run") + ("; " + r["note"] if r and r.get("note") else ""))
    if r and r["mapped"]:
        print("real, mapped: " + ", ".join(m["path"] for m in r["mapped"]))
    if b["real_wheel"]:
        print("real, the wheel's shim by its path: " + b["real_wheel"]["verdict"] + "; cudnnGetVersion " +
              str(b["real_wheel"]["results"].get("version")))
    if d is None:
        print("doctor: not run")
    elif "error" in d:
        print("doctor: exit %s, %s" % (d["exit"], d["error"]))
    else:
        print("doctor: %s (%s error(s), %s warning(s), %s note(s)), exit %s, %.1f s" % (
            d["verdict"], d["errors"], d["warnings"], d["infos"], d["exit"], d["seconds"]))
        for f in d["findings"]:
            print("  %-7s %s: %s" % (f["severity"], f["id"], f["summary"]))
        for f in d.get("frameworks", []):
            print("  framework %s %s: cuDNN %s from %s, GPU call %s, verdict %s" % (
                f["name"], f["version"], f["cudnn"], f["directories"],
                (f["gpu_call"] or {}).get("ok"), f["verdict"]))
with open(jsonl, "a") as o:
    o.write(json.dumps(b) + "\n")
PY
}

# ---------------------------------------------------------------- one break
# The break's settings, filled in by its setup_NAME function.
reset_break() {
        b_setup="" b_llp="" b_preload="" b_cvd="(unset)" b_prog=probe b_fw=0 b_skip=""
}

# The environment of a break, for `env`: LD_LIBRARY_PATH and LD_PRELOAD only as
# the break sets them, CUDA_VISIBLE_DEVICES as the machine has it unless set.
break_env() {
        benv=(env -u LD_LIBRARY_PATH -u LD_PRELOAD)
        [ -n "$b_llp" ] && benv+=("LD_LIBRARY_PATH=$b_llp")
        [ -n "$b_preload" ] && benv+=("LD_PRELOAD=$b_preload")
        [ "$b_cvd" != "(unset)" ] && benv+=("CUDA_VISIBLE_DEVICES=$b_cvd")
}

# (a) the real program, KEY=VALUE lines and exit=N into $res/real.out
real_program() {
        local res=$1 dir=$2 rc
        case $b_prog in
        probe)
                echo "traceprobe libcudnn.so.9 ${cudart:-(no cudart)}" >"$res/program"
                run 120 "${benv[@]}" "$tmp/traceprobe" libcudnn.so.9 "$cudart" >"$res/real.out" 2>"$res/real.err"
                rc=$?
                # what a program that opens the wheel's shim by its path (PyTorch's way) gets in the same
                # environment: the doctor judges that load too
                if [ -n "$b_llp$b_preload" ] && [ -n "$wheel" ]; then
                        run 120 "${benv[@]}" "$tmp/traceprobe" "$wheel/libcudnn.so.9" "$cudart" \
                                >"$res/real-wheel.out" 2>&1
                        echo "exit=$?" >>"$res/real-wheel.out"
                fi
                (exit $rc)
                ;;
        torch | jax)
                local more=()
                [ "$b_prog" = jax ] && more=(--jax)
                echo "$py fwprog.py${more[*]:+ ${more[*]}}" >"$res/program"
                run 240 "${benv[@]}" PYTHONUNBUFFERED=1 "$py" "$tmp/fwprog.py" "${more[@]}" \
                        >"$res/real.out" 2>"$res/real.err"
                ;;
        headers)
                echo "gcc -I$dir/prefix/include hdrprog.c -L$dir/prefix/lib -l:libcudnn.so.9; run it" >"$res/program"
                if run 60 gcc -I"$dir/prefix/include" -o "$dir/hdrprog" "$tmp/hdrprog.c" -L"$dir/prefix/lib" \
                        -l:libcudnn.so.9 >"$res/compile.err" 2>&1; then
                        run 60 "${benv[@]}" "$dir/hdrprog" >"$res/real.out" 2>"$res/real.err"
                else
                        echo "compile=failed $(grep -m1 -i error "$res/compile.err")" >"$res/real.out"
                        cp "$res/compile.err" "$res/real.err"
                        false
                fi
                ;;
        esac
        rc=$?
        echo "exit=$rc" >>"$res/real.out"
}

# (b) the doctor in the same environment: JSON, and its text rendered from it
doctor() {
        local res=$1 s e
        local args=(doctor --gpu --no-frameworks)
        [ "$b_fw" = 1 ] && args=(doctor --gpu)
        echo "cudnnctl ${args[*]} --json" >"$res/doctor.cmd"
        if [ -z "$B" ]; then
                echo "not run: cudnnctl did not build" >"$res/doctor.err"
                echo 127 >"$res/doctor.exit"
                return
        fi
        s=$(date +%s.%N)
        run 300 "${benv[@]}" "$B" "${args[@]}" --json >"$res/doctor.json" 2>"$res/doctor.err"
        echo $? >"$res/doctor.exit"
        e=$(date +%s.%N)
        awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f\n", b - a }' >"$res/doctor.s"
        # the text from the same document (exit 0: no errors, 1: errors; 2: no document)
        run 60 "$B" doctor --facts "$res/doctor.json" >"$res/doctor.txt" 2>&1
        if [ $? -le 1 ] && [ -s "$res/doctor.txt" ]; then
                echo "-- cudnnctl ${args[*]} (exit $(cat "$res/doctor.exit"), $(cat "$res/doctor.s") s; its text rendered from its JSON by doctor --facts)"
        else
                # no document to render: the text as the doctor prints it, run again
                run 300 "${benv[@]}" "$B" "${args[@]}" >"$res/doctor.txt" 2>&1
                local rc=$?
                echo "-- cudnnctl ${args[*]} (JSON: exit $(cat "$res/doctor.exit"), $(cat "$res/doctor.s") s, no document; the text run again: exit $rc)"
        fi
        cat "$res/doctor.txt"
        [ -s "$res/doctor.err" ] && sed 's/^/doctor stderr: /' "$res/doctor.err" | tail -5
}

# one_break N NAME: set it up, run the real program and the doctor, record, tidy
one_break() {
        local n=$1 name=$2 dir=$tmp/case-$2 res=$tmp/res/$2 k
        breaks_after=$((nbreaks - n))
        mkdir -p "$dir" "$res"
        reset_break
        echo
        echo "== break $n/$nbreaks: $name"
        if [ "$(bound 300)" -eq 0 ]; then
                b_skip="skipped: out of time" b_setup="(not set up: out of time)"
        else
                "setup_${name//-/_}" "$dir"
        fi
        echo "setup: $b_setup"
        echo "$b_setup" >"$res/setup"
        {
                echo "LD_LIBRARY_PATH=${b_llp:-(unset)}"
                echo "LD_PRELOAD=${b_preload:-(unset)}"
                echo "CUDA_VISIBLE_DEVICES=$([ "$b_cvd" = "(unset)" ] && echo "${CUDA_VISIBLE_DEVICES-(unset)}" || echo "$b_cvd")"
        } >"$res/env"
        sed 's/^/env: /' "$res/env"
        if [ -n "$b_skip" ]; then
                echo "$b_skip" >"$res/skip"
        else
                for k in $(cd "$dir" && find . -mindepth 1 -maxdepth 2 -type d | sort); do
                        echo "files in $dir/${k#./}: $(find "$dir/$k" -mindepth 1 -maxdepth 1 \( -type l -printf '%f -> %l\n' \) -o -printf '%f\n' | sort | paste -sd ' ')"
                done
                break_env
                real_program "$res" "$dir"
                echo "-- the real program: $(cat "$res/program")"
                cat "$res/real.out"
                [ -s "$res/real.err" ] && echo "stderr, last lines:" && grep -v '^\s*$' "$res/real.err" | tail -4
                if [ -s "$res/real-wheel.out" ]; then
                        echo "-- the same with the wheel's shim opened by its path: traceprobe $wheel/libcudnn.so.9"
                        cat "$res/real-wheel.out"
                fi
                doctor "$res"
        fi
        [ "$(type -t "teardown_${name//-/_}")" = function ] && "teardown_${name//-/_}"
        echo "-- summary of $name"
        timeout 60 "$py" "$tmp/record.py" "$name" "$res" "$tmp/breaks.jsonl"
        rm -rf "$dir" # the copies are large
}

# ---------------------------------------------------------------- the breaks
# A `cp -L` copy of the distro's libcudnn*.so.9 (what users do to "bundle"
# cuDNN) into DIR/lib, on LD_LIBRARY_PATH.
copy_so9() {
        mkdir -p "$1/lib"
        cp -L "$distro"/libcudnn*.so.9 "$1/lib/"
        b_llp=$1/lib
}

# 1. Nothing changed: the baseline every break is read against.
setup_healthy() {
        b_setup="nothing changed: the distro's cuDNN through ld.so.cache"
}

# 2. The user copied the distro's libcudnn*.so.9 (cp -L) into a directory of
#    their own and put it on LD_LIBRARY_PATH. Tests: a copy of one release
#    beside the installed one (the shim asks .so.9.14.0 first: the distro's).
setup_copy_complete() {
        copy_so9 "$1"
        b_setup="cp -L $distro/libcudnn*.so.9 into a directory on LD_LIBRARY_PATH"
}

# 3. The same copy, but libcudnn_engines_precompiled.so.9 left out (too big to
#    ship). Tests: a copy missing an engine library.
setup_copy_no_engines() {
        copy_so9 "$1"
        rm -f "$1/lib/libcudnn_engines_precompiled.so.9"
        b_setup="cp -L $distro/libcudnn*.so.9 into a directory on LD_LIBRARY_PATH, without libcudnn_engines_precompiled.so.9"
}

# 4. The same copy, with the pip wheel's 9.19 libcudnn_ops.so.9 dropped among
#    the 9.14 files. Tests: a foreign sub-library in a copy.
setup_copy_foreign_ops() {
        b_setup="cp -L $distro/libcudnn*.so.9 into a directory on LD_LIBRARY_PATH, with the wheel's libcudnn_ops.so.9 (${wheel:-no wheel}) among them"
        [ -z "$wheel" ] && b_skip="skipped: no pip wheel cuDNN" && return
        copy_so9 "$1"
        cp -L "$wheel/libcudnn_ops.so.9" "$1/lib/"
}

# 5. The same copy, with the wheel's 9.19 libcudnn.so.9 shim in it. The 9.19
#    shim asks .so.9.19.0, .so.9.19, then .so.9: the copy's 9.14 sub-libraries
#    answer. Tests: a real mix of releases in one process (version checks 1002).
setup_copy_foreign_shim() {
        b_setup="cp -L $distro/libcudnn*.so.9 into a directory on LD_LIBRARY_PATH, with the wheel's 9.19 shim libcudnn.so.9 (${wheel:-no wheel}) in it"
        [ -z "$wheel" ] && b_skip="skipped: no pip wheel cuDNN" && return
        copy_so9 "$1"
        cp -L "$wheel/libcudnn.so.9" "$1/lib/"
}

# 6. A directory on LD_LIBRARY_PATH left with links to a removed release:
#    libcudnn.so.9 -> libcudnn.so.9.1.0 and the same for each sub-library, the
#    targets gone. Tests: dangling links on the search path.
setup_stale_symlink() {
        local f
        mkdir -p "$1/lib"
        for f in "$distro"/libcudnn*.so.9; do
                f=${f##*/}
                ln -s "$f.1.0" "$1/lib/$f"
        done
        b_llp=$1/lib
        b_setup="a directory on LD_LIBRARY_PATH holding only dangling links libcudnn*.so.9 -> libcudnn*.so.9.1.0 (a removed release)"
}

# 7. A prefix with the wheel's 9.19 headers over a `cp -a` copy of the
#    distro's 9.14 libraries, PREFIX/lib on LD_LIBRARY_PATH; the user builds
#    with -IPREFIX/include. Tests: headers of one release, library of another.
setup_headers_other_release() {
        local p=$1/prefix
        mkdir -p "$p/include" "$p/lib"
        cp -a "$distro"/libcudnn*.so* "$p/lib/"
        if [ -n "$wheel_inc" ]; then
                cp -L "$wheel_inc"/cudnn*.h "$p/include/"
                b_setup="PREFIX/include: the wheel's headers ($wheel_inc); PREFIX/lib: cp -a $distro/libcudnn*.so*; PREFIX/lib on LD_LIBRARY_PATH"
        elif [ -n "$distro_inc" ]; then
                local h
                for h in "$distro_inc"/cudnn*.h; do
                        h=${h##*/}
                        cp -L "$distro_inc/$h" "$p/include/${h/_v9.h/.h}"
                done
                sed -i -E 's/^#define CUDNN_MINOR [0-9]+/#define CUDNN_MINOR 19/' "$p/include/cudnn_version.h"
                b_setup="PREFIX/include: the distro's headers ($distro_inc) with CUDNN_MINOR set to 19 (no wheel headers); PREFIX/lib: cp -a $distro/libcudnn*.so*; PREFIX/lib on LD_LIBRARY_PATH"
        else
                b_skip="skipped: no cuDNN headers found"
                return
        fi
        echo "PREFIX/include/cudnn_version.h: $(grep -E '^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ' "$p/include/cudnn_version.h" | paste -sd ' ')"
        b_llp=$p/lib
        b_prog=headers
}

# 8. The wheel's nvidia/cudnn/lib put on LD_LIBRARY_PATH ahead of the distro
#    (to "use the newer cuDNN" everywhere). Tests: a plain program that gets
#    the wheel's 9.19 instead of the installed 9.14.
setup_wheel_first() {
        b_setup="the wheel's lib on LD_LIBRARY_PATH ahead of the distro's directory"
        [ -z "$wheel" ] && b_skip="skipped: no pip wheel cuDNN" && return
        b_llp=$wheel:$distro
}

# 9. A copy of the distro's files in a new directory, listed in
#    /etc/ld.so.conf.d but ldconfig never run. Tests: a configured directory
#    that ld.so.cache does not hold (the program still gets the distro's copy).
setup_ldconf_not_cached() {
        b_setup="cp -a $distro/libcudnn*.so* into $ldconf_dir/lib, listed in $ldconf_file, ldconfig not run"
        if ! [ -w /etc/ld.so.conf.d ]; then
                b_skip="skipped: not root (/etc/ld.so.conf.d is not writable)"
                return
        fi
        ldconf_cleanup
        mkdir -p "$ldconf_dir/lib"
        cp -a "$distro"/libcudnn*.so* "$ldconf_dir/lib/"
        echo "$ldconf_dir/lib" >"$ldconf_file"
        echo "$ldconf_file: $(cat "$ldconf_file"); ldconfig -p entries for it: $(timeout 30 ldconfig -p | grep -c "$ldconf_dir")"
}
teardown_ldconf_not_cached() {
        [ -e "$ldconf_file" ] || [ -e "$ldconf_dir" ] || return 0
        ldconf_cleanup
        echo "taken back: $ldconf_file and $ldconf_dir removed, ldconfig run; $ldconf_file $([ -e "$ldconf_file" ] && echo "STILL THERE" || echo gone)"
}

# 10. PyTorch run with the distro's directory on LD_LIBRARY_PATH (a leftover
#     from building against the distro's cuDNN). Tests: a framework that gets
#     an older cuDNN than it was built with (RuntimeError: 9.19 vs 9.14).
setup_torch_ld_path_distro() {
        b_llp=$distro
        b_prog=torch
        b_fw=1
        b_setup="PyTorch with LD_LIBRARY_PATH=$distro"
}

# 11. PyTorch and JAX imported in one process, a convolution in each. Tests:
#     two frameworks sharing one process's cuDNN.
setup_jax_and_torch() {
        b_setup="one python3 process: import torch, a convolution, import jax, jax.lax.conv"
        [ "$has_jax" = yes ] || {
                b_skip="skipped: JAX not installed"
                return
        }
        b_prog=jax
        b_fw=1
}

# 12. The wheel's 9.19 libcudnn_ops.so.9 forced in with LD_PRELOAD while the
#     program loads the distro's 9.14. Tests: a preloaded foreign sub-library.
setup_preload_foreign_ops() {
        b_setup="LD_PRELOAD=${wheel:-<no wheel>}/libcudnn_ops.so.9 (the wheel's), the plain program loading the distro's libcudnn.so.9"
        [ -z "$wheel" ] && b_skip="skipped: no pip wheel cuDNN" && return
        b_preload=$wheel/libcudnn_ops.so.9
}

# 13. CUDA_VISIBLE_DEVICES set to the empty string (a job script's mistake).
#     Tests: cuDNN installed well, no GPU visible.
setup_cuda_visible_devices_empty() {
        b_cvd=""
        b_setup="CUDA_VISIBLE_DEVICES= (empty): no GPU visible"
}

breaks=(healthy copy-complete copy-no-engines copy-foreign-ops copy-foreign-shim stale-symlink
        headers-other-release wheel-first ldconf-not-cached torch-ld-path-distro jax-and-torch
        preload-foreign-ops cuda-visible-devices-empty)
nbreaks=${#breaks[@]}

main() {
        trap ldconf_cleanup EXIT
        trap 'exit 143' TERM INT HUP
        machine || exit 1
        breaks_after=$nbreaks # the build leaves time for every break
        build
        : >"$tmp/breaks.jsonl"
        local i
        for i in "${!breaks[@]}"; do
                one_break $((i + 1)) "${breaks[$i]}"
        done
        echo
        echo "== summary"
        timeout 60 "$py" - "$tmp/breaks.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    b = json.loads(l)
    r, d = b.get("real"), b.get("doctor")
    real = b.get("skipped") or ((r["verdict"] + ("; " + r["note"] if r.get("note") else "")) if r else "not run")
    doc = "not run" if not d else (d.get("error") or "%s %s/%s/%s: %s" % (
        d["verdict"], d["errors"], d["warnings"], d["infos"],
        ", ".join("%s %s" % (f["severity"], f["id"]) for f in d["findings"]) or "no findings"))
    print("%-26s real: %s\n%-26s doctor: %s" % (b["name"], real, "", doc))
    w = b.get("real_wheel")
    if w:
        print("%-26s real, the wheel's shim by its path: %s (cudnnGetVersion %s)" % (
            "", w["verdict"], w["results"].get("version")))
PY
        echo "== done in $(($(date +%s) - t0)) s"
}

main 2>&1 | tee "$tmp/log"
