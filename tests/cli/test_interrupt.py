#!/usr/bin/env python3
"""cudnnctl verify and doctor leave nothing behind, however they end.

Probe libraries that hang (v9-hang-create) and that fork a process which
leaves the process group with setsid() and sleeps (v9-escape, v9-escape-hang)
come from fixtures/gen-probe.sh. Each run gets a private TMPDIR and a unique
variable in its environment, which every process it starts inherits (the
escaped ones too). The tool is interrupted with SIGINT, SIGTERM, SIGHUP or
SIGPIPE at one of several moments: at once (before any probe), while a probe
child hangs, while the compiled program of the compile proof hangs, while a
framework interpreter hangs (doctor); or it is killed with SIGKILL while a
probe hangs. Then it must have died of that signal, no process carrying the
run's variable may be left, and its TMPDIR must be empty (no
cudnnctl-compile-* or cudnnctl-fw-* directory). A run that ends by itself
must leave nothing either, and must not wait for the escaped processes."""
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

args = cliutil.parser(fixtures=True).parse_args()
EXE = os.path.abspath(args.exe)
PROBE = os.path.join(os.path.abspath(args.fixtures), "probe")
CHECKS = cliutil.Checks()
check = CHECKS.check
MARK = "CUDNNCTL_TEST_RUN"

if not sys.platform.startswith("linux"):
    print("skip: Linux only (signals, /proc)")
    sys.exit(77)
if not os.path.isdir(os.path.join(PROBE, "installs", "v9-escape-hang")):
    print("skip: no probe fixtures")
    sys.exit(77)


def marked(token):
    """The processes whose environment carries MARK=token: {pid: cmdline}."""
    want = ("%s=%s" % (MARK, token)).encode()
    found = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % d, "rb") as f:
                env = f.read().split(b"\0")
            if want not in env:
                continue
            with open("/proc/%s/stat" % d, "rb") as f:
                st = f.read()
            if st[st.rfind(b")") + 2:][:1] in (b"Z", b"X"):
                continue  # a zombie that its new parent has not reaped yet: it runs nothing
            with open("/proc/%s/cmdline" % d, "rb") as f:
                found[int(d)] = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue
    return found


def wait_for(what, cond, limit=20.0):
    """Poll cond() every 10 ms until it holds or `limit` seconds pass."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if cond():
            return True
        time.sleep(0.01)
    check(False, "the moment never came: %s" % what)
    return False


def reset_signals():
    # What an interactive shell gives a command: the default action for each
    # (a CI runner may have started us with SIGHUP or SIGINT ignored, and the
    # tool keeps a signal that was ignored at its start ignored).
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGQUIT):
        signal.signal(s, signal.SIG_DFL)


def script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


# A python3 that hangs like an interpreter importing a stuck framework, and a
# C compiler that writes a temporary file where compilers do ($TMPDIR) and
# hangs like a compiler stuck on a slow disk.
FAKEBIN = tempfile.mkdtemp(prefix="cc-interrupt-bin-")
script(os.path.join(FAKEBIN, "python3"), "#!/bin/sh\nexec sleep 60\n")
SLOWCC = os.path.join(FAKEBIN, "slowcc")
script(SLOWCC, '#!/bin/sh\ncase "$1" in --version) exec cc --version ;; esac\n'
       ': >"${TMPDIR:-/tmp}/cc$$.s"\nexec sleep 60\n')


def run_case(label, argv, install, sig, moment, extra_env=None):
    """Start argv, send sig at the moment, check what is left. moment: "start",
    "probe" (the cuDNN probe child of `install` runs), "compile" (the compiled
    program runs), "framework" (the fake interpreter runs), or None (no
    signal: the run ends by itself)."""
    token = uuid.uuid4().hex
    work = tempfile.mkdtemp(prefix="cc-interrupt-")
    tmpdir = os.path.join(work, "tmp")
    os.mkdir(tmpdir)
    inst = os.path.join(PROBE, "installs", install)
    env = dict(os.environ)
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.update({MARK: token, "TMPDIR": tmpdir, "LC_ALL": "C", "CUDNN_PATH": inst,
                "LD_LIBRARY_PATH": os.path.join(PROBE, "drivers", "ok")})
    env.update(extra_env or {})
    if "PATH_PREPEND" in env:
        env["PATH"] = env.pop("PATH_PREPEND") + os.pathsep + env.get("PATH", "")
    t0 = time.monotonic()
    p = subprocess.Popen([EXE] + argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=reset_signals)
    try:
        reached = True
        if moment == "start":
            time.sleep(0.02)
        elif moment == "probe":
            reached = wait_for("%s: the probe of %s" % (label, install), lambda: any(
                "__probe cudnn" in c and inst in c for c in marked(token).values()))
            time.sleep(0.2)  # the probe's libraries are loaded (and have forked) by now
        elif moment == "compile":
            # the program itself (the compiler's command line names it too)
            reached = wait_for("%s: the compiled program" % label, lambda: any(
                c.split(" ")[0].endswith("/cudnn_probe") for c in marked(token).values()) and any(
                n.startswith("cudnnctl-compile-") for n in os.listdir(tmpdir)))
            time.sleep(0.2)
        elif moment == "compiler":
            reached = wait_for("%s: the compiler" % label, lambda: any(
                c.startswith("sleep 60") for c in marked(token).values()) and any(
                n.startswith("cudnnctl-compile-") for n in os.listdir(tmpdir)))
        elif moment == "framework":
            reached = wait_for("%s: the framework probe" % label, lambda: any(
                c.startswith("sleep 60") for c in marked(token).values()) and any(
                n.startswith("cudnnctl-fw-") for n in os.listdir(tmpdir)))
        if moment is not None:
            check(p.poll() is None, "%s: the tool ended before the signal (rc %r)" % (label, p.returncode))
            before = marked(token)
            p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            check(False, "%s: still running 20 s after the signal" % label)
        wall = time.monotonic() - t0
        if moment is not None:
            check(p.returncode == -sig, "%s: exit %r, want death by signal %d (%s)" %
                  (label, p.returncode, sig, err.decode("utf-8", "replace")[-300:]))
            if reached and moment != "start":
                check(len(before) > 1, "%s: nothing of the run was running at the signal: %r" % (label, before))
        # Anything still running now is left behind: the tool waits for what it
        # ends, and whatever is re-parented to init after its death is no zombie.
        time.sleep(0.05)
        left = marked(token)
        check(not left, "%s: processes left behind: %r" % (label, left))
        files = sorted(os.listdir(tmpdir))
        if sig == signal.SIGKILL:
            # No handler runs on SIGKILL: the compile proof, which runs beside the probes, may leave its
            # private directory, named with the PID. A later run removes it once its process is gone and it
            # is an hour old (not sooner: another PID namespace may share the directory), and no other.
            stale = [f for f in files if re.match(r"cudnnctl-compile-%d-\w{6}$" % p.pid, f)]
            files = [f for f in files if f not in stale]
            young = "cudnnctl-compile-%d-young1" % p.pid
            os.mkdir(os.path.join(tmpdir, young))
            for f in stale:
                old = time.time() - 7200
                os.utime(os.path.join(tmpdir, f), (old, old))
            again = subprocess.run([EXE, "verify", os.path.join(PROBE, "installs", "v9-ok"), "--no-gpu", "--timeout",
                                    "30"], env=dict(env, CUDNN_PATH=os.path.join(PROBE, "installs", "v9-ok")),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
            left_after = sorted(os.listdir(tmpdir))
            check(left_after == [young], "%s: after a later run TMPDIR holds %r (stale %r), want only the young %r" %
                  (label, left_after, stale, young) + " (rc %d)" % again.returncode)
            os.rmdir(os.path.join(tmpdir, young))
        check(not files, "%s: temporary files left behind in TMPDIR: %r" % (label, files))
        return wall, p.returncode, err
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for pid in marked(token):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(work, ignore_errors=True)


def verify(install, timeout, *extra):
    return ["verify", os.path.join(PROBE, "installs", install), "--no-gpu", "--timeout", str(timeout)] + list(extra)


DOCTOR = ["doctor", "--no-frameworks", "--no-gpu", "--timeout", "30"]

# ---- verify: each signal, at each moment --------------------------------------------------------

run_case("verify SIGINT at start", verify("v9-escape-hang", 30), "v9-escape-hang", signal.SIGINT, "start")
run_case("verify SIGINT in a hanging probe", verify("v9-escape-hang", 30), "v9-escape-hang", signal.SIGINT, "probe")
run_case("verify SIGTERM in a hanging probe", verify("v9-hang-create", 30), "v9-hang-create", signal.SIGTERM,
         "probe")
run_case("verify SIGHUP in a hanging probe", verify("v9-escape-hang", 30), "v9-escape-hang", signal.SIGHUP, "probe")
# --timeout 3: the probe is ended at its limit, then the compiled program hangs (and forks its
# sleeper); the limit is the compiler's too, so not less on a busy machine.
run_case("verify SIGTERM in the compile proof", verify("v9-escape-hang", 3), "v9-escape-hang", signal.SIGTERM,
         "compile")
run_case("verify SIGHUP in the compiler", verify("v9-ok", 30), "v9-ok", signal.SIGHUP, "compiler", {"CC": SLOWCC})
run_case("verify SIGPIPE in a hanging probe", verify("v9-escape-hang", 30), "v9-escape-hang", signal.SIGPIPE,
         "probe")
# SIGKILL runs no handler: the probe child still ends (PR_SET_PDEATHSIG).
run_case("verify SIGKILL in a hanging probe", verify("v9-hang-create", 30), "v9-hang-create", signal.SIGKILL,
         "probe")

# ---- doctor ---------------------------------------------------------------------------------------

run_case("doctor SIGHUP at start", DOCTOR, "v9-escape-hang", signal.SIGHUP, "start")
run_case("doctor SIGTERM in a hanging probe", DOCTOR, "v9-escape-hang", signal.SIGTERM, "probe")
# The doctor compiles against what a plain program loads: the stub on LD_LIBRARY_PATH.
run_case("doctor SIGINT in the compile proof", ["doctor", "--no-frameworks", "--no-gpu", "--timeout", "3"],
         "v9-escape-hang", signal.SIGINT, "compile", {"LD_LIBRARY_PATH": os.pathsep.join(
             [os.path.join(PROBE, "drivers", "ok"), os.path.join(PROBE, "installs", "v9-escape-hang", "lib")])})
run_case("doctor SIGINT in a framework probe", ["doctor", "--no-compile", "--no-gpu", "--timeout", "30"],
         "v9-ok", signal.SIGINT, "framework", {"PATH_PREPEND": FAKEBIN})

# ---- runs that end by themselves --------------------------------------------------------------------

# Processes that left the probe's process group are ended with the probe, and
# the tool does not wait for them (they hold its pipes).
wall, rc, err = run_case("verify v9-escape", verify("v9-escape", 10), "v9-escape", None, None)
check(rc == 0, "verify v9-escape: exit %r, want 0 (%s)" % (rc, err.decode("utf-8", "replace")[-300:]))
check(wall < 8, "verify v9-escape: %.1f s" % wall)
wall, rc, err = run_case("verify v9-escape-hang", verify("v9-escape-hang", 1), "v9-escape-hang", None, None)
check(rc == 1, "verify v9-escape-hang: exit %r, want 1" % rc)

shutil.rmtree(FAKEBIN, ignore_errors=True)
sys.exit(CHECKS.summary("interrupt"))
