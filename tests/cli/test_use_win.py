#!/usr/bin/env python3
"""cudnnctl use on Windows: the registry's Path, under Wine (or natively).

Two copies of the mingw-w64 cuDNN 9 stub installation (fixtures/gen-probe.sh,
probe/win/installs/v9-ok): the chosen one in a directory whose name holds a
space, another one on the user's Path. The user's Path is set through a .reg
file (REG_EXPAND_SZ bytes exactly: %SystemRoot% unexpanded, a non-ASCII
entry, longer than setx's 1024 characters), and read back with `reg export`,
whose hex(2) lines give the value's type and bytes exactly. Checked:
  - --dry-run writes nothing and shows the value it would write;
  - use --user: the new Path is REG_EXPAND_SZ, the chosen bin first, the
    other copy off, %SystemRoot% still unexpanded, every other entry whole;
  - rollback gives the key back byte for byte (and a REG_SZ value as REG_SZ);
  - a kill at every step of the transaction (CUDNNCTL_TEST_FAULT=kill:N),
    then recover: the value is exactly the old one;
  - --none takes the cuDNN directories off; a value of exactly 1024
    characters is called a setx cut; the machine's Path holding another
    cuDNN is a warning for a --user use;
  - a user's Path that is a shell's PATH cut by setx: the doctor says so,
    `doctor --fix` takes the machine's copy off, rollback gives it back.
The prefix's HKCU\\Environment and the machine's Path are put back at the end.

usage: test_use_win.py --exe CUDNNCTL.EXE --fixtures DIR [--wrapper=WINE]
exit 77: no Windows probe fixtures, or no Wine
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

USER_KEY = cliutil.WineReg.USER
MACHINE_KEY = cliutil.WineReg.MACHINE
SESSION_KEY = cliutil.WineReg.SESSION


def main():
    args = cliutil.parser(fixtures=True, wrapper=True).parse_args()
    src = os.path.join(args.fixtures, "probe", "win", "installs", "v9-ok")
    if not os.path.isdir(src):
        print("skip: no Windows probe fixtures (%s)" % src)
        return 77
    if cliutil.wrapper_missing(args.wrapper):
        print("skip: no %s" % args.wrapper)
        return 77
    wr = cliutil.WinRun(args.wrapper, args.exe, drop=("CUDNNCTL_TEST_FAULT",))
    run, tool, jdoc = wr.run, wr.tool, cliutil.jdoc

    def native(p):
        return cliutil.wine_path(p) if args.wrapper else os.path.abspath(p)

    reg = cliutil.WineReg(run, None, native)
    export, value_of, text_of, restore = reg.export, reg.value_of, reg.text_of, reg.restore
    import_value = reg.set

    def query():
        """reg query's line for Path: its type and data as text (quicker than an export)."""
        rc, out, err = run("reg", "query", "HKCU\\Environment", "/v", "Path")
        return out.strip().splitlines()[-1] if rc == 0 and out.strip() else None

    c = cliutil.Checks(limit=400)
    work = tempfile.mkdtemp(prefix="cc-usewin-")
    reg.work = work
    saved_user = saved_machine = None
    try:
        good = os.path.join(work, "cu dnn")
        other = os.path.join(work, "other")
        shutil.copytree(src, good)
        shutil.copytree(src, other)
        os.remove(os.path.join(other, "bin", "cudart64_13.dll"))  # not a toolkit directory: it goes
        gbin, obin = native(os.path.join(good, "bin")), native(os.path.join(other, "bin"))
        saved_user = value_of(export(USER_KEY, "user0.reg"))
        saved_machine = value_of(export(MACHINE_KEY, "machine0.reg"))
        c.named("reg export reads the machine's Path", saved_machine is not None, saved_machine)
        # a Path as people have it: %SystemRoot% unexpanded, non-ASCII, long
        longs = ["C:\\Long\\entry%03d" % i for i in range(90)]
        start = ";".join(["%SystemRoot%\\foo", obin, "C:\\Prøgram Fïles\\ünï"] + longs)
        c.named("the user's Path set (REG_EXPAND_SZ, %d characters)" % len(start),
                import_value(USER_KEY, "Path", "REG_EXPAND_SZ", start) and len(start) > 1024,
                value_of(export(USER_KEY, "user1.reg")))
        before = export(USER_KEY, "before.reg")
        c.named("the value reads back as set", text_of(value_of(before)) == start,
                (text_of(value_of(before)) or "")[:200])

        rc, out, err = tool("use", gbin, "--user", "--dry-run", "--json")
        d = jdoc(out)
        want = ";".join([gbin, "%SystemRoot%\\foo", "C:\\Prøgram Fïles\\ünï"] + longs)
        c.named("--dry-run: the plan is one setreg of HKCU/Environment/Path",
                rc == 0 and [(o.get("op"), o.get("path")) for o in d.get("operations", [])]
                == [("setreg", "HKCU/Environment/Path")], (rc, err[-300:], d.get("operations")))
        c.named("--dry-run: the value it would write: the chosen bin first, the other copy off, the rest whole",
                d.get("after") == want, (d.get("after") or "")[:300])
        c.named("--dry-run: the other copy is named as removed",
                any(r.get("entry") == obin for r in d.get("removed", [])), d.get("removed"))
        c.named("--dry-run writes nothing", export(USER_KEY, "dry.reg") == before)

        rc, out, err = tool("use", gbin, "--user", "--yes", "--json")
        d = jdoc(out)
        now = value_of(export(USER_KEY, "after.reg"))
        c.named("use --user: done, and the registry's Path is the planned value",
                rc == 0 and (d.get("result") or {}).get("status") == "done" and text_of(now) == want,
                (rc, err[-300:], d.get("result"), (text_of(now) or "")[:200]))
        c.named("use --user: written as REG_EXPAND_SZ with %SystemRoot% unexpanded, longer than 1024 kept whole",
                now is not None and now[0] == "REG_EXPAND_SZ" and "%SystemRoot%\\foo" in text_of(now)
                and len(text_of(now)) > 1024, now and now[0])
        c.named("use --user: WM_SETTINGCHANGE broadcast", d.get("broadcast") == "sent", d.get("broadcast"))
        rc, out, err = tool("rollback", "--yes", "--json")
        c.named("rollback: the key byte for byte as it was", rc == 0 and export(USER_KEY, "rb.reg") == before,
                (rc, err[-300:], (text_of(value_of(export(USER_KEY, "rb2.reg"))) or "")[:200]))

        # a kill at each step, then recover: exactly the old value
        killed_after_set = finished = False
        qbefore = query()
        for n in range(1, 40):
            rc, out, err = tool("use", gbin, "--user", "--yes", fault="kill:%d" % n)
            if rc == 0:
                finished = True
                c.named("kill walk: the use runs whole past its last step (%d)" % n,
                        text_of(value_of(export(USER_KEY, "mid.reg"))) == want)
                tool("rollback", "--yes")
                break
            killed_after_set |= query() != qbefore
            rc2, out2, err2 = tool("recover", "--yes", "--json")
            got = query()
            if got != qbefore:
                # killed after the commit: the new value whole, and rollback gives the old one back
                now = text_of(value_of(export(USER_KEY, "rec.reg")))
                c.named("kill:%d after the commit: the planned value whole" % n, now == want,
                        (rc, rc2, got, len(now or ""), len(want), (now or "")[-120:]))
                tool("rollback", "--yes")
                got = query()
            c.named("kill:%d then recover: the Path as before" % n, rc2 == 0 and got == qbefore,
                    (rc, rc2, err2[-300:], out2[-300:]))
        c.named("kill walk: reached the end", finished)
        c.named("kill walk: some kill came after the value was set (the backup undid it)", killed_after_set)
        c.named("kill walk: after it all, the key byte for byte as it was", export(USER_KEY, "walk.reg") == before)

        # REG_SZ comes back as REG_SZ
        import_value(USER_KEY, "Path", "REG_SZ", "C:\\plain;" + obin)
        sz = export(USER_KEY, "sz.reg")
        rc, out, err = tool("use", gbin, "--user", "--yes")
        now = value_of(export(USER_KEY, "sz1.reg"))
        rc2, out2, err2 = tool("rollback", "--yes")
        c.named("REG_SZ: use writes REG_EXPAND_SZ, rollback gives REG_SZ back exactly",
                rc == 0 and now and now[0] == "REG_EXPAND_SZ" and rc2 == 0 and export(USER_KEY, "sz2.reg") == sz,
                (rc, rc2, now and now[0], err[-200:], err2[-200:]))

        # --none
        import_value(USER_KEY, "Path", "REG_EXPAND_SZ", ";".join([gbin, "C:\\keep", obin]))
        rc, out, err = tool("use", "--none", "--user", "--dry-run", "--json")
        d = jdoc(out)
        c.named("--none: the cuDNN directory off; one with CUDA's own DLLs (a toolkit's bin) and the rest kept",
                rc == 0 and d.get("after") == gbin + ";C:\\keep", (rc, err[-200:], d.get("after")))

        # a value cut by setx
        import_value(USER_KEY, "Path", "REG_EXPAND_SZ", ("C:\\x;" * 300)[:1024])
        rc, out, err = tool("use", gbin, "--user", "--dry-run", "--json")
        d = jdoc(out)
        c.named("a Path of exactly 1024 characters: the setx warning",
                any(k.get("id") == "setx" for k in d.get("checks", [])), (rc, d.get("checks")))

        # setx PATH "%PATH%;..." wrote a shell's whole PATH (the machine's entries first, expanded) into
        # the user's Path and cut it at 1024: the doctor tells it from a cut machine Path, and --fix takes
        # the machine's copy, a twice-listed entry and the half entry off, undoably
        mtext = text_of(saved_machine) or ""
        mexp = [re.sub("%SystemRoot%", lambda _: "C:\\windows", e, flags=re.I) for e in mtext.split(";") if e]
        mine = native(work)
        fills = ["C:\\fill\\dir%03d" % i for i in range(120)]
        cutv = ";".join(mexp + [mine, mexp[0].upper(), mine.lower()] + fills)[:1024]
        kept = [e for e in cutv.split(";")[len(mexp):] if e not in (mexp[0].upper(), mine.lower())][:-1]
        import_value(USER_KEY, "Path", "REG_SZ", cutv)
        setx_before = export(USER_KEY, "setx0.reg")
        rc, out, err = tool("doctor", "--json", "--no-frameworks", "--no-compile", "--no-gpu")
        d = jdoc(out)
        f = [x for x in d.get("findings", []) if x.get("id") == "win-setx-truncation"]
        ev = (f[0].get("evidence") or {}) if f else {}
        c.named("doctor: the user's Path is a shell's PATH cut by setx, the machine's whole (%d entries copied)"
                % len(mexp), len(mexp) >= 2 and ev.get("cut") == "user-copy"
                and ev.get("machine_entries_copied") == len(mexp) and "HKCU" in (ev.get("key") or ""),
                (rc, err[-300:], f))
        rc, out, err = tool("doctor", "--fix", "win-setx-truncation", "--dry-run", "--json")
        d = jdoc(out)
        fx = [x for x in d.get("fixes", []) if x.get("finding") == "win-setx-truncation"]
        fx = fx[0] if fx else {}
        c.named("doctor --fix --dry-run: the user's Path without the machine's entries, the twice-listed, the half",
                rc == 0 and fx.get("action") == "change" and fx.get("after") == ";".join(kept)
                and [(o.get("op"), o.get("path")) for ch in d.get("changes", []) for o in ch.get("operations", [])]
                == [("setreg", "HKCU/Environment/Path")] and export(USER_KEY, "setx1.reg") == setx_before,
                (rc, err[-300:], fx.get("action"), fx.get("why"), (fx.get("after") or "")[:300], ";".join(kept)[:300]))
        rc, out, err = tool("doctor", "--fix", "win-setx-truncation", "--yes", "--json")
        d = jdoc(out)
        now = value_of(export(USER_KEY, "setx2.reg"))
        c.named("doctor --fix --yes: done, checked again, the value as planned and still REG_SZ",
                rc == 0 and d.get("left") == [] and now is not None and now[0] == "REG_SZ"
                and text_of(now) == ";".join(kept), (rc, err[-300:], d.get("left"), now and now[0]))
        rc, out, err = tool("rollback", "--yes", "--json")
        c.named("rollback of the fix: the cut value byte for byte", rc == 0 and export(USER_KEY, "setx3.reg")
                == setx_before, (rc, err[-300:]))

        # the machine's Path holding another cuDNN: a --user use cannot win over it
        if saved_machine is not None:
            import_value(MACHINE_KEY, "Path", saved_machine[0], text_of(saved_machine) + ";" + obin)
            import_value(USER_KEY, "Path", "REG_EXPAND_SZ", "C:\\keep")
            rc, out, err = tool("use", gbin, "--user", "--dry-run", "--json")
            d = jdoc(out)
            c.named("the machine's Path has another cuDNN: a --user use warns that it stays first",
                    any(k.get("id") == "machine-path" and obin in (k.get("reason") or "")
                        for k in d.get("checks", [])), (rc, err[-200:], d.get("checks")))
            restore(MACHINE_KEY, saved_machine)
            rc, out, err = tool("use", gbin, "--dry-run", "--json")
            d = jdoc(out)
            c.named("use without --user plans the machine's Path",
                    rc == 0 and d.get("registry", "").startswith("HKLM\\SYSTEM") and
                    (d.get("after") or "").startswith(gbin + ";"), (rc, err[-200:], d.get("registry")))
        rc, out, err = tool("use", gbin, "--user", "--shell", "bash")
        c.named("--shell is refused on Windows (a usage error)", rc == 2, (rc, err[-200:]))

        # CUDA_PATH_V11_4 in the user's registry environment (REG_EXPAND_SZ with a %VAR%): list takes the
        # toolkit from there, saying so, as it would for a shell opened before the installer set it
        tk = os.path.join(work, "CUDA", "v11.4")
        shutil.copytree(src, tk)
        wr.env["CCTEST_CUDA"] = native(os.path.join(work, "CUDA"))
        c.named("CUDA_PATH_V11_4 set in HKCU\\Environment",
                import_value(USER_KEY, "CUDA_PATH_V11_4", "REG_EXPAND_SZ", "%CCTEST_CUDA%\\v11.4"))
        rc, out, err = tool("list", "--json")
        d = jdoc(out)
        roots = [r for r in d.get("roots", []) if "CUDA_PATH_V11_4 (registry, user)" in r.get("sources", [])]
        c.named("list: a root from the registry's CUDA_PATH_V11_4, %VAR% expanded",
                rc in (0, 3) and len(roots) == 1 and roots[0]["path"].lower() == native(tk).lower(),
                (rc, err[-200:], [(r.get("path"), r.get("sources")) for r in d.get("roots", [])][:12]))
        c.named("list: the cuDNN in it found", roots and roots[0].get("found", 0) > 0, roots)
        run("reg", "delete", USER_KEY, "/v", "CUDA_PATH_V11_4", "/f")
        del wr.env["CCTEST_CUDA"]

        # CWDIllegalInDllSearch in Session Manager: 0xFFFFFFFF takes the current directory out of the search;
        # 2 only a remote one (this one is local)
        cwd = os.path.join(work, "cwd")
        os.makedirs(cwd)
        shutil.copy(os.path.join(src, "bin", "cudnn64_9.dll"), os.path.join(cwd, "cwdonly.dll"))

        def which_cwd():
            rc, out, err = tool("which", "--json", "cwdonly.dll", cwd=cwd)
            d = jdoc(out)
            r = dict((d.get("results") or [{}])[0])
            r["notes"] = r.get("notes", []) + (d.get("loader") or {}).get("notes", [])  # the search's, the loader's
            return rc, r

        rc, r = which_cwd()
        c.named("which: a DLL only in the current directory is found there",
                rc == 0 and r.get("found") and r.get("how") == "current-dir", (rc, r.get("how"), r.get("notes")))
        for value, searched in (("4294967295", False), ("2", True)):
            ok = run("reg", "add", SESSION_KEY, "/v", "CWDIllegalInDllSearch", "/t", "REG_DWORD", "/d", value,
                     "/f")[0] == 0
            rc, r = which_cwd()
            noted = any("CWDIllegalInDllSearch" in n for n in r.get("notes", []))
            c.named("CWDIllegalInDllSearch=%s: the current directory %s" % (value, "searched" if searched else
                                                                           "not searched (126)"),
                    ok and noted and (bool(r.get("found")) == searched) and (searched or r.get("windows_error") == 126),
                    (ok, rc, r.get("found"), r.get("windows_error"), r.get("notes")))
        run("reg", "delete", SESSION_KEY, "/v", "CWDIllegalInDllSearch", "/f")
        rc, r = which_cwd()
        c.named("CWDIllegalInDllSearch deleted: the current directory searched again", rc == 0 and r.get("found"),
                (rc, r.get("notes")))
    finally:
        try:
            run("reg", "delete", SESSION_KEY, "/v", "CWDIllegalInDllSearch", "/f")
            run("reg", "delete", USER_KEY, "/v", "CUDA_PATH_V11_4", "/f")
            restore(USER_KEY, saved_user)
            if saved_machine is not None:
                restore(MACHINE_KEY, saved_machine)
        finally:
            if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
                shutil.rmtree(work, ignore_errors=True)
    return c.summary("use (Windows)", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
