#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Builds small.mid, the golden file for MIDIFileWriter, from hand-written
bytes (independent of the Swift encoder), then checks with mido that it
reads as the intended score. Run from Tests/MIDIFileTests: python3 make_small.py
Requires: pip install mido
"""
import mido

def vlq(n):
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.insert(0, (n & 0x7F) | 0x80)
        n >>= 7
    return bytes(out)

def chunk(tag, body):
    return tag + len(body).to_bytes(4, "big") + body

# Track 0: conductor. Hand-written event bytes (delta time first).
track0 = bytes.fromhex(
    "00 FF 51 03 07 A1 20"            # tick 0: tempo 500000 us/quarter (120 bpm)
    "00 FF 58 04 04 02 18 08"         # tick 0: time signature 4/4, 24 clocks, 8 32nds
) + b"\x00\xFF\x01\x0D" + b"Clumsy golden" + bytes.fromhex(  # tick 0: text
    "00 FF 2F 00"                     # end of track at tick 0
)

# Track 1: Bass on channel 0.
track1 = b"\x00\xFF\x03\x04Bass" + bytes.fromhex(
    "00 C0 21"                        # tick 0: program change ch0 -> 33
    "00 B0 07 64"                     # tick 0: CC7 (volume) = 100
    "00 90 24 64"                     # tick 0: note on C2 (36) vel 100
    "87 40 80 24 00"                  # tick 960: note off 36 vel 0
    "00 90 2B 5A"                     # tick 960: note on G2 (43) vel 90
    "87 40 80 2B 40"                  # tick 1920: note off 43 vel 64
    "00 FF 2F 00"                     # tick 1920: end of track
)

# Track 2: Keys on channel 1.
track2 = b"\x00\xFF\x03\x04Keys" + bytes.fromhex(
    "00 C1 04"                        # tick 0: program change ch1 -> 4
    "00 B1 40 7F"                     # tick 0: CC64 (sustain) = 127
    "83 60 91 3C 50"                  # tick 480: note on 60 vel 80
    "00 91 40 50"                     # tick 480: note on 64 vel 80
    "00 91 43 50"                     # tick 480: note on 67 vel 80
    "87 40 E1 64 40"                  # tick 1440: pitch bend ch1 value 8292
    "87 40 81 3C 00"                  # tick 2400: note off 60
    "00 81 40 00"                     # tick 2400: note off 64
    "00 81 43 00"                     # tick 2400: note off 67
    "00 B1 40 00"                     # tick 2400: CC64 = 0
    "00 FF 2F 00"                     # tick 2400: end of track
)

header = chunk(b"MThd", bytes.fromhex("0001 0003 03C0"))  # format 1, 3 tracks, 960 tpq
data = header + chunk(b"MTrk", track0) + chunk(b"MTrk", track1) + chunk(b"MTrk", track2)
assert vlq(960) == bytes.fromhex("8740") and vlq(480) == bytes.fromhex("8360")

with open("Golden/small.mid", "wb") as f:
    f.write(data)

# Independent check: mido reads what we meant.
mid = mido.MidiFile("Golden/small.mid")
assert mid.type == 1 and mid.ticks_per_beat == 960 and len(mid.tracks) == 3

def absolute(track):
    t, out = 0, []
    for msg in track:
        t += msg.time
        out.append((t, msg.copy(time=0)))
    return out

expected = [
    [(0, mido.MetaMessage("set_tempo", tempo=500000)),
     (0, mido.MetaMessage("time_signature", numerator=4, denominator=4, clocks_per_click=24, notated_32nd_notes_per_beat=8)),
     (0, mido.MetaMessage("text", text="Clumsy golden")),
     (0, mido.MetaMessage("end_of_track"))],
    [(0, mido.MetaMessage("track_name", name="Bass")),
     (0, mido.Message("program_change", channel=0, program=33)),
     (0, mido.Message("control_change", channel=0, control=7, value=100)),
     (0, mido.Message("note_on", channel=0, note=36, velocity=100)),
     (960, mido.Message("note_off", channel=0, note=36, velocity=0)),
     (960, mido.Message("note_on", channel=0, note=43, velocity=90)),
     (1920, mido.Message("note_off", channel=0, note=43, velocity=64)),
     (1920, mido.MetaMessage("end_of_track"))],
    [(0, mido.MetaMessage("track_name", name="Keys")),
     (0, mido.Message("program_change", channel=1, program=4)),
     (0, mido.Message("control_change", channel=1, control=64, value=127)),
     (480, mido.Message("note_on", channel=1, note=60, velocity=80)),
     (480, mido.Message("note_on", channel=1, note=64, velocity=80)),
     (480, mido.Message("note_on", channel=1, note=67, velocity=80)),
     (1440, mido.Message("pitchwheel", channel=1, pitch=8292 - 8192)),
     (2400, mido.Message("note_off", channel=1, note=60, velocity=0)),
     (2400, mido.Message("note_off", channel=1, note=64, velocity=0)),
     (2400, mido.Message("note_off", channel=1, note=67, velocity=0)),
     (2400, mido.Message("control_change", channel=1, control=64, value=0)),
     (2400, mido.MetaMessage("end_of_track"))],
]
for index, (track, want) in enumerate(zip(mid.tracks, expected)):
    got = absolute(track)
    assert got == want, f"track {index}:\n{got}\n!=\n{want}"
print(f"small.mid: {len(data)} bytes, verified with mido")
