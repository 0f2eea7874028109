#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Measures the form of a MIDI file with mido, independently of `clumsy analyze`.

A bar's content is the set of its pitched note-ons as (sixteenth of the bar, pitch), drums
(MIDI channel 10) aside; bars come from the file's first time signature (4/4 without one) and
ticks per quarter. A bar recurs when it and an earlier bar share at least 80 % of the note-ons
of each (of the fuller of the two; a bar without notes never recurs); a four-bar span recurs when an earlier span matches it bar for bar.

  python3 Tools/form_recurrence.py song.mid                   fractions of bars and spans that recur
  python3 Tools/form_recurrence.py song.mid --section 8 4     also: of sections 8 bars long, how many
                                                              bars of section 4 (from 0) differ from
                                                              section 0 (its first time)
Prints one JSON object.
"""
import json
import sys

import mido


def bars_of(path):
    song = mido.MidiFile(path)
    quarter = song.ticks_per_beat
    numerator, denominator = 4, 4
    onsets = []
    found = False
    for track in song.tracks:
        tick = 0
        for message in track:
            tick += message.time
            if message.type == "time_signature" and not found:
                numerator, denominator, found = message.numerator, message.denominator, True
            if message.type == "note_on" and message.velocity > 0 and message.channel != 9:
                onsets.append((tick, message.note))
    bar_ticks = quarter * 4 * numerator // denominator
    sixteenth = max(1, quarter // 4)
    count = max((tick // bar_ticks for tick, _ in onsets), default=-1) + 1
    bars = [set() for _ in range(count)]
    for tick, note in onsets:
        bar = tick // bar_ticks
        bars[bar].add(((tick - bar * bar_ticks) // sixteenth, note))
    return bars


def same(a, b):
    return bool(a) and len(a & b) >= 0.8 * max(len(a), len(b)) - 1e-9


def measure(bars):
    matches = [{j for j in range(i) if same(bars[i], bars[j])} for i in range(len(bars))]
    recurring = sum(1 for m in matches if m)
    spans = max(0, len(bars) - 3)
    recurring_spans = sum(
        1 for s in range(spans)
        if any(all(j + k in matches[s + k] for k in range(1, 4)) for j in matches[s]))
    return {"bars": len(bars), "recurringBars": recurring, "barFraction": recurring / max(1, len(bars)),
            "spans": spans, "recurringSpans": recurring_spans, "spanFraction": recurring_spans / max(1, spans)}


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    bars = bars_of(argv[1])
    result = measure(bars)
    if len(argv) == 5 and argv[2] == "--section":
        length, section = int(argv[3]), int(argv[4])
        first, again = bars[0:length], bars[section * length:(section + 1) * length]
        differing = sum(1 for a, b in zip(again, first) if not same(a, b))
        result.update({"sectionBars": length, "section": section, "differingBars": differing,
                       "differingFraction": differing / max(1, len(again))})
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
