#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Reads a `clumsy batch export` with readers Clumsy did not write, as a dataset hub would.

The export is loaded by Hugging Face `datasets` the hub's way: `load_dataset(EXPORT_DIR,
split="train")`, which reads the dataset card's YAML (its `configs` name the shards, its
`dataset_info` the columns). Then every item is checked: its audio decodes (by `datasets` when
it can: `datasets` 4 and later decode with torchcodec; without it the audio column is read as
bytes and decoded by `soundfile`), its MIDI bytes parse with `mido`, and its labels are there
(`key`, `chords`, `beats`, `tempo` and a JAMS text that parses, when the batch has labels).
The shards are also read with Python's `tarfile` alone: no folder may hold more than 10,000
files, and no shard a member twice.

Prints one JSON object: {"items", "shards", "audio", "audio_reader", "midi", "labels",
"largest_folder"}. Exits non-zero on a problem (printed).

usage: check_export.py EXPORT_DIR [EXPECTED_ITEMS]
"""
import io
import json
import os
import sys
import tarfile

import datasets
import mido

AUDIO = ("flac", "ogg", "wav")


def fail(message):
    print(f"check_export.py: {message}", file=sys.stderr)
    sys.exit(1)


def largest_folder(root):
    return max(len(dirs) + len(files) for _, dirs, files in os.walk(root))


def can_decode_audio():
    """True when this `datasets` decodes audio itself (soundfile before 4.0, torchcodec after)."""
    if int(datasets.__version__.split(".")[0]) < 4:
        return True
    return bool(getattr(datasets.config, "TORCHCODEC_AVAILABLE", False))


def load(directory):
    builder = datasets.load_dataset_builder(directory)
    features = builder.info.features
    if features is None:
        fail("the dataset card declares no features (dataset_info)")
    audio = [name for name, feature in features.items() if isinstance(feature, datasets.Audio)]
    if audio and not can_decode_audio():
        for name in audio:
            features[name] = datasets.Value("binary")
        return datasets.load_dataset(directory, split="train", features=features), audio, "soundfile"
    return datasets.load_dataset(directory, split="train"), audio, "datasets"


def samples(entry, reader):
    """(frames, sample rate) of an audio cell."""
    if reader == "soundfile":
        import soundfile
        data, rate = soundfile.read(io.BytesIO(entry))
        return len(data), rate
    if isinstance(entry, dict):   # datasets < 4: {"array", "sampling_rate", "path"}
        return len(entry["array"]), entry["sampling_rate"]
    decoded = entry.get_all_samples()   # torchcodec's AudioDecoder
    return decoded.data.shape[-1], decoded.sample_rate


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: check_export.py EXPORT_DIR [EXPECTED_ITEMS]")
    directory = sys.argv[1]
    shards = sorted(os.listdir(os.path.join(directory, "data")))
    for shard in shards:
        with tarfile.open(os.path.join(directory, "data", shard)) as archive:
            names = archive.getnames()
            if len(names) != len(set(names)):
                fail(f"{shard}: a member twice")
    dataset, audio, reader = load(directory)
    if len(sys.argv) == 3 and len(dataset) != int(sys.argv[2]):
        fail(f"{len(dataset)} items, expected {sys.argv[2]}")
    counts = {"audio": 0, "midi": 0, "labels": 0}
    keys = set()
    for row in dataset:
        key = row["__key__"]
        if "." in key or key in keys:
            fail(f"key {key!r}: a dot in it, or a key twice")
        keys.add(key)
        record = row["json"]
        if record["item"].replace(".", "_") != key:
            fail(f"{key}: its json names item {record['item']!r}")
        for name in audio:
            frames, rate = samples(row[name], reader)
            if frames <= 0 or rate <= 0:
                fail(f"{key}.{name}: no audio ({frames} frames at {rate} Hz)")
            counts["audio"] += 1
        if "mid" in row:
            midi = mido.MidiFile(file=io.BytesIO(row["mid"]))
            if not any(message.type == "note_on" for track in midi.tracks for message in track):
                fail(f"{key}.mid: no notes")
            counts["midi"] += 1
        if "jams" in record:
            if not (record["key"] and record["chords"] and record["beats"] and record["tempo"]):
                fail(f"{key}.json: key, chords, beats or tempo is empty")
            jams = json.loads(record["jams"])
            if {a["namespace"] for a in jams["annotations"]} < {"chord", "key_mode", "beat", "tempo"}:
                fail(f"{key}.json: its JAMS text lacks a namespace")
            if record["chords"][0]["value"] != next(a for a in jams["annotations"] if a["namespace"] == "chord")["data"][0]["value"]:
                fail(f"{key}.json: its chords are not its JAMS file's")
            counts["labels"] += 1
    folder = largest_folder(directory)
    if folder > 10000:
        fail(f"a folder holds {folder} files, more than the 10,000 a hub reads")
    print(json.dumps({"items": len(dataset), "shards": len(shards), "audio_reader": reader, "largest_folder": folder, **counts}))


if __name__ == "__main__":
    main()
