#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Compares two directories of MIDI files of the same names with mido: every event (track,
tick, message) must be the same apart from markers (FF 06), which the second may add, and the
End of Track's tick (it follows a track's last event, a marker included). Used to check that the
chord markers (issue 20) changed nothing else:

    python3 Tools/compare_midi_events.py before/ after/
"""
import mido, sys, os
ref, new = sys.argv[1], sys.argv[2]
bad = 0; markers = 0
for name in sorted(os.listdir(ref)):
    a, b = mido.MidiFile(os.path.join(ref, name)), mido.MidiFile(os.path.join(new, name))
    def events(f, drop_markers):
        out = []
        for i, t in enumerate(f.tracks):
            tick = 0
            for m in t:
                tick += m.time
                if drop_markers and m.type == 'marker': continue
                out.append((i, None if m.type == 'end_of_track' else tick, m.copy(time=0)))
        return out
    ea, eb = events(a, False), events(b, True)
    n = sum(1 for t in b.tracks for m in t if m.type == 'marker')
    markers += n
    ok = ea == eb and a.ticks_per_beat == b.ticks_per_beat and a.type == b.type
    if not ok: bad += 1
    print(name, "same apart from", n, "markers" if ok else "DIFFERENT", len(ea), "other events")
print(bad, "files differ;", markers, "markers in all")
sys.exit(1 if bad else 0)
