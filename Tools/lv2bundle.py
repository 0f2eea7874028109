#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Assembles the LV2 bundle clumsy.lv2: the plugin's shared library, its Turtle files and the
bundled presets (read by the plugin when it is activated, never in run()).

  python3 Tools/lv2bundle.py LIBRARY PRESETS_DIR BUNDLE_DIR

The `preset` port is an enumeration of the presets in the order `clumsy presets` lists them
(default first, then by name); presets.txt holds the same list for the plugin to read. The
key, mode and quantize ports' scale points are the plugin's own lists, asked of the library
(clumsy_port_choices), so the Turtle and the engine cannot disagree.
"""
import ctypes, pathlib, shutil, sys

URI = 'urn:clumsy:lv2'

MANIFEST = f'''@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<{URI}>
\ta lv2:Plugin ;
\tlv2:binary <clumsy.so> ;
\trdfs:seeAlso <clumsy.ttl> .
'''

HEAD = f'''@prefix atom: <http://lv2plug.in/ns/ext/atom#> .
@prefix doap: <http://usefulinc.com/ns/doap#> .
@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .
@prefix midi: <http://lv2plug.in/ns/ext/midi#> .
@prefix rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix time: <http://lv2plug.in/ns/ext/time#> .
@prefix units: <http://lv2plug.in/ns/extensions/units#> .
@prefix urid: <http://lv2plug.in/ns/ext/urid#> .
@prefix work: <http://lv2plug.in/ns/ext/worker#> .

<{URI}>
\ta lv2:Plugin , lv2:MIDIPlugin ;
\tdoap:name "Clumsy" ;
\trdfs:comment "A physics world plays an instrument: balls bounce among scale-degree bouncers and fall onto chord-tone keys. MIDI notes in the host's tempo and time." ;
\tlv2:minorVersion 1 ;
\tlv2:microVersion 0 ;
\tlv2:requiredFeature urid:map ;
\tlv2:optionalFeature lv2:hardRTCapable , work:schedule ;
\tlv2:extensionData work:interface ;
\tlv2:port [
\t\ta lv2:InputPort , atom:AtomPort ;
\t\tatom:bufferType atom:Sequence ;
\t\tatom:supports time:Position , midi:MidiEvent ;
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

LIBRARY = None


def literal(text):
    '''A Turtle string literal, quoted by the plugin library itself (Escape.turtle, per Unicode
    scalar): the one escaping Clumsy has for every language it writes.'''
    function = ctypes.CDLL(str(LIBRARY.resolve())).clumsy_turtle_string
    function.restype = ctypes.c_char_p
    return function(text.encode()).decode()


def control(index, symbol, name, comment, default, minimum, maximum, integer=False, points=None, own=True, unit=None):
    '''A control input port. `points` (names) make it an enumeration of 0, 1, …, with -1 the
    preset's own unless `own` is false; `unit` is the symbol of its values' unit.'''
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
        labelled = ([("preset's own", -1)] if own else []) + [(n, i) for i, n in enumerate(points)]
        lines.append('lv2:scalePoint ' + ' , '.join(f'[ rdfs:label {literal(n)} ; rdf:value {v} ]' for n, v in labelled))
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
        control(3, 'seed', 'Seed', "Seed of every random choice; 0: the preset's own", 0, 0, 16777215, integer=True),
        control(4, 'gravity', 'Gravity', "Gravity on the piano balls, m/s²; below 0: the preset's own", -1.0, -1.0, 100.0,
                unit='m/s²'),
        control(5, 'speed', 'Speed', "The bass ball's speed, m/s; 0: the preset's own", 0.0, 0.0, 20.0, unit='m/s'),
        control(6, 'key', 'Key', "Tonic of the key (--key); -1: the preset's own", -1, -1, 11, points=tonics),
        control(7, 'mode', 'Mode', "Mode of the key (--mode); -1: the preset's own", -1, -1, len(modes) - 1, points=modes),
        control(8, 'quantize', 'Quantize', "Grid the notes sound on (--quantize); -1: the preset's own", -1, -1,
                len(grids) - 1, points=grids),
        control(9, 'swing', 'Swing', "Every second grid line delayed by this share of a step (--swing); below 0: the preset's own",
                -1.0, -1.0, 0.75),
        control(10, 'balls', 'Balls', "Piano balls (piano.count); -1: the preset's own", -1, -1, 1000, integer=True),
        control(11, 'bass_channel', 'Bass channel', "MIDI channel of the bass's notes; 0: the preset's own", 0, 0, 16, integer=True),
        control(12, 'keys_channel', 'Keys channel', "MIDI channel of every key note; 0: the preset's own", 0, 0, 16, integer=True),
    ]
    return '\t] , [\n'.join(ports) + '\t] .\n'


def preset_names(directory):
    names = sorted(p.stem for p in directory.glob('*.json') if not p.name.startswith('.'))
    return (['default'] if 'default' in names else []) + [n for n in names if n != 'default']


def main():
    global LIBRARY
    library, presets, bundle = map(pathlib.Path, sys.argv[1:4])
    LIBRARY = library
    names = preset_names(presets)
    if not names:
        sys.exit(f'lv2bundle: no presets in {presets}')
    shutil.rmtree(bundle, ignore_errors=True)
    (bundle / 'presets').mkdir(parents=True)
    shutil.copyfile(library, bundle / 'clumsy.so')
    (bundle / 'clumsy.so').chmod(0o755)
    for name in names:
        shutil.copyfile(presets / f'{name}.json', bundle / 'presets' / f'{name}.json')
    (bundle / 'presets.txt').write_text(''.join(n + '\n' for n in names))
    (bundle / 'manifest.ttl').write_text(MANIFEST)
    (bundle / 'clumsy.ttl').write_text(HEAD + controls(library, names))


main()
