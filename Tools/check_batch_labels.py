#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Checks the labels of `clumsy batch` items with readers Clumsy did not write.

For each item directory given: the JAMS file must validate with the `jams` package (and hold
the chord, key_mode, beat, tempo and note_midi namespaces); the chords of `<item>.chords.lab`
are scored by `mir_eval` (root and sevenths, weighted by duration) against two readings of the
item's MIDI file by `mido`:
- the chord markers of track 0 (FF 06, the chord symbols in ASCII: "Bbmaj7", "Bm7b5"), turned
  into Harte syntax here;
- the bass line alone: a chord root at each bass note whose pitch class differs from the one
  before (an approach note, a step from the next bass note and at most half a beat before it,
  is passed over; of notes at one tick the last counts).
Prints one JSON object: {"items", "jams_valid", "bass_root", "marker_root", "marker_sevenths"}.
Exits non-zero on a problem (printed).

usage: check_batch_labels.py ITEM_DIR...
"""
import json
import os
import sys

import jams
import mido
import mir_eval
import numpy as np

NAMES = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]
# Chord-symbol suffixes of the markers (ASCII since 0.2, as the terminal prints them before) and their intervals.
SUFFIXES = {"dim": (0, 3, 6), "m7b5": (0, 3, 6, 10), "dim7": (0, 3, 6, 9), "": (0, 4, 7), "m": (0, 3, 7), "°": (0, 3, 6), "+": (0, 4, 8), "sus2": (0, 2, 7), "sus4": (0, 5, 7),
            "maj7": (0, 4, 7, 11), "m7": (0, 3, 7, 10), "7": (0, 4, 7, 10), "ø7": (0, 3, 6, 10), "°7": (0, 3, 6, 9),
            "mMaj7": (0, 3, 7, 11), "+maj7": (0, 4, 8, 11), "6": (0, 4, 7, 9), "m6": (0, 3, 7, 9),
            "maj9": (0, 4, 7, 11, 14), "m9": (0, 3, 7, 10, 14), "9": (0, 4, 7, 10, 14)}
DEGREES = ["1", "b2", "2", "b3", "3", "4", "b5", "5", "#5", "6", "b7", "7", "8", "b9", "9", "#9", "10", "11", "#11"]
QUALITIES = {(0, 4, 7, 11): "maj7", (0, 3, 7, 10): "min7", (0, 4, 7, 10): "7", (0, 3, 6, 10): "hdim7",
             (0, 3, 6, 9): "dim7", (0, 3, 7, 11): "minmaj7", (0, 4, 7): "maj", (0, 3, 7): "min",
             (0, 3, 6): "dim", (0, 4, 8): "aug"}


def notes(path):
    """(start seconds, track name, MIDI note) of every note-on, by mido, through the file's tempo map."""
    midi = mido.MidiFile(path)
    found, tempi = [], []
    for track in midi.tracks:
        name = next((m.name for m in track if m.type == "track_name"), "")
        ticks = 0
        for message in track:
            ticks += message.time
            if message.type == "set_tempo":
                tempi.append((ticks, message.tempo))
            if message.type == "note_on" and message.velocity > 0:
                found.append((ticks, name.lower(), message.note))
    tempi.sort()

    def seconds(tick):
        total, last, tempo = 0.0, 0, 500000
        for at, value in tempi:
            if at >= tick:
                break
            total += mido.tick2second(at - last, midi.ticks_per_beat, tempo)
            last, tempo = at, value
        return total + mido.tick2second(tick - last, midi.ticks_per_beat, tempo)

    beat = mido.tempo2bpm(tempi[0][1]) if tempi else 120
    found.sort(key=lambda found: found[0])  # stable: notes of one tick keep the file's order
    return [(seconds(t), name, note) for t, name, note in found], 60.0 / beat


def chords_from_midi(path, end):
    """Intervals and roots read from the bass notes alone."""
    played, beat = notes(path)
    bass = [(t, n) for t, v, n in played if v == "bass"]
    starts, roots = [], []
    for index, (time, note) in enumerate(bass):
        # An approach note: a step below or above the next bass note, at most half a beat before it.
        following = bass[index + 1] if index + 1 < len(bass) else None
        if following and following[0] - time <= beat / 2 + 1e-6 and abs(following[1] - note) in (1, 2):
            continue
        if not roots or note % 12 != roots[-1]:
            starts.append(time)
            roots.append(note % 12)
    labels = [NAMES[root] for root in roots]
    ends = starts[1:] + [end]
    return np.array([[s, e] for s, e in zip(starts, ends)]), labels


def harte_of_marker(text):
    """A marker's chord symbol ("F#m7", "Bbm7b5", "F♯m7", "B(0,3,10)") in Harte syntax, written here independently."""
    root, rest = text[0], text[1:]
    if rest[:1] in ("♯", "#", "♭", "b"):  # no suffix starts with b: after the root it is a flat
        root += "#" if rest[0] in "♯#" else "b"
        rest = rest[1:]
    if rest.startswith("("):
        intervals = tuple(int(x) for x in rest.strip("()").split(","))
    else:
        intervals = SUFFIXES[rest]
    quality = QUALITIES.get(intervals)
    if quality:
        return root + ":" + quality
    return root + ":(" + ",".join(DEGREES[i] for i in sorted(intervals) if i > 0) + ")"


def chords_from_markers(path, end):
    """The chord markers of track 0 as intervals and Harte labels (mido's reading)."""
    midi = mido.MidiFile(path, charset="utf-8")
    ticks, tempo, seconds, marks = 0, 500000, 0.0, []
    for message in midi.tracks[0]:
        seconds += mido.tick2second(message.time, midi.ticks_per_beat, tempo)
        if message.type == "set_tempo":
            tempo = message.tempo
        if message.type == "marker":
            marks.append((seconds, harte_of_marker(message.text)))
    starts = [t for t, _ in marks]
    return np.array([[s, e] for s, e in zip(starts, starts[1:] + [end])]), [label for _, label in marks]


def score(reference, reference_labels, estimate, estimate_labels, end):
    """Durations and mir_eval's root and sevenths comparisons over the merged segments."""
    estimate, estimate_labels = mir_eval.util.adjust_intervals(estimate, estimate_labels, 0.0, end, "N", "N")
    intervals, ref, est = mir_eval.util.merge_labeled_intervals(reference, reference_labels, estimate, estimate_labels)
    durations = mir_eval.util.intervals_to_durations(intervals)
    return durations, mir_eval.chord.root(ref, est), mir_eval.chord.sevenths(ref, est), est


def check(directory):
    item = os.path.basename(os.path.normpath(directory))
    base = os.path.join(directory, item)
    document = jams.load(base + ".jams", validate=True)
    namespaces = {a.namespace for a in document.annotations}
    missing = {"chord", "key_mode", "beat", "tempo", "note_midi"} - namespaces
    if missing:
        raise SystemExit(f"{item}: JAMS lacks {sorted(missing)}")
    reference, reference_labels = mir_eval.io.load_labeled_intervals(base + ".chords.lab")
    end = float(reference[-1][1])
    durations, root, _, _ = score(reference, reference_labels, *chords_from_midi(base + ".mid", end), end)
    marked, marked_root, marked_sevenths, _ = score(reference, reference_labels, *chords_from_markers(base + ".mid", end), end)
    return {"duration": float(np.sum(durations)), "bass_root": float(np.sum(durations * (root > 0))),
            "marker_root": float(np.sum(marked * (marked_root > 0))),
            "marker_sevenths": float(np.sum(marked * (marked_sevenths > 0))),
            "marker_sevenths_scored": float(np.sum(marked * (marked_sevenths >= 0)))}


def main(directories):
    totals = {}
    for directory in directories:
        for key, value in check(directory).items():
            totals[key] = totals.get(key, 0.0) + value
    print(json.dumps({"items": len(directories), "jams_valid": len(directories),
                      "bass_root": totals["bass_root"] / totals["duration"],
                      "marker_root": totals["marker_root"] / totals["duration"],
                      "marker_sevenths": totals["marker_sevenths"] / totals["marker_sevenths_scored"]}))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(sys.argv[1:])
