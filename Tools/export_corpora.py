#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exports the two human references of `make musicality` (issue 29) from music21's own corpus.

  python3 Tools/export_corpora.py [--out .build/musicality/corpora] [--count 60] [--audio 12]

Writes, deterministically:
  OUT/bach/NN-<name>.mid     the first 60 Bach chorales of music21's chorale iterator
                             (Riemenschneider order) that parse and are at least 8 bars long
  OUT/fiddle/NN-<name>.mid   60 fiddle tunes: the first 30 files of Ryan's Mammoth Collection
                             (file names in sorted order) and the first 30 tunes of O'Neill's
                             1850 (opus files in sorted order, tunes in book order), each one
                             that parses and is at least 8 bars long
  OUT/<corpus>/NN-<name>.wav the first 12 of each corpus rendered by the fluidsynth command
                             (FluidR3_GM) when it is there, for librosa's beat tracker
  OUT/manifest.json          what was exported, with the choices below

How a score becomes MIDI:
  - repeats are played (music21's expandRepeats; a tune whose repeats cannot be expanded is
    skipped, as one that does not parse);
  - tied notes are joined (stripTies), grace notes (no duration) are left out;
  - one fixed tempo for every piece, quarter = 120 (music21's own MIDI default, which the
    chorales and almost all fiddle tunes leave unmarked); the few tempo marks in the files
    are ignored, so every piece is measured at one documented tempo. At quarter = 120 a
    reel or jig in eighths plays 4 notes a second, the issue's median for fiddle tunes;
  - a pickup bar is padded at the front, so the MIDI's bar lines fall on the written ones
    (Tools/form_recurrence.py counts bars from tick 0 in the first time signature);
  - one track per part, named after it, each on its own channel (never 10); the chorales'
    lowest part is the track "Bass", as Clumsy's bass is, so the top voice leaves it out;
    fiddle tunes have one track, "Fiddle", and no bass;
  - every note at velocity 80; programs: chorales on church organ (19), tunes on fiddle (110).

A second run with the same arguments finds the manifest and does nothing (--force redoes it).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

EXPORT_VERSION = 2  # bump when the export changes, so caches are redone
TEMPO = 120.0       # quarter notes per minute, for every piece
VELOCITY = 80
MIN_BARS = 8
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"


def measures_of(score):
    """The number of bars of the score's first part (of the score itself when it has none)."""
    part = score.parts[0] if score.parts else score
    return len(part.getElementsByClass("Measure"))


def time_signature_of(score):
    from music21 import meter
    found = score.recurse().getElementsByClass(meter.TimeSignature)
    for ts in found:
        return ts.numerator, ts.denominator
    return 4, 4


def pickup_of(score):
    """Quarter notes missing from an incomplete first bar (a pickup), else 0."""
    part = score.parts[0] if score.parts else score
    measures = part.getElementsByClass("Measure")
    if not measures:
        return 0.0
    first = measures[0]
    padding = float(first.paddingLeft or 0)
    if padding > 0:
        return padding
    numerator, denominator = time_signature_of(score)
    bar = numerator * 4.0 / denominator
    length = float(first.highestTime)
    if first.number == 0 and 0 < length < bar:
        return bar - length
    return 0.0


def to_midi(score, path, names, program):
    """Writes the score as MIDI at the fixed tempo; names maps part index to a track name."""
    import pretty_midi
    numerator, denominator = time_signature_of(score)
    shift = pickup_of(score)
    seconds = 60.0 / TEMPO
    song = pretty_midi.PrettyMIDI(initial_tempo=TEMPO, resolution=480)
    song.time_signature_changes.append(pretty_midi.TimeSignature(numerator, denominator, 0.0))
    parts = list(score.parts) if score.parts else [score]
    for index, part in enumerate(parts):
        instrument = pretty_midi.Instrument(program=program, name=names(index, len(parts)))
        flat = part.stripTies().flatten()
        for element in flat.notes:
            length = float(element.quarterLength)
            if length <= 0:  # a grace note
                continue
            start = (float(element.offset) + shift) * seconds
            end = start + length * seconds
            for pitch in element.pitches:
                instrument.notes.append(pretty_midi.Note(VELOCITY, int(pitch.midi), start, end))
        instrument.notes.sort(key=lambda n: (n.start, n.pitch))
        if instrument.notes:
            song.instruments.append(instrument)
    song.write(path)
    set_channels(path)
    return sum(len(i.notes) for i in song.instruments)


def set_channels(path):
    """pretty_midi puts every track on channel 0; give each track its own (skipping 10)."""
    import mido
    song = mido.MidiFile(path)
    channel = 0
    for track in song.tracks:
        if not any(m.type in ("note_on", "note_off", "program_change") for m in track):
            continue
        for message in track:
            if hasattr(message, "channel"):
                message.channel = channel
        channel += 1
        if channel == 9:
            channel += 1
    song.save(path)


def safe(text):
    keep = "".join(c if c.isalnum() else "-" for c in text).strip("-")
    while "--" in keep:
        keep = keep.replace("--", "-")
    return keep[:48] or "untitled"


def expanded(score):
    """The score with its repeats played, or None when music21 cannot expand them."""
    try:
        return score.expandRepeats()
    except Exception:  # music21's ExpanderException and malformed repeat marks
        return None


def chorale_names(index, count):
    return "Bass" if index == count - 1 and count > 1 else ["Soprano", "Alto", "Tenor", "Voice"][min(index, 3)]


def fiddle_names(index, count):
    return "Fiddle" if index == 0 else f"Fiddle {index + 1}"


def export_bach(out, count, log):
    from music21 import corpus
    written = []
    for name in corpus.chorales.Iterator(returnType="filename"):
        if len(written) >= count:
            break
        try:
            score = corpus.parse(name)
        except Exception as error:
            log(f"bach: {name} does not parse ({error}), skipped")
            continue
        if measures_of(score) < MIN_BARS:
            continue
        played = expanded(score)
        if played is None:
            log(f"bach: {name}: repeats cannot be expanded, skipped")
            continue
        path = os.path.join(out, f"{len(written) + 1:02d}-{safe(name.split('/')[-1])}.mid")
        notes = to_midi(played, path, chorale_names, program=19)
        written.append({"file": os.path.basename(path), "source": name, "bars": measures_of(played), "notes": notes})
    return written


def fiddle_scores(half):
    """Yields (source, score) for the tunes of Ryan's Mammoth, then of O'Neill's 1850, in order;
    after each, the caller sends True when it kept the tune, and a collection stops at `half`."""
    from music21 import corpus
    for folder in ("ryansMammoth", "oneills1850"):
        paths = sorted(p for p in corpus.getPaths() if os.sep + folder + os.sep in str(p))
        taken = 0
        for path in paths:
            if taken >= half:
                break
            try:
                parsed = corpus.parse(str(path))
            except Exception:
                continue
            scores = list(parsed.scores) if hasattr(parsed, "scores") and parsed.scores else [parsed]
            for number, score in enumerate(scores, start=1):
                if taken >= half:
                    break
                title = score.metadata.title if score.metadata and score.metadata.title else f"tune {number}"
                source = f"{folder}/{os.path.basename(path)}#{number} {title}"
                taken += 1 if (yield source, score) else 0


def export_fiddle(out, count, log):
    written = []

    def keep(source, score):
        if measures_of(score) < MIN_BARS:
            return False
        played = expanded(score)
        if played is None:
            log(f"fiddle: {source}: repeats cannot be expanded, skipped")
            return False
        title = source.split(" ", 1)[1] if " " in source else source
        path = os.path.join(out, f"{len(written) + 1:02d}-{safe(title)}.mid")
        notes = to_midi(played, path, fiddle_names, program=110)
        if notes == 0:
            os.remove(path)
            return False
        written.append({"file": os.path.basename(path), "source": source, "bars": measures_of(played), "notes": notes})
        return True

    tunes = fiddle_scores(count // 2)
    try:
        source, score = next(tunes)
        while True:
            source, score = tunes.send(keep(source, score))
    except StopIteration:
        pass
    return written


def render_wav(midi, wav):
    """Renders a MIDI file to WAV (22050 Hz) with the fluidsynth command and FluidR3_GM;
    returns False when either is missing."""
    fluidsynth = shutil.which("fluidsynth")
    if not fluidsynth or not os.path.exists(SOUNDFONT):
        return False
    subprocess.run([fluidsynth, "-n", "-i", "-q", "-g", "0.5", "-r", "22050", "-F", wav, SOUNDFONT, midi],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return True


def render_audio(directory, entries, count, log):
    """Renders the first `count` MIDI files of a corpus to WAV."""
    for entry in entries[:count]:
        midi = os.path.join(directory, entry["file"])
        if not render_wav(midi, midi[:-4] + ".wav"):
            log("no fluidsynth command or FluidR3_GM: the corpora get no audio (no tempo found)")
            return
        entry["audio"] = entry["file"][:-4] + ".wav"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=".build/musicality/corpora")
    parser.add_argument("--count", type=int, default=60, help="pieces per corpus (default 60)")
    parser.add_argument("--audio", type=int, default=12, help="pieces per corpus rendered to WAV (default 12)")
    parser.add_argument("--force", action="store_true", help="export again even when the manifest matches")
    args = parser.parse_args(argv[1:])

    settings = {"version": EXPORT_VERSION, "count": args.count, "audio": args.audio, "tempo": TEMPO,
                "velocity": VELOCITY, "minimumBars": MIN_BARS}
    manifest_path = os.path.join(args.out, "manifest.json")
    if not args.force and os.path.exists(manifest_path):
        with open(manifest_path) as handle:
            if json.load(handle).get("settings") == settings:
                print(f"corpora already exported in {args.out}", file=sys.stderr)
                return 0

    def log(text):
        print(text, file=sys.stderr)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".corpora-", dir=os.path.dirname(os.path.abspath(args.out)))
    try:
        result = {"settings": settings}
        for corpus_name, export in (("bach", export_bach), ("fiddle", export_fiddle)):
            directory = os.path.join(staging, corpus_name)
            os.makedirs(directory)
            entries = export(directory, args.count, log)
            if len(entries) < args.count:
                log(f"{corpus_name}: only {len(entries)} pieces found")
            render_audio(directory, entries, args.audio, log)
            result[corpus_name] = entries
            log(f"{corpus_name}: {len(entries)} pieces")
        with open(os.path.join(staging, "manifest.json"), "w") as handle:
            json.dump(result, handle, indent=1)
        if os.path.exists(args.out):
            shutil.rmtree(args.out)
        os.rename(staging, args.out)
    finally:
        if os.path.exists(staging):
            shutil.rmtree(staging)
    print(f"corpora exported into {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
