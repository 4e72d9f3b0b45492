#!/usr/bin/env python3
"""Counts the reads of fact trees by string key in src/lib, per folder: every
call cc_v_get(X, "key"), cc_v_get_str(X, "key"), cc_v_getm(X, "key") and
cc_v_path(X, "a/b") (and their cudnnctl_value_* names) whose key is a string
literal. The typed views of src/lib/facts are what checks read instead
(docs/architecture.md); this measures how far that went.

    scripts/key-reads.py [--files] [SOURCE_ROOT]"""
import os
import re
import sys

CALL = re.compile(r'\b(cc_v_get|cc_v_get_str|cc_v_getm|cc_v_path|cudnnctl_value_get|cudnnctl_value_path)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def reads(text):
    text = COMMENT.sub(' ', text)
    n = 0
    for m in CALL.finditer(text):
        depth, i, last = 1, m.end(), m.end()
        while i < len(text) and depth:
            c = text[i]
            if c == '"':
                i += 1
                while i < len(text) and text[i] != '"':
                    i += 2 if text[i] == '\\' else 1
            elif c in '([{':
                depth += 1
            elif c in ')]}':
                depth -= 1
            elif c == ',' and depth == 1:
                last = i + 1
            i += 1
        if text[last:i - 1].strip().startswith('"'):
            n += 1
    return n


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    per_file = '--files' in sys.argv
    root = os.path.join(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'), 'src', 'lib')
    total = {}
    for d, _, fs in sorted(os.walk(root)):
        for f in sorted(fs):
            if not f.endswith('.c'):
                continue
            n = reads(open(os.path.join(d, f), encoding='utf-8', errors='replace').read())
            folder = os.path.relpath(d, root)
            folder = 'common' if folder == '.' else folder
            total[folder] = total.get(folder, 0) + n
            if per_file and n:
                print('  %-40s %5d' % (os.path.join(folder, f), n))
    outside = 0
    for folder in sorted(total):
        print('%-12s %5d' % (folder, total[folder]))
        if folder not in ('facts', 'render'):
            outside += total[folder]
    print('%-12s %5d  (all but facts/ and render/)' % ('outside', outside))


main()
