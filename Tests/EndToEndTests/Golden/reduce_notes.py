#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Reduces a session's MIDI file and event log to its notes, for the golden
`notes-*.txt` files that pin what `original` (the old `default`) plays (NotesGoldenTests).

    python3 reduce_notes.py session.mid events.jsonl > notes.txt

Reads the MIDI file with mido (not with Clumsy's own reader). Output, one note per line:
  "m <tick> <channel 1-16> <note> <velocity>"   every note-on and note-off (velocity 0) of the
                                                MIDI file, tracks merged by (tick, channel),
                                                file order kept within a track;
  "e <t> <voice> <note> <velocity>"             every note of the event log in file order
                                                (t = sounding time, 6 decimals; voice bass/keys).
Controllers, programs and meta events are left out: only the notes are pinned.
Requires: mido.
"""
import json
import sys

import mido


def midi_lines(path):
    rows = []
    for number, track in enumerate(mido.MidiFile(path).tracks):
        tick = 0
        for index, message in enumerate(track):
            tick += message.time
            if message.type in ("note_on", "note_off"):
                velocity = message.velocity if message.type == "note_on" else 0
                rows.append((tick, message.channel + 1, number, index, message.note, velocity))
    rows.sort()
    return [f"m {r[0]} {r[1]} {r[4]} {r[5]}" for r in rows]


def event_lines(path):
    lines = []
    with open(path) as log:
        for text in log:
            event = json.loads(text)
            voice = event.get("voice") or {"bass": "bass", "key": "keys"}.get(event["kind"])
            if voice is None or "note" not in event:
                continue
            lines.append(f"e {event['t']:.6f} {voice} {event['note']} {event['velocity']}")
    return lines


if __name__ == "__main__":
    sys.stdout.write("\n".join(midi_lines(sys.argv[1]) + event_lines(sys.argv[2])) + "\n")
