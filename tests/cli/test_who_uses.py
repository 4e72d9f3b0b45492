#!/usr/bin/env python3
"""cudnnctl who-uses: a child process that maps a library from a temporary
tree is found by its pid, with its name and command line, through the file,
a symbolic link to it, a hard link to it (the maps name the first path: only
the inode tells), its new name after a rename, and the directory above it; a
file replaced while mapped is reported as a deleted file of that path; a
library nobody maps is the empty answer with exit status 0; after the child
ends nobody maps it; the JSON keys are the documented ones; an installation
of `list` (this machine's cuDNN under /usr/local/cuda, when there is one)
named by its id and by its prefix is found mapped by a child that loads it;
--root is refused and a missing file is exit status 3.

Linux: the library and the child (which dlopens it and waits) are built here
with the system compiler. Windows (--system windows, under Wine with
--wrapper): a stub DLL and a program that LoadLibrary's it and waits, built
with mingw-w64; the module snapshot must find it.

usage: test_who_uses.py --exe CUDNNCTL [--system linux|windows] [--wrapper WINE]
exit 77: no compiler for the fixtures (cc, or x86_64-w64-mingw32-gcc)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

ap = cliutil.parser(system=True, wrapper=True)
args = ap.parse_args()
WIN = args.system == "windows"
EXE = cliutil.Program(args.exe, args.wrapper, setenv={"WINEDEBUG": "-all"}, timeout=120)
CHECKS = cliutil.Checks(limit=1500)
named = CHECKS.named

DOC_KEYS = {"schema_version", "tool", "tool_version", "command", "machine", "queries", "targets", "files", "verdict",
            "users", "processes", "unreadable", "notes"}
TARGET_KEYS = {"query", "kind", "path", "installation", "files", "truncated"}
USER_KEYS = {"pid", "name", "cmdline", "file", "seen", "deleted"}

LIB_C = "int who_uses_probe(void) { return 42; }\n"
# Loads each library named, says "ready", and waits for its standard input to close (or 60 s).
HOLDER_C = r"""
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
        int i;
        alarm(60);
        for (i = 1; i < argc && argv[i][0] != '-'; i++)
                if (dlopen(argv[i], RTLD_NOW) == NULL) {
                        fprintf(stderr, "%s\n", dlerror());
                        return 1;
                }
        printf("ready %d\n", (int)getpid());
        fflush(stdout);
        while (getchar() != EOF)
                ;
        return 0;
}
"""
# Windows: LoadLibrary each DLL named, print "ready PID", wait until the stop file exists (or 60 s).
HOLDER_WIN_C = r"""
#include <windows.h>
#include <stdio.h>
int wmain(int argc, wchar_t **argv)
{
        int i, t;
        for (i = 1; i < argc - 1; i++)
                if (LoadLibraryW(argv[i]) == NULL) {
                        fprintf(stderr, "LoadLibrary failed: %lu\n", GetLastError());
                        return 1;
                }
        printf("ready %lu\n", GetCurrentProcessId());
        fflush(stdout);
        for (t = 0; t < 1200 && GetFileAttributesW(argv[argc - 1]) == INVALID_FILE_ATTRIBUTES; t++)
                Sleep(50);
        return 0;
}
"""


def run(argv):
    r = EXE.run(argv)
    doc = None
    if "--json" in argv:
        doc, _ = cliutil.parse_json(r.out)
    return r, doc


def users_of(doc, pid):
    return [u for u in (doc or {}).get("users", []) if u.get("pid") == pid]


def Holder(cmd, env=None, stop=None):
    """cliutil.Holder, which must start."""
    h = cliutil.Holder(cmd, env=env, stop=stop)
    if h.pid is None:
        why = h.why()
        h.end()
        raise RuntimeError("the holder did not start: " + why)
    return h


def compile_or_skip(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print("cannot build a fixture: %s\n%s" % (" ".join(cmd), p.stderr[:2000]))
        sys.exit(1)


def common_checks(tmp, lib, native):
    """What holds on both systems: the usage errors."""
    r, _ = run(["who-uses", "--root", tmp, native(lib)])
    named("--root is refused: exit 2 and one line", r.rc == 2 and r.err_text.count("\n") == 1 and
          "--root" in r.err_text, (r.rc, r.err_text))
    r, _ = run(["who-uses", native(os.path.join(tmp, "no-such.so"))])
    named("a file that does not exist: exit 3, named", r.rc == 3 and "no-such.so" in r.err_text, (r.rc, r.err_text))
    r, _ = run(["who-uses"])
    named("no operand: exit 2", r.rc == 2, (r.rc, r.err_text))
    r, _ = run(["who-uses", "999999", "--json"])
    named("an installation id that `list` does not have: exit 3", r.rc == 3 and "999999" in r.err_text,
          (r.rc, r.err_text))


def linux(tmp):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("no C compiler")
        return 77
    libdir = os.path.join(tmp, "tree", "lib")
    os.makedirs(libdir)
    src = os.path.join(tmp, "lib.c")
    with open(src, "w") as f:
        f.write(LIB_C)
    other = os.path.join(tmp, "other")
    os.makedirs(other)
    os.symlink("other", os.path.join(tmp, "other-link"))
    gone = os.path.join(other, "libgone.so.1")
    lib = os.path.join(libdir, "libwhouses.so.1.2.3")
    unused = os.path.join(libdir, "libnobody.so.1")
    doomed = os.path.join(libdir, "libreplaced.so.1")
    for out in (lib, unused, doomed, gone):
        compile_or_skip([cc, "-shared", "-fPIC", "-o", out, src])
    os.symlink("libwhouses.so.1.2.3", os.path.join(libdir, "libwhouses.so.1"))
    hard = os.path.join(tmp, "hard link to libwhouses.so")
    os.link(lib, hard)
    holder_src = os.path.join(tmp, "holder.c")
    with open(holder_src, "w") as f:
        f.write(HOLDER_C)
    holder = os.path.join(tmp, "who-holder")
    compile_or_skip([cc, "-o", holder, holder_src, "-ldl"])

    common_checks(tmp, lib, os.path.abspath)
    h = Holder([holder, lib, doomed, gone, "--tag", "with space"])
    try:
        r, doc = run(["who-uses", lib, "--json"])
        mine = users_of(doc, h.pid)
        named("who-uses FILE: the child, by pid, exit 1", r.rc == 1 and len(mine) == 1, (r.rc, doc, r.err_text))
        if mine:
            u = mine[0]
            named("  its name (comm)", u["name"] == "who-holder", u)
            want = "%s %s %s %s --tag with space" % (holder, lib, doomed, gone)
            named("  its command line, NULs as spaces", u["cmdline"] == want, u)
            named("  the file it maps, as asked", u["file"] == os.path.realpath(lib), u)
            named("  seen in the maps (device and inode)", "maps" in u["seen"] and not u["deleted"], u)
            if os.geteuid() == 0:
                named("  and confirmed through map_files (root)", "map_files" in u["seen"], u)
            named("  the user's keys are the documented ones", set(u) == USER_KEYS, sorted(u))
        named("the document's keys are the documented ones", doc is not None and set(doc) == DOC_KEYS,
              sorted(doc or {}))
        if doc:
            named("  verdict in-use, one target of kind file", doc["verdict"] == "in-use" and
                  [t["kind"] for t in doc["targets"]] == ["file"] and set(doc["targets"][0]) == TARGET_KEYS,
                  doc["targets"])
            named("  processes counted", doc["processes"] >= 2 and doc["unreadable"] >= 0, doc)

        r, doc = run(["who-uses", os.path.join(libdir, "libwhouses.so.1"), "--json"])
        mine = users_of(doc, h.pid)
        named("a symbolic link is the file it leads to", r.rc == 1 and len(mine) == 1 and
              doc["targets"][0]["path"] == os.path.realpath(lib) and mine[0]["file"] == os.path.realpath(lib),
              doc)
        r, doc = run(["who-uses", hard, "--json"])
        mine = users_of(doc, h.pid)
        named("a hard link (another name the maps never show) is found by its inode",
              r.rc == 1 and len(mine) == 1 and mine[0]["file"] == hard and "maps" in mine[0]["seen"], doc)
        r, doc = run(["who-uses", lib, hard, os.path.join(libdir, "libwhouses.so.1"), "--json"])
        named("three names of one file (itself, a hard link, a symbolic link): asked about once",
              r.rc == 1 and doc["files"] == [os.path.realpath(lib)] and
              [t["files"] for t in doc["targets"]] == [1, 0, 0] and len(users_of(doc, h.pid)) == 1, doc)
        r, doc = run(["who-uses", os.path.join(tmp, "tree"), "--json"])
        mine = users_of(doc, h.pid)
        files = {u["file"] for u in mine}
        named("who-uses DIR: every library below it; the child maps two of them",
              r.rc == 1 and doc["targets"][0]["kind"] == "directory" and
              files == {os.path.realpath(lib), os.path.realpath(doomed)} and doc["targets"][0]["files"] == 3,
              doc)
        r, doc = run(["who-uses", unused, "--json"])
        named("a library nobody maps: exit 0, no users, verdict not-in-use",
              r.rc == 0 and doc and doc["users"] == [] and doc["verdict"] == "not-in-use", (r.rc, doc))
        r, _ = run(["who-uses", unused])
        named("  and the text says so", r.rc == 0 and "not in use" in r.out_text, r.out_text)

        # another user's process: not readable without privilege, counted and said
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        if (os.geteuid() == 0 and shutil.which("setpriv") and not args.wrapper and
                EXE.run(["--version"], prefix=nobody).rc == 0):
            os.chmod(tmp, 0o755)
            r = EXE.run(["who-uses", lib, "--json"], prefix=nobody)
            doc, _ = cliutil.parse_json(r.out)
            named("as nobody: root's child is not readable, counted, exit 0", r.rc == 0 and doc and
                  users_of(doc, h.pid) == [] and doc["unreadable"] >= 1, (r.rc, doc, r.err_text))
            r = EXE.run(["who-uses", lib], prefix=nobody)
            named("  and the text says how many could not be read", r.rc == 0 and "could not be read" in r.out_text,
                  r.out_text)
        else:
            print("skip: not root, no setpriv, or nobody cannot run the program: the unreadable count is not tested")

        r, _ = run(["who-uses", lib])
        named("the text names the pid, the name and the command line", r.rc == 1 and str(h.pid) in r.out_text and
              "who-holder" in r.out_text and "--tag with space" in r.out_text and "in use" in r.out_text,
              r.out_text)

        # renamed while mapped: the new name is the same file
        moved = os.path.join(libdir, "libwhouses-renamed.so.1")
        os.rename(lib, moved)
        r, doc = run(["who-uses", moved, "--json"])
        named("a file renamed while mapped is found under its new name", r.rc == 1 and
              len(users_of(doc, h.pid)) == 1, doc)
        os.rename(moved, lib)

        # replaced while mapped: the path now holds another file; the child maps the deleted one
        with open(doomed + ".new", "wb") as f, open(unused, "rb") as g:
            f.write(g.read())
        os.rename(doomed + ".new", doomed)
        r, doc = run(["who-uses", doomed, "--json"])
        mine = users_of(doc, h.pid)
        named("a file replaced while mapped: the child maps the deleted one of that path",
              r.rc == 1 and len(mine) == 1 and mine[0]["deleted"] is True and mine[0]["seen"] == ["deleted"], doc)
        r, _ = run(["who-uses", doomed])
        named("  and the text says deleted", "deleted" in r.out_text, r.out_text)

        # removed while mapped: no file there now, asked about through a link to its directory
        os.remove(gone)
        via = os.path.join(tmp, "other-link", "libgone.so.1")
        r, doc = run(["who-uses", via, "--json"])
        mine = users_of(doc, h.pid)
        named("a file removed while mapped (its directory named through a link): the child, deleted",
              r.rc == 1 and len(mine) == 1 and mine[0]["deleted"] is True and mine[0]["file"] == via, (r.rc, doc))
        r, _ = run(["who-uses", os.path.join(tmp, "other-link", "libnever.so.1")])
        named("a file that is not there and that nobody maps: exit 3", r.rc == 3 and "libnever" in r.err_text,
              (r.rc, r.err_text))
    finally:
        h.end()
    r, doc = run(["who-uses", lib, "--json"])
    named("after the child ends nobody maps it: exit 0", r.rc == 0 and doc and users_of(doc, h.pid) == [],
          (r.rc, doc))

    # A prefix that `list` finds only when it is named: an installation with no id, its cuDNN libraries asked about.
    prefix = os.path.join(tmp, "cudnn-unlisted")
    os.makedirs(os.path.join(prefix, "lib"))
    shutil.copy(unused, os.path.join(prefix, "lib", "libcudnn.so.9.1.0"))
    os.symlink("libcudnn.so.9.1.0", os.path.join(prefix, "lib", "libcudnn.so.9"))
    shutil.copy(unused, os.path.join(prefix, "lib", "libother.so.1"))
    r, doc = run(["who-uses", prefix, "--json"])
    named("an installation prefix `list` finds only when named: kind installation, no id, its cuDNN file only",
          r.rc == 0 and doc and doc["targets"][0]["kind"] == "installation" and
          doc["targets"][0]["installation"] is None and
          doc["files"] == [os.path.join(os.path.realpath(prefix), "lib", "libcudnn.so.9.1.0")], (r.rc, doc))
    r, _ = run(["who-uses", prefix])
    named("  and the text says so", r.rc == 0 and "only when named" in r.out_text, r.out_text)

    # The machine's own cuDNN, an installation of `list`, by id and by prefix.
    real = "/usr/local/cuda/lib64/libcudnn.so.9"
    if not os.path.exists(real):
        print("skip: no %s on this machine" % real)
        return 0
    r, listed = run(["list", "--json"])
    ident = None
    for inst in (listed or {}).get("installations", []):
        if any(f.get("path") == os.path.realpath(real) for f in inst.get("files", [])):
            ident = inst["id"]
    named("`list` has an installation holding %s" % real, ident is not None, listed and listed.get("installations"))
    if ident is None:
        return 0
    h = Holder([holder, real])
    try:
        r, doc = run(["who-uses", str(ident), "--json"])
        mine = users_of(doc, h.pid)
        named("who-uses %d (the installation's id): the child that loads libcudnn.so.9" % ident,
              r.rc == 1 and doc["targets"][0]["kind"] == "installation" and doc["targets"][0]["installation"] == ident
              and [u["file"] for u in mine] == [os.path.realpath(real)], doc)
        r, doc = run(["who-uses", "/usr/local/cuda", "--json"])
        named("who-uses /usr/local/cuda (its prefix, through a link): the same", r.rc == 1 and
              doc["targets"][0]["kind"] == "installation" and len(users_of(doc, h.pid)) == 1, doc)
    finally:
        h.end()
    return 0


def windows(tmp):
    gcc = shutil.which("x86_64-w64-mingw32-gcc")
    if gcc is None:
        print("no x86_64-w64-mingw32-gcc")
        return 77
    native = cliutil.wine_path if args.wrapper else os.path.abspath
    d = os.path.join(tmp, "bin")
    os.makedirs(d)
    src = os.path.join(tmp, "stub.c")
    with open(src, "w") as f:
        f.write("__declspec(dllexport) int who_uses_probe(void) { return 42; }\n")
    dll = os.path.join(d, "cudnn64_9.dll")
    unused = os.path.join(d, "cudnn_ops64_9.dll")
    for out in (dll, unused):
        compile_or_skip([gcc, "-shared", "-o", out, src])
    hsrc = os.path.join(tmp, "holder.c")
    with open(hsrc, "w") as f:
        f.write(HOLDER_WIN_C)
    holder = os.path.join(tmp, "who-holder.exe")
    compile_or_skip([gcc, "-municode", "-o", holder, hsrc])
    common_checks(tmp, dll, native)
    stop = os.path.join(tmp, "stop")
    env = EXE.environ()
    h = Holder(([args.wrapper] if args.wrapper else []) + [holder, native(dll), native(stop)], env=env, stop=stop)
    try:
        r, doc = run(["who-uses", native(dll), "--json"])
        mine = users_of(doc, h.pid)
        named("who-uses DLL: the program that loaded it, by pid, exit 1", r.rc == 1 and len(mine) == 1,
              (r.rc, doc, r.err_text))
        if mine:
            u = mine[0]
            named("  its name", (u["name"] or "").lower() == "who-holder.exe", u)
            named("  seen in its module snapshot", "modules" in u["seen"], u)
            named("  the file as asked, the keys documented", set(u) == USER_KEYS and
                  u["file"].lower().endswith("cudnn64_9.dll"), u)
            print("note: command line %r; seen %r; notes %r" % (u["cmdline"], u["seen"], doc["notes"]))
        r, doc = run(["who-uses", native(d), "--json"])
        named("who-uses DIR: the DLL below it", r.rc == 1 and doc["targets"][0]["kind"] == "directory" and
              len(users_of(doc, h.pid)) == 1, doc)
        r, doc = run(["who-uses", native(unused), "--json"])
        named("a DLL nobody loaded: exit 0, no users", r.rc == 0 and doc and doc["users"] == [], (r.rc, doc))
    finally:
        h.end()
    r, doc = run(["who-uses", native(dll), "--json"])
    named("after the program ends nobody has it: exit 0", r.rc == 0 and doc and users_of(doc, h.pid) == [],
          (r.rc, doc))
    return 0


def main():
    if cliutil.wrapper_missing(args.wrapper):
        print("no %s" % args.wrapper)
        return 77
    tmp = tempfile.mkdtemp(prefix="cudnnctl-who-")
    t0 = time.monotonic()
    try:
        rc = windows(tmp) if WIN else linux(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("(%.1f s)" % (time.monotonic() - t0))
    if rc == 77:
        return 77
    return CHECKS.summary(need_passes=True)


sys.exit(main())
