"""What the CLI test scripts (tests/cli/test_*.py) share: the command line
they are given, counting checks, running the program under test, reading its
JSON.

CTest runs each script as `python3 tests/cli/test_X.py --exe CUDNNCTL ...`
(tests/CMakeLists.txt); a script imports this module from its own directory:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cliutil  # noqa: E402
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time


def parser(fixtures=False, system=False, wrapper=False):
    """An argument parser with --exe (required) and, when asked, --fixtures
    (required), --system (linux or windows, default linux) and --wrapper (a
    program that runs the exe, e.g. wine: CTest's ${CLI_WRAPPER})."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    if fixtures:
        ap.add_argument("--fixtures", required=True)
    if system:
        ap.add_argument("--system", default="linux")
    if wrapper:
        ap.add_argument("--wrapper", default="")
    return ap


def wrapper_missing(wrapper):
    """Whether a --wrapper was given that is neither on PATH nor a file."""
    return bool(wrapper) and not shutil.which(wrapper) and not os.path.exists(wrapper)


def wine_path(path):
    """The path as a program under Wine sees it (Z: is the Unix root)."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


class WinRun:
    """Windows programs run for a test: under the Wine wrapper when one is
    given, else natively (on Windows). WINEDEBUG=-all, and WINEPATH and the
    variables in drop are left out of their environment.

    tool() runs the program under test; under Wine it runs it once more when
    it exited 1 with no output at all: the program prints a document or an
    error line on every exit, so that came from Wine failing to start it
    (seen once in CI, right after a run ended by TerminateProcess)."""

    def __init__(self, wrapper, exe, drop=()):
        self.wrapper = wrapper
        self.pre = [wrapper] if wrapper else []
        self.exe = os.path.abspath(exe)
        self.env = dict(os.environ, WINEDEBUG="-all")
        for k in ("WINEPATH",) + tuple(drop):
            self.env.pop(k, None)

    def run(self, *argv, fault=None, cwd=None):
        """(exit status, stdout, stderr) of argv; fault sets CUDNNCTL_TEST_FAULT."""
        e = dict(self.env)
        if fault:
            e["CUDNNCTL_TEST_FAULT"] = fault
        r = subprocess.run(self.pre + list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, env=e, timeout=300, cwd=cwd)
        return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")

    def again_if_silent(self, *argv, fault=None, cwd=None):
        """run(*argv), and once more when Wine failed to start it (see the class)."""
        rc, out, err = self.run(*argv, fault=fault, cwd=cwd)
        if self.wrapper and rc == 1 and not out and not err and not fault:
            print("note: %s %s: exit 1 with no output from Wine; run again" % (self.wrapper, " ".join(argv)))
            rc, out, err = self.run(*argv, fault=fault, cwd=cwd)
        return rc, out, err

    def tool(self, *argv, fault=None, cwd=None):
        """The program under test with argv."""
        return self.again_if_silent(self.exe, *argv, fault=fault, cwd=cwd)


def jdoc(out):
    """A command's JSON document, {} when it printed none (or not an object)."""
    doc, _ = parse_json(out)
    return doc if isinstance(doc, dict) else {}


class WineReg:
    """The registry of a Wine prefix, read and written with Wine's reg.exe
    through .reg files, so that a value's type and bytes are exact.

    run(*argv) -> (rc, out, err) runs a Windows program (the wrapper in front);
    work is a directory for the .reg files; native(path) is a path as Wine
    sees it."""

    USER = "HKEY_CURRENT_USER\\Environment"
    MACHINE = "HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
    SESSION = "HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Session Manager"

    def __init__(self, run, work, native):
        self.run, self.work, self.native = run, work, native

    def export(self, key, name):
        """The key's .reg export: its text (UTF-16 decoded), None on failure."""
        f = os.path.join(self.work, name)
        for attempt in range(2):
            if os.path.exists(f):
                os.remove(f)
            rc, out, err = self.run("reg", "export", key, self.native(f), "/y")
            if rc == 0 and os.path.exists(f):
                return open(f, "rb").read().decode("utf-16", "replace")
            # once, on a loaded machine, reg.exe ended without its file: say so and ask again
            print("note: reg export %s: status %d, %s; %s" % (key, rc, "no file" if not os.path.exists(f) else
                                                               "a file", "again" if attempt == 0 else "giving up"))
        return None

    @staticmethod
    def value_of(text, name="Path"):
        """(type, bytes) of value name in an export's text, None when absent."""
        if text is None:
            return None
        flat = re.sub(r"\\\r?\n\s*", "", text)
        for line in flat.splitlines():
            m = re.match(r'^"%s"=(.*)$' % re.escape(name), line, re.I)
            if not m:
                continue
            v = m.group(1)
            if v.startswith('"'):
                s = v[1:-1].replace('\\"', '"').replace("\\\\", "\\")
                return ("REG_SZ", (s + "\0").encode("utf-16-le"))
            h = re.match(r"hex\((\w+)\):(.*)$", v)
            if h:
                data = bytes(int(x, 16) for x in h.group(2).split(",") if x)
                return ({"2": "REG_EXPAND_SZ", "7": "REG_MULTI_SZ"}.get(h.group(1), h.group(1)), data)
            return ("other", v.encode())
        return None

    @staticmethod
    def text_of(val):
        return val[1].decode("utf-16-le").rstrip("\0") if val else None

    def get(self, key, name="Path"):
        """(type, bytes) of a value now, None when absent."""
        return self.value_of(self.export(key, "get.reg"), name)

    def set(self, key, name, typ, text):
        """Set a value (REG_SZ or REG_EXPAND_SZ) through a .reg file: its bytes exactly."""
        data = (text + "\0").encode("utf-16-le")
        if typ == "REG_SZ":
            v = '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')
        else:
            v = "hex(2):" + ",".join("%02x" % b for b in data)
        f = os.path.join(self.work, "set.reg")
        with open(f, "wb") as fh:
            fh.write(("\ufeffWindows Registry Editor Version 5.00\r\n\r\n[%s]\r\n\"%s\"=%s\r\n"
                      % (key, name, v)).encode("utf-16-le"))
        return self.run("reg", "import", self.native(f))[0] == 0

    def restore(self, key, saved, name="Path"):
        """Put back a value as get() returned it (None: delete it)."""
        if saved is None:
            self.run("reg", "delete", key, "/v", name, "/f")
        else:
            self.set(key, name, saved[0], self.text_of(saved))


class Checks:
    """Counts checks. check(cond, what) says nothing when cond holds and
    "FAIL: what" when not; named(name, cond, detail) says "ok   name" or
    "FAIL name detail" (detail: a string, or anything json can show, cut to
    `limit` characters)."""

    def __init__(self, limit=None):
        self.passed = 0
        self.failures = []
        self.limit = limit

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failures.append(what)
            print("FAIL:", what, flush=True)

    def named(self, name, cond, detail=""):
        if cond:
            self.passed += 1
            print("ok   %s" % name)
        else:
            self.failures.append(name)
            d = detail if isinstance(detail, str) else json.dumps(detail, default=str)
            print("FAIL %s %s" % (name, d[:self.limit]))

    def summary(self, label="", list_failures=False, need_passes=False):
        """Print "[label: ]N passed, M failed" (and each failure); the exit
        status: 1 when a check failed (or, with need_passes, none passed)."""
        print("%s%d passed, %d failed" % (label + ": " if label else "", self.passed, len(self.failures)))
        if list_failures:
            for f in self.failures:
                print("  failed: %s" % f)
        return 1 if self.failures or (need_passes and self.passed == 0) else 0


class Result:
    """What a run gave: rc, out and err (bytes), wall (seconds)."""

    def __init__(self, rc, out, err, wall):
        self.rc, self.out, self.err, self.wall = rc, out, err, wall

    @property
    def out_text(self):
        return self.out.decode("utf-8", "replace")

    @property
    def err_text(self):
        return self.err.decode("utf-8", "replace")


class Program:
    """The program under test: [WRAPPER] EXE ARGS..., with this process's
    environment less `unset` plus `setenv`, and a time limit."""

    def __init__(self, exe, wrapper="", setenv=None, unset=(), timeout=300):
        self.cmd = ([wrapper] if wrapper else []) + [exe]
        self.setenv = dict(setenv or {})
        self.unset = tuple(unset)
        self.timeout = timeout

    def environ(self, env=None, unset=()):
        """The environment of a run: the base one less `unset`, plus `env`."""
        e = dict(os.environ)
        for k in self.unset:
            e.pop(k, None)
        e.update(self.setenv)
        for k in unset:
            e.pop(k, None)
        e.update(env or {})
        return e

    def run(self, args, env=None, unset=(), environ=None, stdin=None, timeout=None, prefix=(), stdout_path=None):
        """Run it with args. environ, when given, is the whole environment;
        prefix goes before the command (setpriv...); stdout_path takes
        standard output (out is then empty)."""
        cmd = list(prefix) + self.cmd + list(args)
        e = environ if environ is not None else self.environ(env, unset)
        limit = timeout if timeout is not None else self.timeout
        t = time.monotonic()
        if stdout_path:
            with open(stdout_path, "wb") as f:
                p = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, env=e, timeout=limit, input=stdin)
            return Result(p.returncode, b"", p.stderr, time.monotonic() - t)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=limit, input=stdin)
        flake = None
        if len(self.cmd) > 1 and p.returncode == 1 and not p.stdout and not p.stderr:
            # The program never exits 1 without a word (1 means a problem it names on standard error); the
            # emulator (Wine) on a loaded machine now and then does, before the program ran. Once more, said.
            flake = "exited 1 with no output at all"
        elif len(self.cmd) > 1 and p.returncode != 0 and b"cannot start: error 1359:" in p.stderr:
            # ERROR_INTERNAL_ERROR from the emulator's CreateProcess of the probe child (seen once in CI
            # on a loaded machine, the first run after another test's processes ended): the program said
            # so as it must; the emulator's, not the program's. Once more, said.
            flake = "could not start its child (the emulator's error 1359)"
        if flake:
            print("note: %s %s: run again" % (self.cmd[0], flake), flush=True)
            t = time.monotonic()
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=limit, input=stdin)
        return Result(p.returncode, p.stdout, p.stderr, time.monotonic() - t)


def parse_json(out):
    """(document, None) for JSON text (bytes are read as UTF-8), else (None, why)."""
    try:
        return json.loads(out.decode("utf-8") if isinstance(out, bytes) else out), None
    except Exception as ex:  # noqa: BLE001 - any parse failure is the answer
        return None, str(ex)


def json_tool_ok(out):
    """What `... --json | python3 -m json.tool` does: whether it accepts out (bytes)."""
    p = subprocess.run([sys.executable, "-m", "json.tool"], input=out, capture_output=True)
    return p.returncode == 0


def checks_of(doc):
    """A verify document's checks by id."""
    return {c["id"]: c for l in doc.get("layers", []) for c in l["checks"]}


def expect_check(check, doc, name, cid, status, *contains):
    """check(cond, what) that verify's check cid has status and a summary holding each of contains."""
    c = checks_of(doc).get(cid)
    if c is None:
        check(False, "%s: no check %s" % (name, cid))
        return
    check(c["status"] == status, "%s: %s is %s, want %s (%s)" % (name, cid, c["status"], status, c["summary"]))
    for s in contains:
        check(s in c["summary"], "%s: %s summary %r lacks %r" % (name, cid, c["summary"], s))


def snap(root):
    """The whole tree below root: path -> ("link", target), ("dir", mode) or ("file", mode, SHA-256)."""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", oct(st.st_mode & 0o7777))
            else:
                with open(p, "rb") as f:
                    out[rel] = ("file", oct(st.st_mode & 0o7777), hashlib.sha256(f.read()).hexdigest())
    return out


def tree_diff(want, got, n=8):
    """The first n paths where two snap() trees differ, each with what was wanted and what is there (a digest
    cut to 12 digits)."""
    def show(v):
        if v is None:
            return "absent"
        if isinstance(v, tuple) and v[0] == "file":
            return "file %s %s" % (v[1], v[2][:12])
        return " ".join(str(x) for x in v) if isinstance(v, tuple) else str(v)
    keys = sorted(set(want) | set(got))
    return ["%s: want %s, is %s" % (k, show(want.get(k)), show(got.get(k))) for k in keys
            if want.get(k) != got.get(k)][:n]


class Holder:
    """A child that holds libraries loaded and waits (tests/cli/test_who_uses.py's holders, tests/wine/holddll.c):
    it prints "ready PID" (the pid as the system under test numbers it) and exits when its standard input
    closes, or when the file stop appears. pid is None when it did not say ready (why() says what it did); a
    start that hangs is killed after start_timeout seconds. end() ends it (killed if it has not gone in 30 s)."""

    def __init__(self, cmd, env=None, stop=None, start_timeout=180):
        self.stop = stop
        self.pid = None
        self.ready = ""
        self.errf = tempfile.TemporaryFile()
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errf, env=env)
        guard = threading.Timer(start_timeout, self.p.kill)
        guard.start()
        try:
            self.ready = self.p.stdout.readline().decode("utf-8", "replace").strip()
        except BaseException:
            self.end()
            raise
        finally:
            guard.cancel()
        w = self.ready.split()
        if len(w) == 2 and w[0] == "ready" and w[1].isdigit():
            self.pid = int(w[1])

    def why(self):
        self.errf.seek(0)
        return "printed %r; standard error %r" % (self.ready, self.errf.read()[-600:].decode("utf-8", "replace"))

    def end(self):
        if self.stop:
            open(self.stop, "w").close()
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        self.p.stdout.close()
        self.errf.close()


def timeless(v):
    """A document without what depends on timing (wall times, import seconds, output sizes, the
    milliseconds a timed-out child ran)."""
    if isinstance(v, dict):
        return {k: timeless(x) for k, x in v.items()
                if k not in ("wall_ms", "seconds", "printed_bytes", "gather_ms", "generated_at")}
    if isinstance(v, list):
        return [timeless(x) for x in v]
    if isinstance(v, str):
        # and the private directories of the children (a new name each run)
        v = re.sub(r"after \d+ ms", "after N ms", v)
        return re.sub(r"/cudnnctl-([a-z]+)-(?:\d+-)?[A-Za-z0-9]{6}\b", r"/cudnnctl-\1-XXXXXX", v)
    return v


def first_diff(a, b, at=""):
    """Where two documents first differ (a path), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            d = first_diff(a.get(k), b.get(k), at + "/" + k)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, "%s/%d" % (at, i))
            if d:
                return d
        return None
    return None if a == b else "%s: %r != %r" % (at, str(a)[:300], str(b)[:300])
