#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""`swift format lint` (the toolchain's) over Sources, Tests and Benchmarks, with the rules in
.swift-format: every rule finding fails `make lint`, as does trailing whitespace.

The pretty-printer's layout findings (indentation, line breaks, spacing, trailing commas, line
length) are counted, not enforced: the house aligns continuation lines by hand, and taking the
printer's layout would rewrite most of the tree in one commit. Line length (160 columns in
.swift-format) is among them: most long lines are one message string each.

  python3 Tools/swiftformat.py     exit 1 with the findings, else one summary line
"""
import collections, pathlib, re, shutil, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYOUT = {'Indentation', 'AddLines', 'RemoveLine', 'Spacing', 'TrailingComma', 'LineLength', 'EndOfLineComment'}
FINDING = re.compile(r'^(.+?:\d+:\d+): warning: \[(\w+)\] (.*)$')

def main():
    swift = shutil.which('swift')
    if swift is None:
        print('note: swift is missing: swift format lint did not run')
        return 0
    run = subprocess.run([swift, 'format', 'lint', '--parallel', '--recursive', '--configuration', str(ROOT / '.swift-format'),
                          'Sources', 'Tests', 'Benchmarks'], cwd=ROOT, capture_output=True, text=True)
    enforced, layout = [], collections.Counter()
    for line in run.stderr.splitlines():
        match = FINDING.match(line)
        if not match:
            if 'error:' in line:
                enforced.append(line)
            continue
        where, rule, message = match.groups()
        if rule in LAYOUT:
            layout[rule] += 1
        else:
            enforced.append(f'{where}: [{rule}] {message}')
    for line in enforced:
        print(line)
    counted = ', '.join(f'{n} {rule}' for rule, n in layout.most_common())
    if enforced:
        print(f'swift format lint: {len(enforced)} findings of the rules in .swift-format')
        return 1
    print(f'swift format lint: the rules in .swift-format hold (layout, not enforced: {counted or "none"})')
    return 0

sys.exit(main())
