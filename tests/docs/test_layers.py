#!/usr/bin/env python3
"""The layering of src/lib, checked from its #include lines.

Every `#include "..."` of every .c and .h file under src/lib is resolved (next
to the including file first, then from src/lib, as the build's include path
does) and mapped to the folder it lies in (the files directly in src/lib are
the folder "common"). The folder graph is printed and the test fails on:
  - a cycle between folders (a folder reaching itself through others);
  - a header of commands/ included from outside commands/, or a command's
    entry point (cudnnctl_list, cudnnctl_which, ...) called from outside
    commands/: the commands layer sits on top, nothing below it calls up
    into it;
  - an operating-system header (<windows.h>, <unistd.h>, <dlfcn.h>,
    <sys/...>, ...) included outside platform/, the only place that touches
    the OS, unless ALLOWED_OS_INCLUDES names the file with the reason.

--self-test first runs the same checks on small made-up trees and fails if
they miss a cycle, an upward include or an OS header. --lines prints the
lines of code per folder too."""
import argparse
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
OS_HEADERS = re.compile(
    r'^(windows\.h|winternl\.h|psapi\.h|tlhelp32\.h|io\.h|direct\.h|process\.h|unistd\.h|dlfcn\.h|fcntl\.h|'
    r'dirent\.h|pthread\.h|signal\.h|spawn\.h|poll\.h|termios\.h|pwd\.h|grp\.h|link\.h|elf\.h|'
    r'sys/.*|arpa/.*|netinet/.*|netdb\.h)$')
# file (relative to src/lib) -> why it may include an OS header outside platform/
ALLOWED_OS_INCLUDES = {
    'net/http_winhttp.c': 'WinHTTP is the HTTP edge on Windows: <winhttp.h> needs <windows.h>',
}
TOP = 'commands'
# the commands' entry points (include/cudnnctl/cudnnctl.h), defined in commands/
ENTRY = re.compile(r'\b(cudnnctl_(?:list|which|deps|verify|frameworks|doctor|doctor_recheck)|cc_verify_listed)\s*\(')
COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)


def folder_of(rel):
    return rel.split('/')[0] if '/' in rel else 'common'


def scan(lib):
    """(edges {folder: {folder: [(file, included)]}}, os_hits [(file, header)], up_calls [(file, function)])"""
    edges, os_hits, up_calls = {}, [], []
    for dirpath, _, names in os.walk(lib):
        for name in sorted(names):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, lib).replace(os.sep, '/')
            src = folder_of(rel)
            edges.setdefault(src, {})
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
            if src != TOP:
                for m in ENTRY.finditer(COMMENT_OR_STRING.sub(' ', text)):
                    up_calls.append((rel, m.group(1)))
            for line in text.split('\n'):
                m = INCLUDE.match(line)
                if not m:
                    continue
                kind, inc = m.groups()
                if kind == '<':
                    if OS_HEADERS.match(inc) and src != 'platform' and rel not in ALLOWED_OS_INCLUDES:
                        os_hits.append((rel, inc))
                    continue
                target = None
                for base in (dirpath, lib):
                    cand = os.path.normpath(os.path.join(base, inc))
                    if os.path.isfile(cand):
                        target = cand
                        break
                if target is None:
                    continue  # outside src/lib (include/cudnnctl/cudnnctl.h) or generated
                trel = os.path.relpath(target, lib).replace(os.sep, '/')
                if trel.startswith('..'):
                    continue
                dst = folder_of(trel)
                if dst != src:
                    edges[src].setdefault(dst, []).append((rel, trel))
    return edges, os_hits, up_calls


def cycles(edges):
    """The strongly connected components of more than one folder (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check(lib, quiet=False):
    """The problems found, one line each (empty: the layering holds)."""
    edges, os_hits, up_calls = scan(lib)
    problems = []
    for comp in cycles(edges):
        detail = []
        for a in comp:
            for b in comp:
                if b in edges.get(a, {}):
                    f, t = edges[a][b][0]
                    detail.append('%s -> %s (%s includes %s)' % (a, b, f, t))
        problems.append('cycle between folders %s: %s' % (', '.join(comp), '; '.join(detail)))
    for src in sorted(edges):
        if src != TOP and TOP in edges[src]:
            f, t = edges[src][TOP][0]
            problems.append('%s includes %s: only the commands layer may use its own headers' % (f, t))
    for f, fn in up_calls:
        problems.append('%s calls %s: only the commands layer runs commands' % (f, fn))
    for f, h in os_hits:
        problems.append('%s includes <%s>: OS headers belong in platform/' % (f, h))
    if not quiet:
        print('include graph between the folders of src/lib (folder -> the folders it includes):')
        for src in sorted(edges):
            print('  %-11s -> %s' % (src, ' '.join(sorted(edges[src])) or '(nothing)'))
    return problems


def lines_per_folder(lib):
    counts = {}
    for dirpath, _, names in os.walk(lib):
        for name in names:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, lib).replace(os.sep, '/')
            with open(path, 'rb') as f:
                counts[folder_of(rel)] = counts.get(folder_of(rel), 0) + f.read().count(b'\n')
    return counts


def self_test():
    """The checks must catch what they are for."""
    cases = {
        'cycle': {'a/a.c': '#include "../b/b.h"\n', 'b/b.h': '#include "../a/a.h"\n', 'a/a.h': ''},
        'upward': {'commands/c.h': '', 'formats/f.c': '#include "../commands/c.h"\n'},
        'upward call': {'discover/d.c': 'static int f(void) { return cudnnctl_which(0, 0, 0, 0, 0, 0); }\n'},
        'os header': {'formats/f.c': '#include <unistd.h>\n'},
        'os header (sys/)': {'discover/d.c': '#include <sys/stat.h>\n'},
        'rooted include cycle': {'kb/k.c': '#include "explain/e.h"\n', 'explain/e.h': '#include "kb/k.h"\n',
                                 'kb/k.h': ''},
    }
    good = {'platform/p.c': '#include <unistd.h>\n#include "platform.h"\n', 'platform/platform.h': '#include "../common.h"\n',
            'common.h': '', 'commands/c.c': '#include "../platform/platform.h"\nint g(void) { return cudnnctl_list(0); }\n',
            'inspect/i.c': '/* cudnnctl_which(NAME) is not called here */\nstatic const char *s = "cudnnctl_list(";\n'}
    failed = []
    for name, tree in list(cases.items()) + [('clean', good)]:
        with tempfile.TemporaryDirectory(prefix='layers-') as d:
            for rel, text in tree.items():
                os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
                with open(os.path.join(d, rel), 'w') as f:
                    f.write(text)
            found = check(d, quiet=True)
            if (name == 'clean') != (not found):
                failed.append('%s: %s' % (name, found or 'not caught'))
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source', required=True, help='the repository root')
    ap.add_argument('--self-test', action='store_true')
    ap.add_argument('--lines', action='store_true')
    a = ap.parse_args()
    lib = os.path.join(a.source, 'src', 'lib')
    if a.self_test:
        bad = self_test()
        if bad:
            print('self-test: the checks miss what they are for:\n  ' + '\n  '.join(bad))
            return 1
        print('self-test: a cycle, an upward include or call and OS headers are caught; a clean tree passes')
    problems = check(lib)
    if a.lines:
        print('lines per folder:')
        for k, v in sorted(lines_per_folder(lib).items()):
            print('  %-11s %6d' % (k, v))
    if problems:
        print('layering broken:\n  ' + '\n  '.join(problems))
        return 1
    print('no cycle between folders; commands/ is on top (nothing includes it or calls a command); '
          'OS headers only in platform/')
    return 0


if __name__ == '__main__':
    sys.exit(main())
