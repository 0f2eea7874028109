# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Writes the MIDI fixtures of the analysis tests into the directory given as argument.

Written with mido (another program's MIDI writer), except format0.mid, whose bytes are laid
out by hand to use running status and note-on velocity 0 as note off.

chords.mid     format 1, 480 ticks per quarter, tempo 120 then 90 bpm from tick 3840; track 1
               "Piano" plays two beats each of: C, F/A, G7/F, C/G, Am7, C/D, then C with a
               passing F (an eighth note) in the melody, then G7, C. Track 2 "Drums" plays
               channel 10 hits that must not count in the harmony.
eflat.mid      format 1, E-flat major: Eb, Ab/C, Bb7, Eb (two beats each).
format0.mid    format 0, 96 ticks per quarter, running status: Dm7, G7, Cmaj7, C (one beat each).
"""
import os
import sys

import mido


def chord_track(name, chords, ticks, channel=0, velocity=80):
    """A track playing each chord (a list of MIDI notes, optional passing tones) for `ticks` ticks."""
    track = mido.MidiTrack()
    track.append(mido.MetaMessage("track_name", name=name, time=0))
    events = []  # (tick, order, message)
    tick = 0
    for chord in chords:
        notes, extra = (chord, []) if isinstance(chord, list) else chord
        for note in notes:
            events.append((tick, 1, mido.Message("note_on", channel=channel, note=note, velocity=velocity)))
            events.append((tick + ticks, 0, mido.Message("note_off", channel=channel, note=note, velocity=0)))
        for note, start, length in extra:
            events.append((tick + start, 1, mido.Message("note_on", channel=channel, note=note, velocity=velocity + 20)))
            events.append((tick + start + length, 0, mido.Message("note_off", channel=channel, note=note, velocity=0)))
        tick += ticks
    last = 0
    for when, _, message in sorted(events, key=lambda e: (e[0], e[1])):
        track.append(message.copy(time=when - last))
        last = when
    return track


def chords_file(path):
    mid = mido.MidiFile(type=1, ticks_per_beat=480)
    conductor = mido.MidiTrack()
    conductor.append(mido.MetaMessage("set_tempo", tempo=500000, time=0))
    conductor.append(mido.MetaMessage("set_tempo", tempo=666667, time=3840))
    mid.tracks.append(conductor)
    C, F, G = [48, 64, 67, 72], [45, 53, 60], [41, 55, 59, 62]
    chords = [
        C,                      # C
        F,                      # F/A
        G,                      # G7/F
        [43, 60, 64],           # C/G
        [45, 60, 64, 67],       # Am7
        [38, 60, 64, 67],       # C/D
        ([48, 55, 64], [(72, 0, 480), (77, 480, 240), (76, 720, 240)]),  # C, melody C5 then F5 passing (an eighth) to E5
        [43, 59, 62, 65],       # G7
        [48, 60, 64, 67],       # C
    ]
    mid.tracks.append(chord_track("Piano", chords, 960))
    drums = mido.MidiTrack()
    drums.append(mido.MetaMessage("track_name", name="Drums", time=0))
    for i in range(16):
        drums.append(mido.Message("note_on", channel=9, note=[36, 42, 38, 42][i % 4], velocity=100, time=0 if i == 0 else 360))
        drums.append(mido.Message("note_on", channel=9, note=[36, 42, 38, 42][i % 4], velocity=0, time=120))
    mid.tracks.append(drums)
    mid.save(path)


def eflat_file(path):
    mid = mido.MidiFile(type=1, ticks_per_beat=480)
    chords = [[51, 58, 63, 67], [48, 56, 63, 68], [46, 62, 65, 68], [51, 55, 58, 63]]
    mid.tracks.append(chord_track("Keys", chords, 960))
    mid.save(path)


def vlq(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.insert(0, (value & 0x7F) | 0x80)
        value >>= 7
    return bytes(out)


def format0_file(path):
    body = bytearray()
    body += vlq(0) + bytes([0xFF, 0x51, 0x03]) + (600000).to_bytes(3, "big")
    chords = [[50, 53, 57, 60], [43, 53, 59, 62], [48, 52, 55, 59], [48, 55, 64, 72]]
    first = True
    for notes in chords:
        for i, note in enumerate(notes):
            # One status byte per chord, then running status.
            body += vlq(0) + (bytes([0x90]) if i == 0 else b"") + bytes([note, 90])
        for i, note in enumerate(notes):
            body += vlq(96 if i == 0 else 0) + bytes([note, 0])  # running status, velocity 0 = off
    body += vlq(0) + bytes([0xFF, 0x2F, 0x00])
    data = b"MThd" + (6).to_bytes(4, "big") + (0).to_bytes(2, "big") + (1).to_bytes(2, "big") + (96).to_bytes(2, "big")
    data += b"MTrk" + len(body).to_bytes(4, "big") + bytes(body)
    with open(path, "wb") as f:
        f.write(data)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    chords_file(os.path.join(out, "chords.mid"))
    eflat_file(os.path.join(out, "eflat.mid"))
    format0_file(os.path.join(out, "format0.mid"))
    with open(os.path.join(out, "chords.mid"), "rb") as f:
        data = f.read()
    with open(os.path.join(out, "truncated.mid"), "wb") as f:
        f.write(data[: len(data) * 2 // 3])
    with open(os.path.join(out, "notmidi.mid"), "wb") as f:
        f.write(b"This is not a MIDI file.\n")


if __name__ == "__main__":
    main()
