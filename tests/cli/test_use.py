#!/usr/bin/env python3
"""cudnnctl use: the machine's default cuDNN through /etc/ld.so.conf.d, one
transaction, ldconfig, undone by rollback.

1. A --root tree: 9.14.0 stubs in /opt/old/lib, listed by
   /etc/ld.so.conf.d/old.conf, and 9.19.0 stubs in /opt/new/lib (the stubs of
   test_loadtrace). `use --dry-run` writes nothing; `use /opt/new/lib` writes
   00-cudnnctl.conf naming /opt/new/lib; as root, `ldconfig -r` makes the
   tree's cache and `which libcudnn.so.9` then picks 9.19 through it (ldconfig
   keeps the first directory of a name, and 00- is read first); `use --none`
   takes the file away (9.14 again); `rollback` without DIR finds the target
   in the tree's own state directory (TREE/var/lib/cudnnctl) and puts it back,
   and rolling back everything gives the directory back byte for byte. Not
   root: ldconfig is "needed", never run.
   Kill walks (CUDNNCTL_TEST_FAULT=kill:N at N = 1, 2, ... until the use runs
   whole): `use 9.19` placing the file, `use 9.14` replacing it, `use --none`
   removing it; after each kill `recover /etc/ld.so.conf.d` gives the
   directory back byte for byte, or, killed after the commit, the new file is
   whole and `rollback` gives the old one back.
2. As root on this machine itself: `use` of a 9.19 stub installation in a
   temporary directory, then a plain program (python3's ctypes, no
   LD_LIBRARY_PATH) loads that stub's libcudnn.so.9; `rollback
   /etc/ld.so.conf.d` and the program loads what it loaded before. Whatever
   happens, the file is taken away and ldconfig run at the end.
3. --user: the lines printed; with --write, a marked block in ~/.bashrc,
   ~/.config/fish/config.fish and ~/.zshrc that the real shell reads and
   then has the installation first; a second use replaces the block;
   rollback; --none gives the file back byte for byte; a start file that is
   a symbolic link is not written through.
Also: INSTALL and --none together, neither, no /etc/ld.so.conf.d, a
directory ld.so.conf cannot name, --system windows.
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402
import test_loadtrace  # noqa: E402

CONF = "00-cudnnctl.conf"
PROBE = ("import ctypes\ntry:\n    h = ctypes.CDLL('libcudnn.so.9')\n"
         "    r = (ctypes.c_char * 32).in_dll(h, 'cc_fx_role').value.decode()\n"
         "except (OSError, ValueError) as e:\n    r = 'other: ' + str(e).split(':')[0]\nprint(r)\n")


def snapshot(d):
    """Every file under d except the engine's .cudnnctl: relative path -> sha256."""
    out = {}
    for base, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x != ".cudnnctl"]
        for f in files:
            p = os.path.join(base, f)
            out[os.path.relpath(p, d)] = hashlib.sha256(open(p, "rb").read()).hexdigest()
    return out


def main():
    ap = cliutil.parser()
    args = ap.parse_args()
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        print("skip: no C compiler for the stub libraries")
        return 77
    exe = os.path.abspath(args.exe)
    root_user = hasattr(os, "geteuid") and os.geteuid() == 0
    c = cliutil.Checks(limit=400)
    work = tempfile.mkdtemp(prefix="cc-use-")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH" and not k.startswith("CUDNN")}

    def run(*argv):
        r = subprocess.run([exe] + list(argv), env=env, capture_output=True, text=True, timeout=300)
        doc, _ = cliutil.parse_json(r.stdout) if "--json" in argv else (None, None)
        return r, doc or {}

    try:
        s914 = test_loadtrace.Stubs(cc, work, "9.14.0")
        s919 = test_loadtrace.Stubs(cc, work, "9.19.0")
        tree = os.path.join(work, "tree")
        confd = os.path.join(tree, "etc", "ld.so.conf.d")
        os.makedirs(confd)
        with open(os.path.join(tree, "etc", "ld.so.conf"), "w") as f:
            f.write("include /etc/ld.so.conf.d/*.conf\n")
        with open(os.path.join(confd, "old.conf"), "w") as f:
            f.write("/opt/old/lib\n")
        test_loadtrace.lay(s914, os.path.join(tree, "opt", "old", "lib"), {"kind": "full"})
        test_loadtrace.lay(s919, os.path.join(tree, "opt", "new", "lib"), {"kind": "full"})
        # the tree's state directory, where `rollback` without DIR looks for the last target (not there yet:
        # the first use makes it)
        state_file = os.path.join(tree, "var", "lib", "cudnnctl", "transactions.tsv")
        if root_user:
            subprocess.run(["ldconfig", "-r", tree], check=True)
        before = snapshot(confd)

        def last_recorded():
            """The tree's state file's last line: [transaction, label, target]."""
            lines = open(state_file).read().splitlines() if os.path.exists(state_file) else []
            return lines[-1].split("\t") if lines else []

        def loads():
            r, d = run("which", "libcudnn.so.9", "--root", tree, "--json")
            res = (d.get("results") or [{}])[0]
            return res.get("realpath") or res.get("path")

        r, d = run("use", "/opt/new/lib", "--root", tree, "--dry-run", "--json")
        c.named("use --dry-run: the plan places 00-cudnnctl.conf naming /opt/new/lib, nothing written",
                r.returncode == 0 and d.get("result", {}).get("status") == "planned"
                and [(o["op"], o["path"]) for o in d.get("operations", [])] == [("place", CONF)]
                and (d.get("content") or "").splitlines()[-1:] == ["/opt/new/lib"] and snapshot(confd) == before,
                (r.returncode, r.stderr[-300:], d.get("operations")))
        r, d = run("use", "/opt/new/lib", "--root", tree, "--json")
        c.named("use without --yes and without a terminal: refused, nothing written",
                r.returncode == 2 and snapshot(confd) == before, (r.returncode, r.stderr[-200:]))
        r, d = run("use", "9.19", "--root", tree, "--yes", "--json")
        conf = open(os.path.join(confd, CONF)).read() if os.path.exists(os.path.join(confd, CONF)) else ""
        c.named("use 9.19 --yes: the file is written, one committed transaction",
                r.returncode == 0 and d.get("result", {}).get("status") == "done"
                and conf.splitlines()[-1:] == ["/opt/new/lib"] and conf.startswith("# Written by cudnnctl use"),
                (r.returncode, r.stderr[-300:], conf))
        if root_user:
            c.named("as root, ldconfig -r made the tree's cache, and a plain program then loads 9.19 through it",
                    d.get("ldconfig") == "ran" and (d.get("loads") or {}).get("chosen") is True
                    and (loads() or "").startswith("/opt/new/lib/"), (d.get("ldconfig"), d.get("loads"), loads()))
        else:
            c.named("not root: ldconfig is said to be needed, not run", (d.get("ldconfig") or "").startswith("needed"),
                    d.get("ldconfig"))
        r, d = run("use", "--none", "--root", tree, "--yes", "--json")
        none_txn = d.get("result", {}).get("transaction")
        c.named("use --none: the file goes", r.returncode == 0 and not os.path.exists(os.path.join(confd, CONF))
                and [(o["op"], o["path"]) for o in d.get("operations", [])] == [("remove", CONF)],
                (r.returncode, r.stderr[-300:], d.get("operations")))
        if root_user:
            c.named("after use --none a plain program loads 9.14 again", (loads() or "").startswith("/opt/old/lib/"),
                    loads())
        c.named("use --none: recorded in the tree's own state directory",
                none_txn is not None and last_recorded() == [none_txn, "use --none", "/etc/ld.so.conf.d"]
                and "CUDNNCTL_STATE_DIR" not in env, (none_txn, last_recorded()))
        r, d = run("rollback", "--root", tree, "--yes", "--json")
        c.named("rollback without DIR: the last target from the tree's state directory, use --none undone",
                r.returncode == 0 and d.get("target") == "/etc/ld.so.conf.d" and d.get("of") == none_txn
                and last_recorded()[:1] == [d.get("result", {}).get("transaction")],
                (r.returncode, r.stderr[-300:], d.get("target"), d.get("of"), none_txn, last_recorded()))
        c.named("rollback of use --none: the file is back byte for byte, ldconfig again",
                r.returncode == 0 and open(os.path.join(confd, CONF)).read() == conf
                and (d.get("ldconfig") == "ran" if root_user else (d.get("ldconfig") or "").startswith("needed")),
                (r.returncode, r.stderr[-300:], d.get("ldconfig")))
        if root_user:
            c.named("after the rollback a plain program loads 9.19 again", (loads() or "").startswith("/opt/new/lib/"),
                    loads())
        for _ in range(3):
            r, d = run("rollback", "/etc/ld.so.conf.d", "--root", tree, "--yes", "--json")
        c.named("rolling back every change gives /etc/ld.so.conf.d back byte for byte",
                snapshot(confd) == before, (snapshot(confd), before))

        # a kill at each step of the transaction, then recover: the directory byte for byte as it was
        def kill_walk(what, argv, want):
            """Kill `use ARGV` at its step n = 1, 2, ... (CUDNNCTL_TEST_FAULT=kill:n) until it runs whole, each time
            in a fresh copy of the tree, and recover /etc/ld.so.conf.d there; rollback after the whole use. want:
            the last line of the file the use writes (None: no file). The tree itself is left as it is."""
            # A transaction's id is its second and a suffix, and each name taken in that second costs the next
            # transaction one more step (a mkdir): the copies' transactions all come in a later second than the
            # tree's own, so that step n is the same step in every copy.
            state = os.path.join(confd, ".cudnnctl")
            newest = max([x[4:20] for x in (os.listdir(state) if os.path.isdir(state) else []) if x.startswith("txn-")]
                         or [""])
            while time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) <= newest:
                time.sleep(0.05)
            was = snapshot(confd)
            copy = os.path.join(work, "walk")
            cconfd = os.path.join(copy, "etc", "ld.so.conf.d")

            def done():
                p = os.path.join(cconfd, CONF)
                line = open(p).read().splitlines()[-1:] if os.path.exists(p) else [None]
                return line == [want] and snapshot(cconfd) != was

            bad, undone, committed, finished, first_changed = [], 0, 0, None, None
            for n in range(1, 80):
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(tree, copy, symlinks=True)
                r = subprocess.run([exe, "use"] + argv + ["--root", copy, "--yes"], capture_output=True, text=True,
                                   env=dict(env, CUDNNCTL_TEST_FAULT="kill:%d" % n), timeout=300)
                if r.returncode == 0:
                    finished = n
                    if not done():
                        bad.append((n, "ran whole, but the directory is not as the use makes it", snapshot(cconfd)))
                    r2, _ = run("rollback", "/etc/ld.so.conf.d", "--root", copy, "--yes")
                    if r2.returncode != 0 or snapshot(cconfd) != was:
                        bad.append((n, "rollback after it: rc %d %s" % (r2.returncode, r2.stderr[-200:])))
                    break
                if r.returncode != -signal.SIGKILL:
                    bad.append((n, "not killed: rc %d %s" % (r.returncode, r.stderr[-200:])))
                    break
                changed = snapshot(cconfd) != was
                if changed and first_changed is None:
                    first_changed = n
                r2, _ = run("recover", "/etc/ld.so.conf.d", "--root", copy, "--yes")
                undone += changed and r2.returncode == 0 and snapshot(cconfd) == was
                if r2.returncode == 0 and snapshot(cconfd) != was:
                    # killed after the commit: the new file whole, and rollback gives the old state back
                    committed += 1
                    if not done():
                        bad.append((n, "after the commit, not the new state", snapshot(cconfd)))
                    r2, _ = run("rollback", "/etc/ld.so.conf.d", "--root", copy, "--yes")
                if r2.returncode != 0 or snapshot(cconfd) != was:
                    bad.append((n, "recover/rollback rc %d %s" % (r2.returncode, r2.stderr[-200:]), snapshot(cconfd)))
            if first_changed is not None:
                # killed with the directory changed, and the same use again without a recover: it undoes the
                # interrupted transaction first and plans from what is there then
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(tree, copy, symlinks=True)
                subprocess.run([exe, "use"] + argv + ["--root", copy, "--yes"], capture_output=True,
                               env=dict(env, CUDNNCTL_TEST_FAULT="kill:%d" % first_changed), timeout=300)
                r, d = run("use", *(argv + ["--root", copy, "--yes", "--json"]))
                c.named("kill walk, %s: killed at step %d, the use again (no recover between) is done" %
                        (what, first_changed), r.returncode == 0 and d.get("recovered") and done(),
                        (r.returncode, r.stderr[-300:], d.get("recovered"), d.get("checks")))
            shutil.rmtree(copy, ignore_errors=True)
            c.named("kill walk, %s: killed at each of its steps, recover (or, after the commit, rollback) gives "
                    "/etc/ld.so.conf.d back byte for byte; so does rollback after the whole use" % what,
                    finished and not bad, (finished, bad))
            c.named("kill walk, %s: reached the end (%s steps); %d kills came after the file was changed and before "
                    "the commit (recover undid them from the journal), %d after the commit" %
                    (what, finished and finished - 1, undone, committed), finished and undone > 0,
                    (finished, undone, committed))

        kill_walk("use 9.19 placing the file", ["9.19"], "/opt/new/lib")
        r, _ = run("use", "9.19", "--root", tree, "--yes")
        kill_walk("use 9.14 replacing it", ["9.14"], "/opt/old/lib")
        kill_walk("use --none removing it", ["--none"], None)
        r2, _ = run("rollback", "/etc/ld.so.conf.d", "--root", tree, "--yes")
        c.named("kill walks: the tree itself as before them (a use and its rollback)",
                r.returncode == 0 and r2.returncode == 0 and snapshot(confd) == before,
                (r.returncode, r2.returncode, r2.stderr[-300:], snapshot(confd)))

        # refusals
        r, _ = run("use", "9.19", "--none", "--root", tree, "--yes")
        c.named("INSTALL and --none together: a usage error", r.returncode == 2, (r.returncode, r.stderr))
        r, _ = run("use", "--root", tree, "--yes")
        c.named("neither INSTALL nor --none: a usage error", r.returncode == 2, (r.returncode, r.stderr))
        bare = os.path.join(work, "bare")
        test_loadtrace.lay(s919, os.path.join(bare, "opt", "x", "lib"), {"kind": "full"})
        r, _ = run("use", "/opt/x/lib", "--root", bare, "--yes")
        c.named("no /etc/ld.so.conf.d: 3 and one line naming it", r.returncode == 3 and
                "/etc/ld.so.conf.d" in r.stderr and len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr))
        test_loadtrace.lay(s919, os.path.join(tree, "opt", "a#b", "lib"), {"kind": "so9"})
        r, _ = run("use", "/opt/a#b/lib", "--root", tree, "--yes")
        c.named("a directory with '#' (a comment to ld.so.conf): refused, nothing written",
                r.returncode == 2 and "ld.so.conf cannot name" in r.stderr and snapshot(confd) == before,
                (r.returncode, r.stderr))
        r, _ = run("use", "9.19", "--root", tree, "--system", "windows", "--yes")
        c.named("Windows tree: the registry is this machine's only: refused in one line, not a crash",
                r.returncode not in (0, 2) and r.returncode < 64 and "registry" in r.stderr and
                len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr))

        # --user: the start file's lines, and with --write a marked block, one transaction
        home = os.path.join(work, "home dir")
        os.makedirs(os.path.join(home, ".config", "fish"))
        mine = os.path.join(work, "mine 'x'")
        test_loadtrace.lay(s919, os.path.join(mine, "lib"), {"kind": "full"})
        test_loadtrace.lay(s914, os.path.join(work, "mine2", "lib"), {"kind": "full"})
        rc_text = "# my own settings\nalias ll='ls -l'\n"
        with open(os.path.join(home, ".bashrc"), "w") as f:
            f.write(rc_text)
        uenv = dict(env, HOME=home)

        def urun(*argv):
            r = subprocess.run([exe] + list(argv), env=uenv, capture_output=True, text=True, timeout=300)
            return r, (cliutil.parse_json(r.stdout)[0] or {}) if "--json" in argv else {}

        r, _ = urun("use", os.path.join(mine, "lib"), "--user", "--shell", "bash")
        c.named("use --user: the lines printed, the start file untouched",
                r.returncode == 0 and r.stdout.startswith("# >>> cudnnctl use >>>") and ".bashrc" in r.stderr
                and open(os.path.join(home, ".bashrc")).read() == rc_text, (r.returncode, r.stdout, r.stderr))
        for shell, start in (("bash", ".bashrc"), ("fish", ".config/fish/config.fish"), ("zsh", ".zshrc")):
            r, d = urun("use", os.path.join(mine, "lib"), "--user", "--shell", shell, "--write", "--yes", "--json")
            src = os.path.join(home, start)
            if shell == "fish":
                # fish reads ~/.config/fish/config.fish itself when it starts
                script = "printf '%s\\n' $CUDNN_PATH \"$LD_LIBRARY_PATH\""
            else:
                script = ". '%s'; printf '%%s\n' \"$CUDNN_PATH\" \"$LD_LIBRARY_PATH\"" % src.replace("'", "'\\''")
            sh = subprocess.run([shutil.which(shell) or shell, "-c", script], env=dict(uenv, LD_LIBRARY_PATH="/z"),
                                capture_output=True, text=True)
            c.named("use --user --write (%s): the block is in %s, and the shell that reads it gets the "
                    "installation first" % (shell, start),
                    r.returncode == 0 and d.get("result", {}).get("status") == "done"
                    and sh.stdout.split("\n")[:2] == [mine, os.path.join(mine, "lib") + ":/z"],
                    (r.returncode, r.stderr[-300:], sh.stdout, sh.stderr[-200:]))
        r, d = urun("use", os.path.join(work, "mine2", "lib"), "--user", "--shell", "bash", "--write", "--yes",
                    "--json")
        txt = open(os.path.join(home, ".bashrc")).read()
        c.named("a second use --user --write replaces the block, the user's own lines kept",
                r.returncode == 0 and txt.startswith(rc_text) and txt.count(">>> cudnnctl use >>>") == 1
                and "mine2" in txt, txt)
        r, d = urun("rollback", home, "--yes", "--json")
        txt = open(os.path.join(home, ".bashrc")).read()
        c.named("rollback of it: the first block back", r.returncode == 0 and "mine2" not in txt
                and "/mine '\\''x'\\''/lib'" in txt, (r.returncode, r.stderr[-300:], txt))
        r, d = urun("use", "--none", "--user", "--shell", "bash", "--write", "--yes", "--json")
        c.named("use --none --user --write: the block out, the file byte for byte as the user had it",
                r.returncode == 0 and open(os.path.join(home, ".bashrc")).read() == rc_text,
                (r.returncode, r.stderr[-300:], open(os.path.join(home, ".bashrc")).read()))
        os.rename(os.path.join(home, ".bashrc"), os.path.join(home, "dotfiles-bashrc"))
        os.symlink("dotfiles-bashrc", os.path.join(home, ".bashrc"))
        r, d = urun("use", os.path.join(mine, "lib"), "--user", "--shell", "bash", "--write", "--yes", "--json")
        c.named("a start file that is a symbolic link: stopped, not written through",
                r.returncode == 1 and d.get("result", {}).get("status") == "stopped"
                and open(os.path.join(home, "dotfiles-bashrc")).read() == rc_text, (r.returncode, d.get("checks")))

        # this machine, for real (root only)
        live = "/etc/ld.so.conf.d"
        if root_user and os.path.isdir(live) and os.environ.get("CUDNNCTL_TEST_LIVE_USE", "1") != "0":
            state_existed = os.path.exists(os.path.join(live, ".cudnnctl"))
            real = os.path.join(work, "real 9.19")
            test_loadtrace.lay(s919, os.path.join(real, "lib"), {"kind": "full"})
            py = shutil.which("python3")
            was = subprocess.run([py, "-c", PROBE], env=env, capture_output=True, text=True).stdout.strip()
            try:
                r, d = run("use", os.path.join(real, "lib"), "--yes", "--json")
                now = subprocess.run([py, "-c", PROBE], env=env, capture_output=True, text=True).stdout.strip()
                c.named("this machine: after use (ldconfig ran), a plain program loads the chosen stub 9.19",
                        r.returncode == 0 and d.get("ldconfig") == "ran" and now == "shim 9.19.0"
                        and (d.get("loads") or {}).get("chosen") is True,
                        (r.returncode, r.stderr[-300:], d.get("ldconfig"), now, d.get("loads")))
                r, d = run("rollback", live, "--yes", "--json")
                after = subprocess.run([py, "-c", PROBE], env=env, capture_output=True, text=True).stdout.strip()
                c.named("this machine: rollback takes it away, ldconfig again, the program loads what it did before",
                        r.returncode == 0 and d.get("ldconfig") == "ran" and not os.path.exists(os.path.join(live, CONF))
                        and after == was, (r.returncode, r.stderr[-300:], was, after))
            finally:
                if os.path.exists(os.path.join(live, CONF)):
                    os.remove(os.path.join(live, CONF))
                    subprocess.run(["ldconfig"])
                if not state_existed:
                    shutil.rmtree(os.path.join(live, ".cudnnctl"), ignore_errors=True)
        else:
            print("note: not root (or CUDNNCTL_TEST_LIVE_USE=0): use on this machine itself is not tried")
    finally:
        if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
            shutil.rmtree(work, ignore_errors=True)
    return c.summary("use", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
