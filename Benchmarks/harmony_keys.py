# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Key of a session of each given preset by `clumsy analyze` and by music21's finders.
Usage (package root, after `swift build`): python3 Benchmarks/harmony_keys.py <seconds> <preset>...
"""
import json, os, subprocess, sys, tempfile

import music21
clumsy = os.environ.get('CLUMSY', '.build/debug/clumsy')
for preset in sys.argv[2:]:
    midi = os.path.join(tempfile.gettempdir(), 'harmony_keys.mid')
    if os.path.exists(midi): os.remove(midi)
    subprocess.run([clumsy, 'run', preset, '--duration', sys.argv[1], '--midi', midi, '--quiet'], check=True)
    a = json.loads(subprocess.run([clumsy, 'analyze', '--json', midi], capture_output=True, text=True, check=True).stdout)
    s = music21.converter.parse(midi)
    ks = s.analyze('key.krumhanslschmuckler'); ae = s.analyze('key')
    print(preset, '| clumsy:', a.get('key'), '| m21 KS:', ks.tonic.name, ks.mode, round(ks.correlationCoefficient, 3), '| m21 AE:', ae.tonic.name, ae.mode)
