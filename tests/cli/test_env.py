#!/usr/bin/env python3
"""cudnnctl env and exec, in the real shells and the real loader.

Two cuDNN 9 installations are made from stub libraries compiled here (the
stubs of test_loadtrace: a shim and sub-libraries that say which release
they are): 9.19.0 in a directory whose name holds a space, single and double
quotes, '$', '%', ';', a backslash, a backquote and non-ASCII; 9.14.0 in
another. LD_LIBRARY_PATH starts with the 9.14 directory (it shadows), an
empty entry and a relative one. Then, in each shell Debian has (sh = dash,
bash, zsh, fish):
  - eval / source of `cudnnctl env DIR --shell X`: the shell's
    LD_LIBRARY_PATH has the 9.19 directory first and the 9.14 one gone,
    CUDNN_PATH and CUDNN_HOME name it byte for byte, and `cudnnctl which
    libcudnn.so.9` run from that shell picks the 9.19 library; a real load
    (python3's ctypes) gets the 9.19 shim;
  - eval of `cudnnctl env --unset` gives back the values from before, byte
    for byte (LD_LIBRARY_PATH set, CUDNN_PATH unset).
PowerShell's output is read back by a parser of its single-quoted strings;
cmd's batch file is run by Wine's cmd (when Wine is here) and its `set`
output compared (ASCII: Wine's cmd has no code page 65001, so a non-ASCII
value is checked in the file: set between `chcp 65001` and the old page). exec: the program's loader gets the 9.19 shim, the exit
status passes through, 127 for no such program, 3 for no such INSTALL.
A Windows tree (--root, --system windows): the DLL directory first on PATH,
the CUDA toolkit's bin\\x64 after it, another cuDNN's bin taken off,
%SystemRoot% entries kept as they are.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402
import test_loadtrace  # noqa: E402

WEIRD = "cu dnn 'q' \"d\" $HOME %PATH% \u00fc \\b `x`"


def shell_cmd(shell, exe, target, extra=""):
    """A script for `shell` that applies env, then prints the variables and the which result."""
    env_q = "'%s'" % exe.replace("'", "'\\''")
    tgt_q = "'%s'" % target.replace("'", "'\\''")
    if shell == "fish":
        env_f = "'%s'" % exe.replace("\\", "\\\\").replace("'", "\\'")
        tgt_f = "'%s'" % target.replace("\\", "\\\\").replace("'", "\\'")
        return ("%s env %s --shell fish | source\n"
                "printf '%%s\\n' \"LLP=$LD_LIBRARY_PATH\" \"CP=$CUDNN_PATH\" \"CH=$CUDNN_HOME\"\n"
                "%s which libcudnn.so.9 --json > which.json\n"
                "%s env --unset --shell fish | source\n"
                "printf '%%s\\n' \"ULLP=$LD_LIBRARY_PATH\"\n"
                "set -q CUDNN_PATH; and echo UCP=set; or echo UCP=unset\n" % (env_f, tgt_f, env_f, env_f))
    return ('eval "$(%s env %s --shell %s)" || exit 9\n'
            "printf '%%s\\n' \"LLP=$LD_LIBRARY_PATH\" \"CP=$CUDNN_PATH\" \"CH=$CUDNN_HOME\"\n"
            "%s which libcudnn.so.9 --json > which.json\n"
            'eval "$(%s env --unset --shell %s)" || exit 9\n'
            "printf '%%s\\n' \"ULLP=$LD_LIBRARY_PATH\"\n"
            "[ -n \"${CUDNN_PATH+x}\" ] && echo UCP=set || echo UCP=unset\n"
            % (env_q, tgt_q, "sh" if shell in ("sh", "dash") else shell, env_q, env_q,
               "sh" if shell in ("sh", "dash") else shell))


def lines_of(out):
    d = {}
    for line in out.split("\n"):
        if "=" in line:
            k, v = line.split("=", 1)
            d.setdefault(k, v)
    return d


def pwsh_values(text):
    """$env:NAME = '...' lines of PowerShell: NAME -> value (None for Remove-Item), read as PowerShell reads
    single-quoted strings: '' is one quote, and so are the typographic single quotes doubled."""
    out = {}
    quotes = "'\u2018\u2019\u201a\u201b"
    for line in text.split("\n"):
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("Remove-Item -LiteralPath 'Env:"):
            out[line.split("'Env:")[1].split("'")[0]] = None
            continue
        assert line.startswith("$env:"), line
        name, rest = line[5:].split(" = ", 1)
        assert rest[0] == "'" and rest[-1] == "'", line
        body, i, val = rest[1:-1], 0, ""
        while i < len(body):
            ch = body[i]
            if ch in quotes:
                assert i + 1 < len(body) and body[i + 1] in quotes, "an undoubled quote in %r" % line
                val += ch
                i += 2
                continue
            val += ch
            i += 1
        out[name] = val
    return out


def main():
    ap = cliutil.parser(wrapper=True)
    args = ap.parse_args()
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        print("skip: no C compiler for the stub libraries")
        return 77
    exe = os.path.abspath(args.exe)
    c = cliutil.Checks(limit=400)
    prog = cliutil.Program(exe, timeout=120)
    work = tempfile.mkdtemp(prefix="cc-env-")
    try:
        s914 = test_loadtrace.Stubs(cc, work, "9.14.0")
        s919 = test_loadtrace.Stubs(cc, work, "9.19.0")
        good = os.path.join(work, WEIRD)
        good_lib = os.path.join(good, "lib")
        test_loadtrace.lay(s919, good_lib, {"kind": "full"})
        os.makedirs(os.path.join(good, "include"))
        other_lib = os.path.join(work, "other", "lib")
        test_loadtrace.lay(s914, other_lib, {"kind": "full"})
        # ld.so splits LD_LIBRARY_PATH at ';' too: "rel;/x" is two entries
        before = other_lib + "::rel/dir;" + os.path.join(work, "semi") + ":" + os.path.join(work, "plain")
        base_env = dict(os.environ)
        base_env["LD_LIBRARY_PATH"] = before
        base_env.pop("CUDNN_PATH", None)
        base_env.pop("CUDNN_HOME", None)
        for k in [k for k in base_env if k.startswith("CUDNNCTL_")]:
            base_env.pop(k)

        # the document
        r = subprocess.run([exe, "env", good_lib, "--json"], env=base_env, capture_output=True, text=True)
        doc, _ = cliutil.parse_json(r.stdout)
        doc = doc or {}
        c.named("env --json: 9.19 chosen by its directory", r.returncode == 0 and
                (doc.get("installation") or {}).get("version") == "9.19.0", (r.returncode, r.stderr[-300:]))
        c.named("env --json: the 9.19 directory first, the 9.14 one, the empty and the relative entries off",
                doc.get("after", "").split(":") == [good_lib, os.path.join(work, "semi"), os.path.join(work, "plain")]
                and {e["entry"] for e in doc.get("removed", [])} == {other_lib, "", "rel/dir"}
                and any("9.14.0" in e["why"] for e in doc.get("removed", []) if e["entry"] == other_lib),
                doc.get("removed"))
        c.named("env --json: what is replaced is saved, CUDNN_PATH/HOME set, the installation marked",
                [(ch["name"], ch["value"]) for ch in doc.get("changes", [])] ==
                [("CUDNNCTL_SAVED_LD_LIBRARY_PATH", before), ("LD_LIBRARY_PATH", doc.get("after")),
                 ("CUDNN_PATH", good), ("CUDNN_HOME", good), ("CUDNNCTL_ENV", good)], doc.get("changes"))

        # each shell, for real
        for shell in ("sh", "dash", "bash", "zsh", "fish"):
            path = shutil.which(shell)
            if path is None:
                c.named("shell %s is installed (scripts/deps.sh)" % shell, False, "")
                continue
            d = tempfile.mkdtemp(dir=work, prefix=shell + "-")
            script = shell_cmd(shell, exe, good_lib)
            r = subprocess.run([path, "-c", script], env=base_env, cwd=d, capture_output=True, text=True,
                               timeout=120)
            got = lines_of(r.stdout)
            try:
                w = json.load(open(os.path.join(d, "which.json")))
                res = w["results"][0]
            except (OSError, ValueError, KeyError, IndexError):
                res = {}
            c.named("%s: env sets LD_LIBRARY_PATH with the chosen directory first, the 9.14 one gone" % shell,
                    r.returncode == 0 and got.get("LLP") == ":".join([good_lib, os.path.join(work, "semi"),
                                                                      os.path.join(work, "plain")]),
                    (r.returncode, r.stderr[-400:], got.get("LLP")))
            c.named("%s: CUDNN_PATH and CUDNN_HOME name the installation byte for byte" % shell,
                    got.get("CP") == good and got.get("CH") == good, (got.get("CP"), got.get("CH")))
            c.named("%s: 'cudnnctl which libcudnn.so.9' in that shell picks the chosen installation" % shell,
                    res.get("found") and os.path.realpath(res.get("path", "")).startswith(good_lib + os.sep),
                    res.get("path"))
            c.named("%s: env --unset gives back LD_LIBRARY_PATH byte for byte, CUDNN_PATH unset" % shell,
                    got.get("ULLP") == before and got.get("UCP") == "unset", (got.get("ULLP"), got.get("UCP")))

        # a real load through the loader, in exec
        py = shutil.which("python3")
        probe = "import ctypes; h = ctypes.CDLL('libcudnn.so.9'); " \
                "print((ctypes.c_char * 32).in_dll(h, 'cc_fx_role').value.decode())"
        r = subprocess.run([py, "-c", probe], env=base_env, capture_output=True, text=True)
        c.named("without env the loader gets the 9.14 shim (the shadowing this fixes)",
                r.stdout.strip() == "shim 9.14.0", (r.stdout, r.stderr[-200:]))
        r = subprocess.run([exe, "exec", good_lib, "--", py, "-c", probe], env=base_env, capture_output=True,
                           text=True)
        c.named("exec: the program's loader gets the 9.19 shim", r.returncode == 0 and
                r.stdout.strip() == "shim 9.19.0", (r.returncode, r.stdout, r.stderr[-300:]))
        r = subprocess.run([exe, "exec", good_lib, "sh", "-c", 'printf "%s\\n" "$CUDNN_PATH"; exit 7'], env=base_env,
                           capture_output=True, text=True)
        c.named("exec: the command's exit status passes through, options after COMMAND are its own",
                r.returncode == 7 and r.stdout.strip() == good, (r.returncode, r.stdout, r.stderr))
        semi = os.path.join(work, "a;b", "lib")
        test_loadtrace.lay(s919, semi, {"kind": "so9"})
        r = subprocess.run([exe, "env", semi], env=base_env, capture_output=True, text=True)
        c.named("env: a directory with ';' is refused (ld.so would split it there), one line",
                r.returncode == 2 and "';'" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
                (r.returncode, r.stderr))
        r = subprocess.run([exe, "exec", good_lib, "--", "no-such-program-here"], env=base_env,
                           capture_output=True, text=True)
        c.named("exec: no such program is 127 with one line", r.returncode == 127 and
                len(r.stderr.strip().splitlines()) == 1 and "no-such-program-here" in r.stderr,
                (r.returncode, r.stderr))
        r = subprocess.run([exe, "exec", "7.6", "--", "true"], env=base_env, capture_output=True, text=True)
        c.named("exec: an INSTALL that is not there is 3", r.returncode == 3 and "7.6" in r.stderr,
                (r.returncode, r.stderr))
        r = subprocess.run([exe, "exec", good_lib], env=base_env, capture_output=True, text=True)
        c.named("exec without COMMAND is a usage error", r.returncode == 2, (r.returncode, r.stderr))
        r = subprocess.run([exe, "env", "--unset"], env=base_env, capture_output=True, text=True)
        c.named("env --unset with nothing to undo: 3 and one line", r.returncode == 3 and
                len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr))
        r = subprocess.run([exe, "env", "--unset", good_lib, "--json"],
                           env=dict(base_env, LD_LIBRARY_PATH=good_lib + ":/x", CUDNN_PATH=good), capture_output=True,
                           text=True)
        d2, _ = cliutil.parse_json(r.stdout)
        c.named("env --unset INSTALL without an env before: its directory off, CUDNN_PATH pointing at it unset",
                [(ch["name"], ch["value"]) for ch in (d2 or {}).get("changes", [])] ==
                [("LD_LIBRARY_PATH", "/x"), ("CUDNN_PATH", None)], (r.returncode, r.stderr, d2 and d2.get("changes")))
        r = subprocess.run([exe, "env", "9.19", "--shell", "tcsh"], env=base_env, capture_output=True, text=True)
        c.named("env --shell tcsh: a usage error", r.returncode == 2, (r.returncode, r.stderr))

        # PowerShell: the output read back as PowerShell reads it
        r = subprocess.run([exe, "env", good_lib, "--shell", "powershell"], env=base_env, capture_output=True,
                           text=True)
        vals = pwsh_values(r.stdout) if r.returncode == 0 else {}
        c.named("powershell: every value reads back byte for byte",
                vals.get("LD_LIBRARY_PATH") == doc.get("after") and vals.get("CUDNN_PATH") == good
                and vals.get("CUDNNCTL_SAVED_LD_LIBRARY_PATH") == before, (r.returncode, r.stderr, vals))
        tricky = os.path.join(work, "it\u2019s o'k")
        test_loadtrace.lay(s919, os.path.join(tricky, "lib"), {"kind": "so9"})
        r = subprocess.run([exe, "env", os.path.join(tricky, "lib"), "--shell", "powershell"], env=base_env,
                           capture_output=True, text=True)
        vals = pwsh_values(r.stdout) if r.returncode == 0 else {}
        c.named("powershell: a typographic quote is doubled too", vals.get("CUDNN_PATH") == tricky,
                (r.returncode, r.stderr[-300:], r.stdout[-300:]))

        # cmd: a batch file, run by Wine's cmd when Wine is here
        out_bat = os.path.join(work, "env.bat")
        plain_dir = os.path.join(work, "pct 100% & <a> ^b")
        test_loadtrace.lay(s919, os.path.join(plain_dir, "lib"), {"kind": "so9"})
        r = subprocess.run([exe, "env", os.path.join(plain_dir, "lib"), "--shell", "cmd", "-o", out_bat],
                           env=base_env, capture_output=True, text=True)
        bat = open(out_bat, "rb").read() if os.path.exists(out_bat) else b""
        c.named("cmd: -o writes a batch file with CRLF lines, % doubled",
                r.returncode == 0 and bat.startswith(b"@echo off\r\n") and b"\r\n" in bat and b"100%%" in bat,
                (r.returncode, r.stderr, bat[:300]))
        r = subprocess.run([exe, "env", good_lib, "--shell", "cmd"], env=base_env, capture_output=True, text=True)
        c.named("cmd: a value with '\"' is refused with one line naming the variable",
                r.returncode != 0 and "cannot be set by cmd" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
                (r.returncode, r.stderr))
        uml = os.path.join(work, "\u00fcml")
        test_loadtrace.lay(s919, os.path.join(uml, "lib"), {"kind": "so9"})
        r = subprocess.run([exe, "env", os.path.join(uml, "lib"), "--shell", "cmd"], env=base_env,
                           capture_output=True)
        lines = r.stdout.split(b"\r\n")
        c.named("cmd: non-ASCII values are set under code page 65001 (UTF-8), the old code page restored after",
                r.returncode == 0 and b"chcp 65001 >nul" in lines and b"chcp %CUDNNCTL_CP% >nul" in lines
                and lines.index(b"chcp 65001 >nul") < lines.index(('set "CUDNN_PATH=%s"' % uml).encode())
                < lines.index(b"chcp %CUDNNCTL_CP% >nul"), (r.returncode, r.stdout[-400:]))
        os.symlink(out_bat, os.path.join(work, "link.bat"))
        r = subprocess.run([exe, "env", os.path.join(plain_dir, "lib"), "--shell", "cmd", "-o",
                            os.path.join(work, "link.bat")], env=base_env, capture_output=True, text=True)
        c.named("-o onto a symbolic link is refused, the file it points at untouched",
                r.returncode == 2 and "symbolic link" in r.stderr and open(out_bat, "rb").read() == bat,
                (r.returncode, r.stderr))
        wine = shutil.which("wine") or shutil.which("wine64")
        if wine and os.environ.get("WINEPREFIX"):
            wbat = cliutil.wine_path(out_bat)
            # output to a file, not a pipe: services Wine starts would hold a pipe open
            with open(os.path.join(work, "wine.out"), "wb") as wo:
                r = subprocess.run([wine, "cmd", "/c", "call %s & set CUDNN" % wbat], stdout=wo,
                                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, timeout=300,
                                   env=dict(os.environ, WINEDEBUG="-all"))
            r.stdout = open(os.path.join(work, "wine.out"), "rb").read()
            r.stderr = b""
            got = lines_of(r.stdout.decode("utf-8", "replace").replace("\r", ""))
            c.named("cmd (Wine): the batch file sets CUDNN_PATH byte for byte ('%', '&', '<', '>', '^')",
                    got.get("CUDNN_PATH") == plain_dir, (r.returncode, r.stdout[-300:], r.stderr[-300:]))
        else:
            print("note: no Wine (or no WINEPREFIX): the batch file is not run")

        # a Windows machine (a tree): the DLL directory and the CUDA bin on PATH, another cuDNN off
        root = os.path.join(work, "win")
        cu = os.path.join(root, "Program Files", "NVIDIA GPU Computing Toolkit", "CUDA", "v13.0")
        dn = os.path.join(root, "Program Files", "NVIDIA", "CUDNN", "v9.19")
        old = os.path.join(root, "tools", "cudnn8", "bin")
        for dd, names in ((os.path.join(cu, "bin", "x64"), ["cudart64_13.dll", "cublas64_13.dll",
                                                            "cublasLt64_13.dll"]),
                          (os.path.join(cu, "include"), ["cuda.h"]),
                          (os.path.join(dn, "bin", "13.0", "x64"), ["cudnn64_9.dll", "cudnn_graph64_9.dll",
                                                                     "cudnn_ops64_9.dll"]),
                          (os.path.join(dn, "include", "13.0"), []),
                          (old, ["cudnn64_8.dll", "cudnn_ops_infer64_8.dll"]),
                          (os.path.join(root, "Windows", "System32"), ["cudnn64_9.dll", "kernel32.dll"])):
            os.makedirs(dd, exist_ok=True)
            for n in names:
                with open(os.path.join(dd, n), "wb") as f:
                    f.write(b"MZ")
        r = subprocess.run([exe, "env", r"C:\Program Files\NVIDIA\CUDNN\v9.19", "--root", root, "--system",
                            "windows", "--set",
                            r"PATH=C:\tools\cudnn8\bin;%SystemRoot%\system32;C:\Windows;C:\Windows\System32",
                            "--set", r"CUDA_PATH=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v13.0",
                            "--json"], capture_output=True, text=True)
        wd, _ = cliutil.parse_json(r.stdout)
        wd = wd or {}
        c.named("windows tree: the DLL directory, then the CUDA 13.0 toolkit's bin\\x64, then the rest with "
                "%SystemRoot% as it was; the cuDNN 8 bin off; System32 kept though it holds a cuDNN DLL",
                r.returncode == 0 and wd.get("variable") == "PATH" and wd.get("after") ==
                r"C:\Program Files\NVIDIA\CUDNN\v9.19\bin\13.0\x64;"
                r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v13.0\bin\x64;%SystemRoot%\system32;C:\Windows;"
                r"C:\Windows\System32"
                and [e["entry"] for e in wd.get("removed", [])] == [r"C:\tools\cudnn8\bin"]
                and [e["entry"] for e in wd.get("kept", [])] == [r"C:\Windows\System32"],
                (r.returncode, r.stderr[-300:], wd.get("after"), wd.get("removed")))
        c.named("windows tree: a note says how Python 3.8+ programs load it (os.add_dll_directory)",
                any("os.add_dll_directory" in n for n in wd.get("notes", [])), wd.get("notes"))
    finally:
        if not os.environ.get("CUDNNCTL_KEEP_TEMP"):
            shutil.rmtree(work, ignore_errors=True)
    return c.summary("env", need_passes=True)


if __name__ == "__main__":
    sys.exit(main())
