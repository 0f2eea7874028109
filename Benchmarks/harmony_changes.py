# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Chord changes of a 300 s session: the share that fall a fifth, the tonic's share of the time,
the bouncer hits per degree, and the steps around the `fifths` ring.
Usage (from the package root, after `swift build`): python3 Benchmarks/harmony_changes.py <preset> [flags...]"""
import json, sys, subprocess
# usage: measure.py preset.json [extra flags...] -> falling-fifth share of chord changes, tonic time share, degree hits
preset = sys.argv[1]; extra = sys.argv[2:]
import os; out = '/tmp/harmony/m.jsonl'; os.path.exists(out) and os.remove(out)
subprocess.run(['.build/debug/clumsy', 'run', preset, '--duration', '300', '--events', out] + extra, check=True, capture_output=True)
bass = [json.loads(l) for l in open(out) if '"voice":"bass"' in l and '"kind":"bass"' in l]
degs = [(b['t'], b['degree']) for b in bass]
changes = [(a[1], b[1]) for a, b in zip(degs, degs[1:]) if a[1] != b[1]]
fall = sum(1 for a, b in changes if (b - a) % 7 == 3)
time = {}
for (t0, d), (t1, _) in zip(degs, degs[1:] + [(300.0, 0)]):
    time[d] = time.get(d, 0) + t1 - t0
hits = {}
for _, d in degs: hits[d] = hits.get(d, 0) + 1
print(f"changes {len(changes)} falling-fifth {fall/ max(1,len(changes)):.3f} tonic-time {time.get(1,0)/300:.3f} hits {dict(sorted(hits.items()))}")
order = [1, 4, 7, 3, 6, 2, 5]
pos = {d: i for i, d in enumerate(order)}
steps = {}
for a, b in changes:
    s = (pos[b] - pos[a]) % 7
    steps[s] = steps.get(s, 0) + 1
print("ring steps (1 = clockwise neighbour):", dict(sorted(steps.items())))
