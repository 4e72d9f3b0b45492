#!/usr/bin/env python3
"""The option tables and everything made from them: each command's --help,
the parser, the manual page (cudnnctl.1), the bash, zsh, fish and PowerShell
completions, and the README's command headings all say the same options;
the one mapping from a library error to an exit status, in the README and in
the code of every command.

The tables are read from the program itself (`cudnnctl __gen table`); the
generated files from the build directory, where the build wrote them.

usage: test_options.py --exe CUDNNCTL --build DIR --source DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cliutil  # noqa: E402

AP = cliutil.parser()
AP.add_argument("--build", required=True)
AP.add_argument("--source", required=True)
ARGS = AP.parse_args()
CHECKS = cliutil.Checks(limit=600)
named = CHECKS.named
EXE = cliutil.Program(ARGS.exe, timeout=60)
COMPLETIONS = os.path.join(ARGS.build, "completions")


def run(args, **kw):
    return EXE.run(args, **kw)


# ---- the tables, from the program ------------------------------------------------------------------------------------

class Opt:
    def __init__(self, f):
        (self.cmd, self.long, self.short, self.arg, self.kind, flags, values, self.group) = f
        self.flags = set(x for x in flags.split(",") if x)
        self.values = values.split()

    def sample(self):
        """A value the parser takes for it (the value itself is checked later, or not at all)."""
        if self.values:
            return self.values[0]
        return {"SECONDS": "5", "N": "3", "VAR=VALUE": "A=B"}.get(self.arg, "x")


r = run(["__gen", "table"])
named("__gen table: exit 0", r.rc == 0 and r.out, (r.rc, r.err_text))
COMMANDS = {}  # name -> (usage, usage without shared groups, summary, operand kind)
ORDER = []
OPTS = {}  # name -> [Opt]
for line in r.out_text.splitlines():
    f = line.split("\t")
    if f[0] == "command" and len(f) == 6:
        COMMANDS[f[1]] = (f[2], f[3], f[4], f[5])
        ORDER.append(f[1])
        OPTS[f[1]] = []
    elif f[0] == "option" and len(f) == 9:
        OPTS[f[1]].append(Opt(f[1:]))
    else:
        named("__gen table: line %r" % line, False)
named("__gen table: the commands", len(ORDER) >= 9 and all(OPTS[c] for c in ORDER), ORDER)


def spellings(c):
    s = set()
    for o in OPTS[c]:
        s.add(o.long)
        if o.short:
            s.add(o.short)
    return s


# ---- --help, -h, help COMMAND, and the parser -----------------------------------------------------------------------

r = run(["--help"])
listed = []
for line in r.out_text.split("Commands:\n\n", 1)[-1].splitlines():
    if not line.strip():
        break
    listed.append(line.split()[0])
named("--help lists the command table, in order", r.rc == 0 and listed == ORDER, (listed, ORDER))

for c in ORDER:
    usage, short_usage, summary, _ = COMMANDS[c]
    h = run([c, "--help"])
    text = h.out_text
    named("%s --help: exit 0, usage first" % c, h.rc == 0 and text.startswith("usage: cudnnctl %s" % c), h.rc)
    named("%s -h and help %s: the same text" % (c, c),
          run([c, "-h"]).out == h.out and run(["help", c]).out == h.out)
    # the usage line (its continuation lines joined) is the table's
    head = text.split("\n\n", 1)[0]
    joined = " ".join(x.strip() for x in head.splitlines())
    named("%s --help: the usage line is made from the table" % c, joined == "usage: cudnnctl " + usage,
          (joined, usage))
    named("%s --help: the exit statuses" % c, "exit status:\n  0  " in text and "  4  " in text)
    # every option of the table in the help, in the usage line, with its argument
    for o in OPTS[c]:
        label = ("%s, %s" % (o.short, o.long) if o.short else o.long) + (" " + o.arg if o.arg else "")
        named("%s --help: %s" % (c, label), re.search(r"^  %s(  | *$)" % re.escape(label), text, re.M) is not None)
        if o.long != "--help":
            named("%s usage names %s" % (c, o.long), re.search(re.escape(o.long) + r"\b", usage) is not None, usage)
    # every option the help mentions is one the command takes
    mentioned = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))
    named("%s --help mentions only its own options" % c, mentioned <= spellings(c),
          sorted(mentioned - spellings(c)))
    # the parser takes each option of the table (with a value where it needs one), and nothing else
    for o in OPTS[c]:
        if o.long == "--help":
            continue
        for spelling in ([o.long, o.short] if o.short else [o.long]):
            argv = [c, spelling] + ([o.sample()] if o.arg else []) + ["--help"]
            p = run(argv)
            named("parser: %s" % " ".join(argv), p.rc == 0 and p.out == h.out, (p.rc, p.err_text))
        if o.arg:
            p = run([c, "%s=%s" % (o.long, o.sample()), "--help"])
            named("parser: %s %s=VALUE" % (c, o.long), p.rc == 0, (p.rc, p.err_text))
    p = run([c, "--no-such-option"])
    named("parser: %s --no-such-option: exit 2, one line" % c,
          p.rc == 2 and p.err_text.count("\n") == 1 and "unknown option" in p.err_text, (p.rc, p.err_text))

# The review's case: frameworks took the machine options without saying so.
fw = run(["frameworks", "--help"]).out_text
named("frameworks --help documents --system and --env", "--system SYS" in fw and "--env FILE" in fw, fw[:300])


# ---- the manual page ---------------------------------------------------------------------------------------------

MAN = os.path.join(ARGS.build, "cudnnctl.1")
named("cudnnctl.1 was built", os.path.isfile(MAN), MAN)
roff = open(MAN, encoding="utf-8").read() if os.path.isfile(MAN) else ""
r = run(["__gen", "man"])
named("cudnnctl.1 is what the program writes now", r.out_text == roff)
for sec in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"):
    named("cudnnctl.1: section %s" % sec, re.search(r"^\.SH \"?%s\"?$" % sec, roff, re.M) is not None)
if shutil.which("groff"):
    p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", MAN], capture_output=True, text=True)
    named("cudnnctl.1 renders without a warning (groff -man -ww)", p.returncode == 0 and p.stderr == "",
          p.stderr[:600])
    p = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou", "-rLL=200n", MAN], capture_output=True, text=True)
    page = p.stdout
    named("cudnnctl.1 renders", p.returncode == 0 and "EXIT STATUS" in page, p.stderr[:300])
else:
    named("groff is installed (scripts/deps.sh: groff-base)", not os.environ.get("CI"))
    page = ""
# each command: its section, its usage, every option as a tagged paragraph
sections = {}
for m in re.finditer(r"^\.SS (\S+)\n(.*?)(?=^\.SS |^\.SH )", roff, re.M | re.S):
    sections[m.group(1)] = m.group(2)
named("cudnnctl.1: one section per command, in order", list(sections) == ORDER, list(sections))
for c in ORDER:
    body = sections.get(c, "")
    for o in OPTS[c]:
        want = ("\\fB\\-%s\\fR, " % o.short[1:] if o.short else "") + "\\fB" + o.long.replace("-", "\\-") + "\\fR"
        named("cudnnctl.1: %s %s" % (c, o.long), ".TP\n" + want in body, want)
    if page:
        named("cudnnctl.1 renders the usage of %s" % c,
              "cudnnctl " + COMMANDS[c][0] in " ".join(page.split()), COMMANDS[c][0])
for v in ("NO_COLOR", "TMPDIR", "LD_LIBRARY_PATH", "CUDA_PATH", "CUDNN_PATH", "VIRTUAL_ENV", "CONDA_PREFIX"):
    named("cudnnctl.1: ENVIRONMENT names %s" % v, re.search(r"^\.B .*\b%s\b" % v, roff, re.M) is not None)


# ---- completions: bash --------------------------------------------------------------------------------------------

BASH = os.path.join(COMPLETIONS, "cudnnctl.bash")
named("bash completion was built", os.path.isfile(BASH), BASH)
p = subprocess.run(["bash", "-n", BASH], capture_output=True, text=True)
named("bash -n", p.returncode == 0 and p.stderr == "", p.stderr)

TMP = tempfile.mkdtemp(prefix="cc-options-")
try:
    os.mkdir(os.path.join(TMP, "dir1"))
    open(os.path.join(TMP, "data1"), "w").close()

    def bash_complete(words):
        """COMPREPLY after the completion function ran on words (the last one is being completed), as
        bash calls it: COMP_WORDS split at '=' too."""
        script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
                  '_cudnnctl; printf "%s\\n" "${COMPREPLY[@]}"')
        p = subprocess.run(["bash", "--norc", "-c", script, "bash", BASH] + words, capture_output=True, text=True)
        if p.returncode != 0 or p.stderr:
            return ["error: %s" % p.stderr.strip()]
        return sorted(x for x in p.stdout.splitlines() if x)

    cases = [
        (["cudnnctl", ""], sorted(ORDER + ["help"])),
        (["cudnnctl", "whi"], ["which"]),
        (["cudnnctl", "wh"], ["which", "who-uses"]),
        (["cudnnctl", "-"], ["--help", "--version", "-V", "-h"]),
        (["cudnnctl", "help", "ver"], ["verify"]),
        (["cudnnctl", "doctor", "--no-"], ["--no-compile", "--no-frameworks", "--no-gpu"]),
        (["cudnnctl", "which", "--system", ""], ["linux", "windows"]),
        (["cudnnctl", "which", "--system", "=", "w"], ["windows"]),
        (["cudnnctl", "deps", "--win-mode", "s"], ["search", "standard"]),
        (["cudnnctl", "list", "--root", os.path.join(TMP, "d")], [os.path.join(TMP, "dir1")]),
        (["cudnnctl", "doctor", "--facts", os.path.join(TMP, "da")], [os.path.join(TMP, "data1")]),
        (["cudnnctl", "inspect", os.path.join(TMP, "da")], [os.path.join(TMP, "data1")]),
        (["cudnnctl", "explain", "--major", ""], ["8", "9"]),
        (["cudnnctl", "frameworks", "--r"], ["--root"]),
        (["cudnnctl", "compat", "--cuda", ""], []),
        (["cudnnctl", "which", ""], []),
    ]
    for words, want in cases:
        got = bash_complete(words)
        named("bash: %s" % " ".join(w if w else "''" for w in words), got == want, (got, want))
    for c in ORDER:
        got = bash_complete(["cudnnctl", c, "-"])
        named("bash: every option of %s" % c, got == sorted(spellings(c)), sorted(set(got) ^ spellings(c)))
        for o in OPTS[c]:
            if o.values:
                got = bash_complete(["cudnnctl", c, o.long, ""])
                named("bash: %s %s values" % (c, o.long), got == sorted(o.values), got)
finally:
    shutil.rmtree(TMP, ignore_errors=True)


# ---- completions: zsh, fish ---------------------------------------------------------------------------------------

ZSH = os.path.join(COMPLETIONS, "_cudnnctl")
zsh_text = open(ZSH, encoding="utf-8").read() if os.path.isfile(ZSH) else ""
named("zsh completion: #compdef", zsh_text.startswith("#compdef cudnnctl\n"))
for c in ORDER:
    block = re.search(r"^ +%s\)\n(.*?);;" % re.escape(c), zsh_text, re.M | re.S)
    block = block.group(1) if block else ""
    for o in OPTS[c]:
        named("zsh: %s %s" % (c, o.long), re.search(re.escape(o.long) + r"[=\[}]", block) is not None)
if shutil.which("zsh"):
    p = subprocess.run(["zsh", "-n", ZSH], capture_output=True, text=True)
    named("zsh -n", p.returncode == 0 and p.stderr == "", p.stderr)
else:
    named("zsh is installed (scripts/deps.sh)", not os.environ.get("CI"))

FISH = os.path.join(COMPLETIONS, "cudnnctl.fish")
if shutil.which("fish"):
    p = subprocess.run(["fish", "--no-config", "-n", FISH], capture_output=True, text=True)
    named("fish -n", p.returncode == 0 and p.stderr == "", p.stderr)

    def fish_complete(line):
        p = subprocess.run(["fish", "--no-config", "-c", 'source $argv[1]; complete -C"$argv[2]"', FISH, line],
                           capture_output=True, text=True)
        return sorted(x.split("\t")[0] for x in p.stdout.splitlines() if x)

    for line, want in [("cudnnctl whi", ["which"]), ("cudnnctl wh", ["which", "who-uses"]),
                       ("cudnnctl which --system ", ["linux", "windows"]),
                       ("cudnnctl doctor --no-", ["--no-compile", "--no-frameworks", "--no-gpu"]),
                       ("cudnnctl help ver", ["verify"])]:
        got = fish_complete(line)
        named("fish: %s" % line, got == want, got)
    for c in ORDER:
        got = set(fish_complete("cudnnctl %s --" % c))
        longs = set(o.long for o in OPTS[c])
        named("fish: every option of %s" % c, got == longs, sorted(got ^ longs))
else:
    named("fish is installed (scripts/deps.sh)", not os.environ.get("CI"))


# ---- completions: PowerShell (no pwsh in Debian: its structure) -------------------------------------------------------

PS = os.path.join(COMPLETIONS, "cudnnctl.ps1")
ps = open(PS, encoding="utf-8").read() if os.path.isfile(PS) else ""
named("PowerShell: Register-ArgumentCompleter -Native", "Register-ArgumentCompleter -Native -CommandName" in ps)
code = re.sub(r"^\s*#.*$", "", ps, flags=re.M)  # comment lines and strings out: the brackets must balance
code = re.sub(r"'(?:[^']|'')*'", "''", code)
named("PowerShell: brackets balance", all(code.count(a) == code.count(b) for a, b in ("{}", "()", "[]")))
for c in ORDER:
    m = re.search(r"^        '%s' = @\(\n(.*?)^        \)" % re.escape(c), ps, re.M | re.S)
    names = re.findall(r"Name = '([^']*)'; Short = '([^']*)'; Arg = '(\w+)'; Values = '([^']*)'",
                       m.group(1) if m else "")
    want = [(o.long, o.short, o.kind, " ".join(o.values)) for o in OPTS[c]]
    named("PowerShell: the options of %s" % c, names == want, (names, want))
    named("PowerShell: %s in the command list" % c, re.search(r"^        '%s' = '" % c, ps, re.M) is not None)


# ---- the README ---------------------------------------------------------------------------------------------------

README = open(os.path.join(ARGS.source, "README.md"), encoding="utf-8").read()
for c in ORDER:
    want = "### `cudnnctl %s`" % COMMANDS[c][1]
    named("README heading of %s is its usage line" % c, re.search("^" + re.escape(want) + "$", README, re.M)
          is not None, want)
machine = [o for o in OPTS["list"] if o.group == "machine"]
want = "### " + ", ".join("`%s %s`" % (o.long, o.arg) for o in machine)
named("README heading of the machine options", re.search("^" + re.escape(want) + "$", README, re.M) is not None, want)
for o in OPTS["which"]:
    if o.group == "resolve":
        named("README names %s" % o.long, o.long in README)


# ---- exit statuses ----------------------------------------------------------------------------------------------------

r = run(["__gen", "exit-map"])
emap = {f[0]: [int(x) for x in f[1:]] for f in (line.split("\t") for line in r.out_text.splitlines())}
named("__gen exit-map", r.rc == 0 and len(emap) == 8 and all(len(v) == 3 for v in emap.values()), emap)
# What the documented meanings say: 1 "an input could not be read or parsed", 2 "bad command line", 4 "the tool
# itself failed". An I/O error reading the machine is 1 for every command (list said 4, verify 1).
named("exit map: I/O and format errors", all(emap.get(k) == [1, 2, 4] for k in ("IO", "FORMAT", "TRUNCATED", "LIMIT")),
      emap)
named("exit map: out of memory is 4, a bad value 2", emap.get("NOMEM") == [4, 4, 4] and emap.get("USAGE") == [2, 2, 2],
      emap)
named("exit map: not found", emap.get("NOTFOUND") == [3, 3, 4], emap.get("NOTFOUND"))
# the README's table is the program's
rows = {}
for m in re.finditer(r"^\| `(\w+)` \|([^\n]*)\|$", README.split("## Exit status", 1)[-1].split("\n## ", 1)[0], re.M):
    rows[m.group(1)] = [int(x) for x in re.findall(r"\d", m.group(2))]
named("README: the exit-status mapping is the program's", rows == emap, (rows, emap))
# every command maps library errors through cli_exit_status, none on its own
cli = os.path.join(ARGS.source, "src", "cli")
own = []
for name in sorted(os.listdir(cli)):
    if name.endswith(".c") and name not in ("status.c", "gen.c"):
        src = open(os.path.join(cli, name), encoding="utf-8").read()
        if re.search(r"\.code\b|CUDNNCTL_ERR_", src):
            own.append(name)
named("no command maps a library error to a status on its own", own == [], own)

sys.exit(CHECKS.summary("options"))
