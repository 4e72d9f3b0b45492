#!/usr/bin/env python3
"""cudnnctl env and exec on Windows: the Windows build under Wine (or
natively), in cmd itself.

Two copies of the mingw-w64 cuDNN 9 stub installation (fixtures/gen-probe.sh,
probe/win/installs/v9-ok): the chosen one in a directory whose name holds
spaces, a single quote, '$', '%', '&', '^' and parentheses; another one
first on PATH. In one cmd session: PATH gets the other copy first, `env
--shell cmd -o FILE.bat` writes the batch file, `call FILE.bat` runs it, and
then `cudnnctl which cudnn64_9.dll` from that session must pick the chosen
copy, CUDNN_PATH must name it byte for byte, and `env --unset` must give
PATH back. exec: `cmd /c exit 5` run through exec passes its status.

usage: test_env_win.py --exe CUDNNCTL.EXE --fixtures DIR [--wrapper=WINE]
exit 77: no Windows probe fixtures (mingw-w64 missing when they were built)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

WEIRD = "cu dnn 'q' $x %PATH% & ^c (1)"


def main():
    args = cliutil.parser(fixtures=True, wrapper=True).parse_args()
    src = os.path.join(args.fixtures, "probe", "win", "installs", "v9-ok")
    if not os.path.isdir(src):
        print("skip: no Windows probe fixtures (%s)" % src)
        return 77
    if cliutil.wrapper_missing(args.wrapper):
        print("skip: no %s" % args.wrapper)
        return 77

    def native(p):
        return cliutil.wine_path(p) if args.wrapper else os.path.abspath(p)

    c = cliutil.Checks(limit=400)
    work = tempfile.mkdtemp(prefix="cc-envwin-")
    try:
        good = os.path.join(work, WEIRD)
        other = os.path.join(work, "other")
        shutil.copytree(src, good)
        shutil.copytree(src, other)
        os.remove(os.path.join(other, "bin", "cudart64_13.dll"))  # not a toolkit directory: it goes
        bat = os.path.join(work, "env.bat")
        script = os.path.join(work, "run.bat")
        # the session: another cuDNN first on PATH, the batch file written and called, then which
        def b(p):
            """A path inside run.bat: '%' doubled (the batch file's own expansion)."""
            return native(p).replace("%", "%%")

        with open(script, "w", newline="\r\n") as f:
            f.write("@echo off\n"
                    "set \"PATH=%s\\bin;%%PATH%%\"\n"
                    "set \"BEFORE=%%PATH%%\"\n"
                    "\"%s\" env \"%s\\bin\" --shell cmd -o \"%s\"\n"
                    "if errorlevel 1 exit /b 9\n"
                    "call \"%s\"\n"
                    "\"%s\" which cudnn64_9.dll --json > \"%s\"\n"
                    ">\"%s\" set CUDNN_PATH\n"
                    "\"%s\" env --unset --shell cmd -o \"%s\"\n"
                    "call \"%s\"\n"
                    "if \"%%PATH%%\"==\"%%BEFORE%%\" (echo same> \"%s\") else (echo differs> \"%s\")\n"
                    "if defined CUDNN_PATH (echo set>> \"%s\") else (echo unset>> \"%s\")\n"
                    % (b(other), b(args.exe), b(good), b(bat), b(bat), b(args.exe),
                       b(os.path.join(work, "which.json")), b(os.path.join(work, "cp.txt")), b(args.exe),
                       b(bat + ".unset.bat"), b(bat + ".unset.bat"),
                       b(os.path.join(work, "after.txt")), b(os.path.join(work, "after.txt")),
                       b(os.path.join(work, "after.txt")), b(os.path.join(work, "after.txt"))))
        argv = ([args.wrapper] if args.wrapper else []) + ["cmd", "/c", native(script)]
        env = dict(os.environ, WINEDEBUG="-all")
        env.pop("WINEPATH", None)
        for attempt in (1, 2):
            with open(os.path.join(work, "out.txt"), "wb") as out:
                r = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                   timeout=300)
            log = open(os.path.join(work, "out.txt"), "rb").read().decode("utf-8", "replace")
            # Wine itself failed to start cmd for the script (seen once in CI: "ShellExecuteEx failed: Internal
            # error" within half a second, before the script's first line ran): say so and run it again, once
            if attempt == 1 and args.wrapper and r.returncode != 0 and "ShellExecuteEx failed" in log and \
                    not os.path.exists(os.path.join(work, "which.json")):
                print("note: %s cmd /c run.bat: Wine did not start it (%s); run again" % (args.wrapper, log.strip()))
                continue
            break
        try:
            w = json.load(open(os.path.join(work, "which.json"), encoding="utf-8"))
            res = w["results"][0]
        except (OSError, ValueError, KeyError, IndexError):
            res = {}
        c.named("cmd: after `call` of env's batch file, which cudnn64_9.dll picks the chosen copy",
                r.returncode == 0 and (res.get("path") or "").lower().startswith(
                    (native(good) + "\\bin\\").lower()), (r.returncode, log[-400:], res.get("path")))
        try:
            cp = open(os.path.join(work, "cp.txt"), "rb").read().decode("utf-8", "replace").strip()
        except OSError:
            cp = ""
        c.named("cmd: CUDNN_PATH names the installation byte for byte ('%', '&', '^', '$', quote)",
                cp == "CUDNN_PATH=" + native(good), cp)
        try:
            after = open(os.path.join(work, "after.txt")).read().split()
        except OSError:
            after = []
        c.named("cmd: env --unset gives PATH back as it was and unsets CUDNN_PATH", after == ["same", "unset"],
                (after, log[-300:]))
        # exec: the status of the program passes through
        argv = ([args.wrapper] if args.wrapper else []) + [args.exe, "exec", native(os.path.join(good, "bin")),
                                                           "--", "cmd", "/c", "exit 5"]
        with open(os.path.join(work, "exec.txt"), "wb") as out:
            r = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                               timeout=300)
        c.named("exec: cmd /c exit 5 run through exec ends with 5", r.returncode == 5,
                (r.returncode, open(os.path.join(work, "exec.txt"), "rb").read()[-300:]))
    finally:
        if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
            shutil.rmtree(work, ignore_errors=True)
    return c.summary("env (Windows)", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
