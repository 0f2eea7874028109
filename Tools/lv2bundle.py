#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Assembles the LV2 bundle clumsy.lv2: the plugin's shared library, its Turtle files and the
bundled presets (read by the plugin when it is activated, never in run()).

  python3 Tools/lv2bundle.py LIBRARY PRESETS_DIR BUNDLE_DIR [NUMBERS]

The `preset` port is an enumeration of the presets by the numbers of NUMBERS (default
PRESETS_DIR/lv2-numbers.txt, `NUMBER NAME` a line), which never change: a host's saved session
stores the number, so a new preset takes the next number (given here, in name order, with a
note asking for its line in the table) and a retired one (`NUMBER NAME retired`) plays
`default`. presets.txt holds the names in number order for the plugin to read. Each preset is
also an LV2 preset (pset:Preset, presets.ttl) that sets the `preset` port and every other
control but the seed to the preset's own (the host's seed stays); its label and URI start with
its number, zero-padded, so that hosts sorting by label (Ardour) or URI (Carla) list the presets
in number order. Ports 15…17 are control outputs (the chord's degree, the bar, the form's
section). The key, mode and quantize ports' scale points are the plugin's
own lists, asked of the library (clumsy_port_choices), so the Turtle and the engine cannot
disagree; the version (lv2:minorVersion, lv2:microVersion) comes from VERSION, the licence
is doap:license.
"""
import ctypes, pathlib, re, shutil, sys, urllib.parse

URI = 'urn:clumsy:lv2'
ROOT = pathlib.Path(__file__).resolve().parent.parent
LICENSE = 'http://spdx.org/licenses/GPL-3.0-or-later'
OWN = "preset's own"

UI = f'{URI}#ui'

MANIFEST = f'''@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .
@prefix pset: <http://lv2plug.in/ns/ext/presets#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ui:   <http://lv2plug.in/ns/extensions/ui#> .

<{URI}>
\ta lv2:Plugin ;
\tlv2:binary <clumsy.so> ;
\trdfs:seeAlso <clumsy.ttl> .

<{UI}>
\ta ui:X11UI ;
\tui:binary <clumsy.so> ;
\trdfs:seeAlso <clumsy.ttl> .
'''

HEAD = f'''@prefix atom: <http://lv2plug.in/ns/ext/atom#> .
@prefix doap: <http://usefulinc.com/ns/doap#> .
@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .
@prefix midi: <http://lv2plug.in/ns/ext/midi#> .
@prefix rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rsz:  <http://lv2plug.in/ns/ext/resize-port#> .
@prefix time: <http://lv2plug.in/ns/ext/time#> .
@prefix ui:   <http://lv2plug.in/ns/extensions/ui#> .
@prefix units: <http://lv2plug.in/ns/extensions/units#> .
@prefix urid: <http://lv2plug.in/ns/ext/urid#> .
@prefix work: <http://lv2plug.in/ns/ext/worker#> .

<{URI}>
\ta lv2:Plugin , lv2:MIDIPlugin ;
\tdoap:name "Clumsy" ;
\tdoap:license <{LICENSE}> ;
\trdfs:comment "A physics world plays an instrument: balls bounce among scale-degree bouncers and fall onto chord-tone keys. MIDI notes in the host's tempo and time." ;
\tlv2:minorVersion MINOR ;
\tlv2:microVersion MICRO ;
\tlv2:requiredFeature urid:map ;
\tlv2:optionalFeature lv2:hardRTCapable , work:schedule ;
\tlv2:extensionData work:interface ;
\tui:ui <{UI}> ;
\tlv2:port [
\t\ta lv2:InputPort , atom:AtomPort ;
\t\tatom:bufferType atom:Sequence ;
\t\tatom:supports time:Position , midi:MidiEvent , atom:Object ;
\t\tlv2:designation lv2:control ;
\t\tlv2:index 0 ;
\t\tlv2:symbol "control" ;
\t\tlv2:name "Control"
\t] , [
\t\ta lv2:OutputPort , atom:AtomPort ;
\t\tatom:bufferType atom:Sequence ;
\t\tatom:supports midi:MidiEvent ;
\t\tlv2:index 1 ;
\t\tlv2:symbol "midi_out" ;
\t\tlv2:name "MIDI out"
\t] , [
'''

# Port 13: what an open UI is told (ui.c says "on" on the control port; the plugin then writes
# a frame of the world about 30 times a second, at most 4 KB: CLUMSY_FRAME_BALLS balls of
# 16-bit x and y, within what every host passes).
NOTIFY = '''\t\ta lv2:OutputPort , atom:AtomPort ;
\t\tatom:bufferType atom:Sequence ;
\t\tatom:supports atom:Object ;
\t\trsz:minimumSize 16384 ;
\t\tlv2:index 13 ;
\t\tlv2:symbol "notify" ;
\t\tlv2:name "Notify"
'''

# The UI: an X11 window in the plugin's library, drawn at the host's idle calls.
VIEW = f'''<{UI}>
\ta ui:X11UI ;
\tui:binary <clumsy.so> ;
\tlv2:requiredFeature urid:map , ui:idleInterface ;
\tlv2:optionalFeature ui:parent , ui:resize ;
\tlv2:extensionData ui:idleInterface , ui:resize ;
\tui:portNotification [
\t\tui:plugin <{URI}> ;
\t\tlv2:symbol "notify" ;
\t\tui:notifyType atom:Object ;
\t\tui:protocol atom:eventTransfer
\t] .
'''

LIBRARY = None
DEFAULTS = {}


def literal(text):
    '''A Turtle string literal, quoted by the plugin library itself (Escape.turtle, per Unicode
    scalar): the one escaping Clumsy has for every language it writes.'''
    function = ctypes.CDLL(str(LIBRARY.resolve())).clumsy_turtle_string
    function.restype = ctypes.c_char_p
    return function(text.encode()).decode()


def control(index, symbol, name, comment, default, minimum, maximum, integer=False, points=None, own=True, unit=None, sentinel=None,
            sentinel_label=OWN):
    '''A control input port. `points` (names) make it an enumeration of 0, 1, …, with -1 the
    preset's own unless `own` is false; `sentinel` is the value meaning the preset's own of a
    port that is no enumeration (a labelled scale point, so a host's generic UI names it);
    `unit` is the symbol of its values' unit.'''
    DEFAULTS[symbol] = default
    lines = ['a lv2:InputPort , lv2:ControlPort', f'lv2:index {index}', f'lv2:symbol {literal(symbol)}', f'lv2:name {literal(name)}',
             f'rdfs:comment {literal(comment)}']
    if unit is not None:
        lines.append(f'units:unit [ units:symbol {literal(unit)} ; units:render {literal("%f " + unit)} ]')
    if points is not None:
        lines.append('lv2:portProperty lv2:integer , lv2:enumeration')
    elif integer:
        lines.append('lv2:portProperty lv2:integer')
    lines += [f'lv2:default {default}', f'lv2:minimum {minimum}', f'lv2:maximum {maximum}']
    if points is not None:
        labelled = ([(OWN, -1)] if own else []) + [(n, i) for i, n in enumerate(points)]
        lines.append('lv2:scalePoint ' + ' , '.join(f'[ rdfs:label {literal(n)} ; rdf:value {v} ]' for n, v in labelled))
    elif sentinel is not None:
        lines.append(f'lv2:scalePoint [ rdfs:label {literal(sentinel_label)} ; rdf:value {sentinel} ]')
    return ' ;\n'.join('\t\t' + line for line in lines) + '\n'


def choices(library, port):
    '''The choices of an enumerated port, from the plugin library itself.'''
    function = ctypes.CDLL(str(library.resolve())).clumsy_port_choices
    function.restype = ctypes.c_char_p
    text = function(port.encode())
    if not text:
        sys.exit(f'lv2bundle: {library} has no choices for the {port} port')
    return text.decode().split('\n')[:-1]


def controls(library, names):
    '''Ports 2…12: the preset, seed, gravity, speed, key, mode, quantize, swing and balls (a
    change of the preset, seed, key, mode, quantize, swing or balls rebuilds the session on the
    worker), and the bass's and keys' MIDI channels (live). Ranges from the settings table.'''
    tonics = [t.replace('b', '♭').replace('#', '♯') for t in choices(library, 'key')]
    modes, grids = choices(library, 'mode'), choices(library, 'quantize')
    ports = [
        control(2, 'preset', 'Preset', 'The bundled preset played (a change rebuilds the session on the worker)', 0, 0,
                len(names) - 1, points=names, own=False),
        control(3, 'seed', 'Seed', "Seed of every random choice; 0: the preset's own", 0, 0, 16777215, integer=True, sentinel=0),
        control(4, 'gravity', 'Gravity', "Gravity on the piano balls, m/s²; below 0: the preset's own", -1.0, -1.0, 100.0,
                unit='m/s²', sentinel=-1.0),
        control(5, 'speed', 'Speed', "The bass ball's speed, m/s; 0: the preset's own", 0.0, 0.0, 20.0, unit='m/s', sentinel=0.0),
        control(6, 'key', 'Key', "Tonic of the key (--key); -1: the preset's own", -1, -1, 11, points=tonics),
        control(7, 'mode', 'Mode', "Mode of the key (--mode); -1: the preset's own", -1, -1, len(modes) - 1, points=modes),
        control(8, 'quantize', 'Quantize', "Grid the notes sound on (--quantize); -1: the preset's own", -1, -1,
                len(grids) - 1, points=grids),
        control(9, 'swing', 'Swing', "Every second grid line delayed by this share of a step (--swing); below 0: the preset's own",
                -1.0, -1.0, 0.75, sentinel=-1.0),
        control(10, 'balls', 'Balls', "Piano balls (piano.count); -1: the preset's own", -1, -1, 1000, integer=True, sentinel=-1),
        control(11, 'bass_channel', 'Bass channel', "MIDI channel of the bass's notes; 0: the preset's own", 0, 0, 16, integer=True, sentinel=0),
        control(12, 'keys_channel', 'Keys channel', "MIDI channel of every key note; 0: the preset's own", 0, 0, 16, integer=True, sentinel=0),
    ]
    # Port 14: a click in the window sets it (ui.c), so a host saves and automates drops as it does any control.
    drop = control(14, 'drop', 'Drop at', 'A piano ball (the one longest without a key hit) dropped from the top of the piano area '
                   'at this place across it, 0 its left edge … 1000 its right, when the port moves (a click in the window sets it); '
                   '-1: none', -1, -1, 1000, integer=True, sentinel=-1, sentinel_label='none')
    return '\t] , [\n'.join(ports + [NOTIFY, drop] + outputs()) + '\t] .\n\n' + VIEW


def output(index, symbol, name, comment, maximum):
    '''A control output port (whole numbers): what plays, written by run() each block.'''
    lines = ['a lv2:OutputPort , lv2:ControlPort', f'lv2:index {index}', f'lv2:symbol {literal(symbol)}', f'lv2:name {literal(name)}',
             f'rdfs:comment {literal(comment)}', 'lv2:portProperty lv2:integer', 'lv2:default 0', 'lv2:minimum 0', f'lv2:maximum {maximum}']
    return ' ;\n'.join('\t\t' + line for line in lines) + '\n'


def outputs():
    '''Ports 15…17, after every older one (a host's saved session keeps its port indices): what plays.'''
    return [
        output(15, 'degree', 'Chord degree', 'The degree (1…7) of the chord playing', 7),
        output(16, 'bar', 'Bar', "The session's bar playing, 1-based, in the preset's meter", 1000000),
        output(17, 'section', 'Section', "The form's section playing: its place in the form's letters, 1-based; 0 without a form", 64),
    ]


def numbered(directory, table):
    '''The preset port's list, index = number: the table's names (a retired one plays
    default), then the presets the table lacks, numbered on in name order.'''
    names = sorted(p.stem for p in directory.glob('*.json') if not p.name.startswith('.'))
    if 'default' not in names:
        sys.exit(f'lv2bundle: no default.json in {directory}')
    rows = {}
    for line_number, line in enumerate(table.read_text().split('\n') if table.exists() else [], 1):
        words = line.split('#', 1)[0].split()
        if not words:
            continue
        if not (len(words) in (2, 3) and words[0].isdigit() and (len(words) == 2 or words[2] == 'retired')):
            sys.exit(f'lv2bundle: {table}:{line_number}: expected NUMBER NAME [retired]')
        number, name = int(words[0]), words[1]
        if number in rows or name in [n for n, _ in rows.values()]:
            sys.exit(f'lv2bundle: {table}:{line_number}: number {number} or preset {name} listed twice')
        if len(words) == 2 and name not in names:
            sys.exit(f'lv2bundle: {table}:{line_number}: {name} has no {name}.json in {directory}; '
                     'mark it retired and keep its number')
        rows[number] = (name, len(words) == 3)
    if sorted(rows) != list(range(len(rows))):
        sys.exit(f'lv2bundle: {table}: the numbers must run 0, 1, 2, … without a gap')
    listed = [name for name, _ in rows.values()]
    order = ['default' if retired else name for _, (name, retired) in sorted(rows.items())]
    for name in names:
        if name not in listed:
            print(f'lv2bundle: note: {name} takes preset number {len(order)}; add "{len(order)} {name}" to {table}',
                  file=sys.stderr)
            order.append(name)
    return order


def numbered_name(name, order):
    '''The preset's number, zero-padded to the widest (at least two digits), then its name:
    "00 default". Its label; its URI holds the same with a hyphen.'''
    width = max(2, len(str(len(order) - 1)))
    return f'{order.index(name):0{width}d} {name}'


def preset_uri(name, order):
    return f'{URI}:preset:{urllib.parse.quote(numbered_name(name, order).replace(" ", "-"), safe="-._~")}'


def lv2_presets(order):
    '''Each bundled preset as an LV2 preset (presets.ttl, and its lines for manifest.ttl): the
    `preset` port at its number, every other control at the preset's own (its default), so a
    host's preset menu plays the preset as written, but for the seed: loading a preset keeps the
    host's seed (0, the preset's own, unless the host set another). Labelled and named by number.'''
    out = ['@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .', '@prefix pset: <http://lv2plug.in/ns/ext/presets#> .',
           '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .', '']
    manifest = []
    for name in dict.fromkeys(order):
        ports = [('preset', order.index(name))] + [(s, v) for s, v in DEFAULTS.items() if s not in ('preset', 'seed')]
        values = ' , '.join(f'[ lv2:symbol {literal(s)} ; pset:value {float(v)} ]' for s, v in ports)
        out.append(f'<{preset_uri(name, order)}>\n\ta pset:Preset ;\n\tlv2:appliesTo <{URI}> ;\n'
                   f'\trdfs:label {literal(numbered_name(name, order))} ;\n'
                   f'\tlv2:port {values} .\n')
        manifest.append(f'\n<{preset_uri(name, order)}>\n\ta pset:Preset ;\n\tlv2:appliesTo <{URI}> ;\n\trdfs:seeAlso <presets.ttl> .\n')
    return '\n'.join(out), ''.join(manifest)


def version():
    '''lv2:minorVersion and lv2:microVersion: MINOR and PATCH of VERSION (MAJOR.MINOR.PATCH).'''
    match = re.fullmatch(r'(\d+)\.(\d+)\.(\d+)\n', (ROOT / 'VERSION').read_text())
    if not match:
        sys.exit('lv2bundle: VERSION must hold MAJOR.MINOR.PATCH and a newline')
    return match.group(2), match.group(3)


def main():
    global LIBRARY
    if len(sys.argv) not in (4, 5):
        sys.exit('usage: lv2bundle.py LIBRARY PRESETS_DIR BUNDLE_DIR [NUMBERS]')
    library, presets, bundle = map(pathlib.Path, sys.argv[1:4])
    table = pathlib.Path(sys.argv[4]) if len(sys.argv) > 4 else presets / 'lv2-numbers.txt'
    LIBRARY = library
    order = numbered(presets, table)
    minor, micro = version()
    shutil.rmtree(bundle, ignore_errors=True)
    (bundle / 'presets').mkdir(parents=True)
    shutil.copyfile(library, bundle / 'clumsy.so')
    (bundle / 'clumsy.so').chmod(0o755)
    for name in dict.fromkeys(order):
        shutil.copyfile(presets / f'{name}.json', bundle / 'presets' / f'{name}.json')
    (bundle / 'presets.txt').write_text(''.join(n + '\n' for n in order))
    plugin = HEAD.replace('MINOR', minor).replace('MICRO', micro) + controls(library, order)
    (bundle / 'clumsy.ttl').write_text(plugin)
    turtle, manifest = lv2_presets(order)
    (bundle / 'presets.ttl').write_text(turtle)
    (bundle / 'manifest.ttl').write_text(MANIFEST + manifest)


main()
