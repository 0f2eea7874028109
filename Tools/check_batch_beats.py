#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Checks the beat labels of `clumsy batch` items against a beat tracker Clumsy did not write.

For each item directory given (rendered with `--outputs audio,labels`): librosa's beat tracker
(default settings: no tempo, meter or phase is given to it) finds the beats in the item's
audio, and mir_eval scores them against `<item>.beats.txt` (F-measure, ±70 ms, the first 5 s
trimmed as mir_eval does). Prints one JSON object: {"items", "mean_f", "min_f", "per_item":
{item: f}}. Exits non-zero when an item has no audio or no beats.

usage: check_batch_beats.py ITEM_DIR...
"""
import glob
import json
import os
import sys

sys.dont_write_bytecode = True  # no Tools/__pycache__ from importing the module beside this one
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numba_cache  # noqa: E402

numba_cache.use_private_cache()
import librosa  # noqa: E402
import mir_eval  # noqa: E402
import numpy as np  # noqa: E402


def f_measure(directory):
    name = os.path.basename(os.path.normpath(directory))
    audio = [p for p in glob.glob(os.path.join(directory, name + ".*")) if p.endswith((".wav", ".flac", ".ogg"))]
    if not audio:
        raise SystemExit(f"{directory}: no audio file (render with --outputs audio,labels)")
    signal, rate = librosa.load(audio[0], sr=22050, mono=True)
    _, frames = librosa.beat.beat_track(y=signal, sr=rate)
    estimated = librosa.frames_to_time(frames, sr=rate)
    reference = np.loadtxt(os.path.join(directory, name + ".beats.txt"), ndmin=2)[:, 0]
    if len(reference) == 0:
        raise SystemExit(f"{directory}: no beats in {name}.beats.txt")
    return mir_eval.beat.f_measure(mir_eval.beat.trim_beats(reference), mir_eval.beat.trim_beats(estimated))


def main(directories):
    if not directories:
        raise SystemExit(__doc__)
    scores = {os.path.basename(os.path.normpath(d)): f_measure(d) for d in directories}
    values = list(scores.values())
    print(json.dumps({"items": len(values), "mean_f": float(np.mean(values)), "min_f": float(np.min(values)),
                      "per_item": scores}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
