#!/usr/bin/env python3
"""Checks the labels of `clumsy batch` items with readers Clumsy did not write.

For each item directory given: the JAMS file must validate with the `jams` package (and hold
the chord, key_mode, beat, tempo and note_midi namespaces); the chords of `<item>.chords.lab`
are scored by `mir_eval` against chords read from the item's MIDI file by `mido`: a chord starts
at each bass note whose pitch class differs from the one before (the bass plays the root at
every chord change; an approach note, a step from the next bass note and at most half a beat
before it, is passed over), its quality is what the keys' pitch classes over it match. Prints one JSON
object: {"items": n, "root": weighted root score, "sevenths": weighted sevenths score over the
spans whose quality the keys show, "jams_valid": n}. Exit 1 on a problem (printed).

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
    """Intervals and Harte labels read from the MIDI file alone."""
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
    labels = []
    for index, (start, root) in enumerate(zip(starts, roots)):
        stop = starts[index + 1] if index + 1 < len(starts) else end
        classes = {(n - root) % 12 for t, v, n in played if v == "keys" and start <= t < stop} | {0}
        quality = QUALITIES.get(tuple(sorted(classes)))
        labels.append(NAMES[root] + (":" + quality if quality else ""))
    ends = starts[1:] + [end]
    return np.array([[s, e] for s, e in zip(starts, ends)]), labels


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
    estimate, estimate_labels = chords_from_midi(base + ".mid", end)
    estimate, estimate_labels = mir_eval.util.adjust_intervals(estimate, estimate_labels, 0.0, end, "N", "N")
    intervals, ref, est = mir_eval.util.merge_labeled_intervals(reference, reference_labels, estimate, estimate_labels)
    durations = mir_eval.util.intervals_to_durations(intervals)
    root = mir_eval.chord.root(ref, est)
    # Sevenths only where the keys sounded the whole chord (the estimate has a quality).
    shown = np.array([":" in e for e in est])
    sevenths = mir_eval.chord.sevenths(ref, est)
    return durations, root, durations * shown, sevenths


def main(directories):
    totals = [0.0, 0.0, 0.0, 0.0]
    for directory in directories:
        durations, root, shown, sevenths = check(directory)
        totals[0] += float(np.sum(durations))
        totals[1] += float(np.sum(durations * (root > 0)))
        totals[2] += float(np.sum(shown * (sevenths >= 0)))
        totals[3] += float(np.sum(shown * (sevenths > 0)))
    print(json.dumps({"items": len(directories), "root": totals[1] / totals[0],
                      "sevenths": totals[3] / totals[2] if totals[2] else None,
                      "jams_valid": len(directories)}))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(sys.argv[1:])
