#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Lines per Swift file and per function (or initializer) body under the given directories:
prints each file over 500 lines and each function over 80, and exits 1 if there is one.
Comments and string literals are skipped when braces are counted."""
import re, sys, pathlib
FILE_LIMIT, FUNC_LIMIT = 500, 80
decl = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|nonisolated|convenience|required|@inlinable|@usableFromInline|@discardableResult)\s+)*(func\s+[^\s(<]+|init[?!]?|deinit|(?:var|subscript)\s)')
def strip(line, state):
    out, i = [], 0
    while i < len(line):
        if state['block']:
            j = line.find('*/', i)
            if j < 0: return ''.join(out)
            state['block'] = False; i = j + 2; continue
        c = line[i]
        if state['str']:
            if line.startswith('"""', i) and state['str'] == '"""': state['str'] = None; i += 3; continue
            if c == '\\': i += 2; continue
            if c == '"' and state['str'] == '"': state['str'] = None
            i += 1; continue
        if line.startswith('//', i): break
        if line.startswith('/*', i): state['block'] = True; i += 2; continue
        if line.startswith('"""', i): state['str'] = '"""'; i += 3; continue
        if c == '"': state['str'] = '"'; i += 1; continue
        out.append(c); i += 1
    if state['str'] == '"': state['str'] = None
    return ''.join(out)
problems = []
for root in sys.argv[1:] or ['Sources']:
    for path in sorted(pathlib.Path(root).rglob('*.swift')):
        lines = path.read_text().splitlines()
        if len(lines) > FILE_LIMIT: problems.append(f'{path}: {len(lines)} lines (limit {FILE_LIMIT})')
        state = {'block': False, 'str': None}
        code = [strip(l, state) for l in lines]
        for n, l in enumerate(code):
            m = decl.match(l)
            if not m or not m.group(1).startswith(('func', 'init', 'deinit')): continue
            depth, started = 0, False
            for k in range(n, len(code)):
                for ch in code[k]:
                    if ch == '{': depth += 1; started = True
                    elif ch == '}': depth -= 1
                if started and depth <= 0: break
                if not started and k > n + 15: break
            if started and k - n + 1 > FUNC_LIMIT:
                problems.append(f'{path}:{n+1}: {m.group(1).strip()} is {k-n+1} lines (limit {FUNC_LIMIT})')
print('\n'.join(problems))
sys.exit(1 if problems else 0)
