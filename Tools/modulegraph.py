#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""The module graph, checked three ways: every target imports exactly what Package.swift says
it depends on (SwiftPM lets a target import its dependencies' dependencies, which hides the
graph); no `@_exported import`; and the diagram and table in docs/design.md match.

  python3 Tools/modulegraph.py           check, exit 1 with one line per mismatch
  python3 Tools/modulegraph.py --write   rewrite the diagram in docs/design.md
"""
import json, pathlib, re, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DESIGN = ROOT / 'docs' / 'design.md'
BEGIN, END = '<!-- modulegraph: begin -->', '<!-- modulegraph: end -->'
IMPORT = re.compile(r'^(@_exported\s+|@testable\s+|@preconcurrency\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?(\w+)', re.M)

def targets():
    out = subprocess.run(['swift', 'package', 'dump-package'], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    result = {}
    for t in json.loads(out)['targets']:
        deps = []
        for d in t.get('dependencies', []):
            kind = next(iter(d))
            deps.append(d[kind][0])
        default = ('Tests/' if t['type'] == 'test' else 'Sources/') + t['name']
        result[t['name']] = (t['type'], ROOT / (t.get('path') or default), deps)
    return result

def imports(path):
    found, exported = set(), []
    for f in sorted(path.rglob('*.swift')):
        for m in IMPORT.finditer(f.read_text()):
            found.add(m.group(2))
            if m.group(1) and '@_exported' in m.group(1):
                exported.append(f'{f.relative_to(ROOT)}: @_exported import {m.group(2)}')
    return found, exported

def diagram(graph):
    lines = ['```mermaid', 'graph BT']
    for name, (kind, _, deps) in graph.items():
        if kind in ('regular', 'executable'):
            for d in deps:
                if d in graph and graph[d][0] != 'system':
                    lines.append(f'  {name.replace("-", "_")} --> {d}')
    lines.append('```')
    return '\n'.join(lines)

# Modules that must not reach these C libraries, even through another module: `batch` renders
# in child processes and reads logs, so it links no studio (JACK, ALSA, liblo) and no Cairo.
# The LV2 plugin runs inside any host: no JACK, ALSA or liblo (the readelf test checks the
# library too). It does reach Cairo: its UI draws the world as `clumsy draw` does (Pictures,
# WorldDrawing), in the same library, since a second Swift library would load a second runtime.
# The sinks a render writes and the picture commands link no studio library either: a machine
# without JACK renders and draws.
STUDIO = {'Studio', 'CJack', 'CALSA', 'CLo', 'CLink'}
MUST_NOT_REACH = {'Batch': STUDIO | {'CCairo'}, 'ClumsyLV2': STUDIO, 'Sinks': STUDIO, 'PictureCommands': STUDIO}

# Who may import a module (test targets aside). Presets is the preset format: the resolver
# (Engine: `SessionPlan.resolve`, `PresetFiles`, `PresetField`) and the command line's preset
# commands and docs generator read it; everything after the resolve step reads the plan. A
# module that starts to import Presets fails here.
MAY_IMPORT = {'Presets': {'Engine', 'clumsy', 'clumsy-docs'},
              # Studio is JACK, ALSA, liblo and Link: only Live (the live sinks and sources, the
              # masters followed) imports it, so the sinks, the pictures and the runner link none.
              'Studio': {'Live'}}

TESTED_IN_HOST = {'ClumsyLV2'}

def reach(graph, name, seen=None):
    seen = set() if seen is None else seen
    for d in graph.get(name, (None, None, []))[2]:
        if d not in seen:
            seen.add(d)
            reach(graph, d, seen)
    return seen

def main():
    graph = targets()
    names = set(graph) | {'SystemPackage', 'ArgumentParser', 'Testing'}
    problems = []
    for name, (kind, path, deps) in graph.items():
        if kind in ('system', 'plugin'):
            continue
        found, exported = imports(path)
        problems += exported
        used = found & names
        used.discard('Testing')
        for m in sorted(used - set(deps) - {name}):
            problems.append(f'{name} imports {m} but Package.swift does not list it as a dependency')
        for m in sorted(set(deps) - used):
            problems.append(f'{name} lists {m} in Package.swift but no file imports it')
    for module, allowed in MAY_IMPORT.items():
        for name, (kind, path, deps) in graph.items():
            from_sources = path.relative_to(ROOT).parts[0] == 'Sources'
            if kind in ('regular', 'executable') and from_sources and module in deps and name not in allowed:
                problems.append(f'{name} imports {module}, which only {", ".join(sorted(allowed))} may')
    # Every Swift module in Sources has a test target of its name; the C targets and the
    # executables are tested through what imports or runs them, and the plugin's library (which
    # links the Swift runtime statically) in its host, jalv (EndToEndTests).
    for name, (kind, path, deps) in graph.items():
        in_sources = path.relative_to(ROOT).parts[0] == 'Sources'
        is_c = not any(path.rglob('*.swift'))
        if kind == 'regular' and in_sources and not is_c and name not in TESTED_IN_HOST and name + 'Tests' not in graph:
            problems.append(f'{name} has no test target ({name}Tests in Package.swift)')
    for name, banned in MUST_NOT_REACH.items():
        for m in sorted(reach(graph, name) & banned):
            problems.append(f'{name} reaches {m} through its dependencies, which it must not link')
    text = DESIGN.read_text()
    # The module table: | `Name` | owns | imports |
    for row in re.finditer(r'^\| `([\w-]+)`[^|]*\|[^|]*\| ([^|]*) \|$', text, re.M):
        name, listed = row.group(1), row.group(2).strip()
        key = {'clumsy-docs': 'clumsy-docs', 'clumsy-bench': 'clumsy-bench'}.get(name, name)
        if key not in graph:
            problems.append(f'docs/design.md lists module {name}, which Package.swift does not have')
            continue
        want = set(graph[key][2])
        have = set() if listed in ('—', '') else {m.strip() for m in listed.split(',')}
        if have != want:
            problems.append(f'docs/design.md: {name} imports {", ".join(sorted(want)) or "—"}, the table says {listed}')
    made = diagram(graph)
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < 0:
        problems.append(f'docs/design.md lacks the {BEGIN} … {END} markers')
    elif '--write' in sys.argv:
        DESIGN.write_text(text[:start + len(BEGIN)] + '\n' + made + '\n' + text[stop:])
    elif text[start + len(BEGIN):stop].strip() != made:
        problems.append('docs/design.md: the module diagram differs from Package.swift (python3 Tools/modulegraph.py --write)')
    print('\n'.join(problems))
    return 1 if problems else 0

sys.exit(main())
