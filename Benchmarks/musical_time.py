#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Acceptance figures of the musical-time work (issue 10), measured with tools Clumsy did not
write: mido (MIDI files), librosa (beat tracking), soundfile + numpy (audio), the event log as
JSON. Run from the package root after `swift build -c release`:

    python3 Benchmarks/musical_time.py [--clumsy .build/release/clumsy] [--seconds 60] [--seed 3]

For each quantised bundled preset (and `default` with `--quantize 1/16`) it renders the session
twice: as it is ("after"), and ("before") as a copy of its preset file with `time.quantize`
off and no percussion, the way the program could play it before; it prints one line per figure. Files go to a temporary directory that is removed at the end.
Requires: mido, librosa, soundfile, numpy.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import mido
import numpy as np


def run(clumsy, preset, seconds, seed, out, extra=()):
    paths = {k: os.path.join(out, f"{preset}-{'-'.join(extra) or 'preset'}.{k}".replace("/", "_"))
             for k in ("mid", "jsonl", "wav")}
    subprocess.run([clumsy, "run", preset, "--duration", str(seconds), "--seed", str(seed), "--quiet",
                    "--midi", paths["mid"], "--events", paths["jsonl"], "--audio", paths["wav"], *extra], check=True)
    return paths


def midi_notes(path):
    """(tick, channel, note, velocity, track name) of every note-on; the file's meter and tempo."""
    midi = mido.MidiFile(path)
    notes, meter, tempo = [], (4, 4), 500000
    for track in midi.tracks:
        tick, name = 0, ""
        for message in track:
            tick += message.time
            if message.type == "track_name":
                name = message.name
            elif message.type == "time_signature":
                meter = (message.numerator, message.denominator)
            elif message.type == "set_tempo":
                tempo = message.tempo
            elif message.type == "note_on" and message.velocity > 0:
                notes.append((tick, message.channel, message.note, message.velocity, name))
    return notes, meter, 60_000_000 / tempo, midi.ticks_per_beat


def events(path):
    with open(path) as log:
        return [json.loads(line) for line in log]


def grid_figures(paths, grid_ticks):
    notes, _, _, _ = midi_notes(paths["mid"])
    off_grid = sum(1 for n in notes if n[0] % grid_ticks)
    log = [e for e in events(paths["jsonl"]) if "note" in e]
    early = sum(1 for e in log if e["t"] < e["hit"] - 1e-9)
    return len(notes), off_grid, early


def accent_figures(paths, accent, keys_only=False):
    """Mean velocity of melodic notes on beat 1 vs. notes off every beat line, and what a
    uniform +accent (clamped to 127) on the off-beat notes would give."""
    notes, (beats, unit), _, ppq = midi_notes(paths["mid"])
    beat = ppq * 4 // unit
    bar = beat * beats
    melodic = [n for n in notes if n[1] != 9 and (not keys_only or n[4] == "Keys")]
    down = [n[3] for n in melodic if n[0] % bar == 0]
    off = [n[3] for n in melodic if n[0] % beat != 0]
    if not down or not off:
        return None
    expected = float(np.mean([min(127, v + accent) for v in off]))
    return float(np.mean(down)), float(np.mean(off)), expected, len(down), len(off)


def beat_figure(paths, tempo):
    import librosa
    # 100 analysis frames a second (hop 441 at 44.1 kHz), so 120 bpm is a whole lag of 50 frames;
    # the tempo is read from the tracked beats (60 / mean beat interval), not from one tempogram bin.
    y, sr = librosa.load(paths["wav"], sr=44100, mono=True)
    _, beats = librosa.beat.beat_track(y=y, sr=sr, hop_length=441, units="time")
    found = 60 / float(np.mean(np.diff(beats))) if len(beats) > 2 else 0.0
    ratios = [found / (tempo * k) for k in (0.5, 1, 2)]
    best = min(ratios, key=lambda r: abs(r - 1))
    return found, abs(best - 1) <= 0.02


def stereo_correlation(path):
    import soundfile
    audio, _ = soundfile.read(path)
    return float(np.corrcoef(audio[:, 0], audio[:, 1])[0, 1])


def key_velocities(paths):
    keys = [e["velocity"] for e in events(paths["jsonl"]) if e.get("kind") == "key"]
    return len(keys), float(np.mean(np.array(keys) <= 40)) if keys else 0.0


def flams(paths):
    times = sorted(e["t"] for e in events(paths["jsonl"]) if "note" in e)
    gaps = np.diff(times)
    return float(np.mean((gaps > 0) & (gaps < 0.03))), float(np.mean(gaps == 0))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clumsy", default=".build/release/clumsy")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", help="measure only this preset")
    args = parser.parse_args()
    # (preset, flags for "after", grid in ticks at 960 PPQ, tempo, downbeat accent)
    cases = [("default", ["--quantize", "1/16"], 240, 120, 12),
             ("polska", [], 480, 112, 14),
             ("pulse", [], 240, 120, 12)]
    with tempfile.TemporaryDirectory(prefix="clumsy-time-") as out:
        for preset, flags, grid, tempo, accent in cases:
            if args.only and preset != args.only:
                continue
            after = run(args.clumsy, preset, args.seconds, args.seed, out, tuple(flags))
            # "Before": the same preset as the program could play it before this work: no grid, no drums.
            with open(os.path.join("Presets", preset + ".json")) as file:
                fields = json.load(file)
            fields.setdefault("time", {})["quantize"] = "off"
            fields["percussion"] = False
            plain = os.path.join(out, preset + "-before.json")
            with open(plain, "w") as file:
                json.dump(fields, file)
            before = run(args.clumsy, plain, args.seconds, args.seed, out, ())
            count, off_grid, early = grid_figures(after, grid)
            swing = " (swing: odd lines are late by design)" if preset in ("polska", "pulse") else ""
            print(f"{preset}: {count} note-ons, {off_grid} off the {grid}-tick grid{swing}, {early} sounding before their hit")
            for label, paths in (("before", before), ("after", after)):
                found, ok = beat_figure(paths, tempo)
                flam, same = flams(paths)
                n, soft = key_velocities(paths)
                print(f"  {label:6}: beat_track {found:.1f} bpm (preset {tempo}; within 2 % of it, its double or half: {'yes' if ok else 'no'}); "
                      f"onsets within 30 ms of the one before {100 * flam:.1f} %, together {100 * same:.1f} %; "
                      f"key notes {n}, velocity <= 40: {100 * soft:.1f} %; L/R correlation {stereo_correlation(paths['wav']):.3f}")
            for which, keys_only in (("bass and keys", False), ("keys only", True)):
                figures = accent_figures(after, accent, keys_only)
                if figures:
                    down, off, expected, nd, no = figures
                    print(f"  accents, {which}: beat-1 mean velocity {down:.1f} ({nd} notes), off-beat {off:.1f} ({no} notes), "
                          f"difference {down - off:.1f} (accent {accent}; off-beat + accent clamped to 127 would give {expected:.1f})")
        if args.only:
            return
        centre = run(args.clumsy, "default", args.seconds, args.seed, out, ())
        print(f"default L/R correlation (keys.pan \"position\"): {stereo_correlation(centre['wav']):.3f}")


if __name__ == "__main__":
    sys.exit(main())
