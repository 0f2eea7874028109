#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measures Clumsy's renders as a listener would, with readers nobody here wrote (issue 29).

  python3 Tools/musicality.py [RENDERS] [--only NAME...] [--seeds N...] [--presets Presets]
                              [--corpora .build/musicality/corpora] [--work .build/musicality]
                              [--markdown FILE] [--json FILE] [--jobs 2] [--strict]

RENDERS holds NAME-SEED.mid (and NAME-SEED.wav, the mastered mix) as Tools/musicality.sh writes
them; a preset's tempo, tonic, scale and description come from PRESETS/NAME.json (else from
`clumsy presets show NAME`), defaults 120 bpm, C major. Beside the presets it measures the two
human corpora of Tools/export_corpora.py and a random-notes control it makes itself, and prints
one Markdown table (a row per preset, the mean of its seeds) and writes it and a JSON dump.

The columns (issue 29's definitions):
  soft      notes above the bass (every pitched track but the one named "Bass"; drums, MIDI
            channel 10, aside) at velocity <= 40, as a fraction of them
  onsets/s  pitched note-ons (bass included, drums aside) per second of the file (pretty_midi's
            end time); note-ons within 30 ms of the first of a group count as one onset
  top voice the skyline of the pitched tracks but the bass: at each onset (the same 30 ms
            groups) the highest new note, kept when no note sounding from before is higher;
            of its intervals, the fraction of steps (1 or 2 semitones) and of repeats (0)
  tempo     librosa's beat_track on the WAV; it finds the preset's tempo when within 4 % of
            it, of its double or of its half
  bar / 4-bar  bar recurrence and four-bar recurrence of Tools/form_recurrence.py
  gap       the longest time between two successive pitched onsets (groups), in seconds
  tonic     music21's Krumhansl-Schmuckler key of the pitched notes (drums aside, each note
            weighted by its length, as music21 weights a score's notes) names the preset's
            tonic; for presets in major or minor (natural, harmonic, melodic) also its mode
  extras    MusPy's pitch-class entropy and scale consistency (drum tracks removed), the key
            finder's correlation, pyloudnorm's integrated loudness of the WAV (LUFS)

Acceptance (issue 29), on the mean of the seeds: soft <= 15 %; onsets/s 1.5 to 8; steps >= 0.30
and repeats <= 0.35; tempo found in 2 of 3 seeds (two thirds of the files); bar recurrence 0.35
to 0.85 and four-bar >= 0.25 (not for a preset whose description says "through-composed");
gap <= 2.5 s; tonic in 2 of 3 seeds. A preset named `original` or whose description says
"textural" is measured and marked exempt. The random-notes control must fail three lines.
Per-file results are cached beside the files (.musicality-cache.json) by size and time.
"""
import argparse
import json
import math
import numbers
import os
import random
import statistics
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
sys.dont_write_bytecode = True  # no Tools/__pycache__ from importing the tools beside this one

import form_recurrence  # noqa: E402  (Tools/form_recurrence.py: the bar recurrence of issue 29)
import numba_cache  # noqa: E402  (a numba cache for each worker: shared, it crashes librosa)

numba_cache.use_private_cache()  # the run's cache root, removed when this process exits

ANALYSIS_VERSION = 4   # bump when a measure changes, so cached results are redone
GROUP = 0.030          # onsets within 30 ms of a group's first count as one
SOFT = 40              # velocity at or below which a note is soft
TEMPO_TOLERANCE = 0.04
LINES = ["soft", "onsets", "top", "tempo", "form", "gap", "tonic"]
LINE_TEXT = {
    "soft": "notes above the bass at velocity <= 40: <= 15 %",
    "onsets": "pitched onsets per second: 1.5 to 8",
    "top": "top voice: steps >= 0.30 and repeats <= 0.35",
    "tempo": "librosa finds the tempo (or its double or half, within 4 %) in 2 of 3 seeds",
    "form": "bar recurrence 0.35 to 0.85 and four-bar recurrence >= 0.25 (unless through-composed)",
    "gap": "longest time between two pitched onsets <= 2.5 s",
    "tonic": "Krumhansl-Schmuckler key names the tonic (and major/minor mode) in 2 of 3 seeds",
}
MAJOR = {"major", "ionian"}
MINOR = {"minor", "aeolian", "naturalminor", "harmonicminor", "melodicminor", "melodicminorascending", "jazzminor"}
LETTERS = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


# ---------------------------------------------------------------------------------------------
# Reading a file


def pitch_class(name):
    """The pitch class of a tonic written C, Eb, F#, B♭ or B- (music21's flat)."""
    name = name.strip()
    value = LETTERS[name[0].upper()]
    for sign in name[1:]:
        value += {"#": 1, "♯": 1, "b": -1, "♭": -1, "-": -1}.get(sign, 0)
    return value % 12


def scale_family(scale):
    key = "".join(c for c in scale.lower() if c.isalnum())
    return "major" if key in MAJOR else "minor" if key in MINOR else None


def voices(path):
    """The pitched notes of a MIDI file: (all, above the bass) as (start, end, pitch, velocity)."""
    import pretty_midi
    song = pretty_midi.PrettyMIDI(path)
    pitched, upper = [], []
    for instrument in song.instruments:
        if instrument.is_drum:
            continue
        notes = [(n.start, n.end, n.pitch, n.velocity) for n in instrument.notes]
        pitched += notes
        if instrument.name.strip().lower() != "bass":
            upper += notes
    pitched.sort()
    upper.sort()
    return song.get_end_time(), pitched, upper


def groups(notes):
    """The notes in onset groups: a group is every note starting within GROUP of its first."""
    result = []
    for note in notes:
        if result and note[0] - result[-1][0][0] <= GROUP:
            result[-1].append(note)
        else:
            result.append([note])
    return result


def skyline(upper):
    """The top voice: at each onset group the highest new note, kept unless a note that began
    before the group and still sounds is higher. Returns its pitches in order."""
    line = []
    sounding = []  # notes of earlier groups, pruned as they end
    for group in groups(upper):
        time = group[0][0]
        sounding = [n for n in sounding if n[1] > time + 1e-6]
        top = max(n[2] for n in group)
        if not any(n[2] > top for n in sounding):
            line.append(top)
        sounding += group
    return line


def interval_fractions(line):
    steps = [abs(b - a) for a, b in zip(line, line[1:])]
    if not steps:
        return None, None
    return (sum(1 for s in steps if 1 <= s <= 2) / len(steps), sum(1 for s in steps if s == 0) / len(steps))


def key_of(pitched):
    """music21's Krumhansl-Schmuckler key of the notes, each weighted by its length."""
    from music21 import analysis, note, stream
    s = stream.Stream()
    for start, end, pitch, _ in pitched:
        n = note.Note(pitch)
        n.quarterLength = max(1, round((end - start) * 2 * 16)) / 16  # seconds at quarter = 120
        s.coreInsert(round(start * 2 * 16) / 16, n)
    s.coreElementsChanged()
    if not pitched:
        return None
    found = analysis.discrete.KrumhanslSchmuckler().getSolution(s)
    return {"tonic": found.tonic.name, "pitchClass": found.tonic.pitchClass, "mode": found.mode,
            "correlation": found.correlationCoefficient}


def muspy_metrics(path):
    import muspy
    music = muspy.read_midi(path)
    music.tracks = [t for t in music.tracks if not t.is_drum]
    entropy = muspy.pitch_class_entropy(music)
    consistency = muspy.scale_consistency(music)
    return {"pitchClassEntropy": None if math.isnan(entropy) else entropy,
            "scaleConsistency": None if math.isnan(consistency) else consistency}


def audio_metrics(wav):
    import librosa
    import numpy
    import pyloudnorm
    import soundfile
    data, rate = soundfile.read(wav, always_2d=True)
    loudness = pyloudnorm.Meter(rate).integrated_loudness(data)
    y, sr = librosa.load(wav, sr=22050, mono=True)
    tempo, _ = librosa.beat.beat_track(y=y, sr=sr)
    return {"tempoFound": float(numpy.atleast_1d(tempo)[0]),
            "loudness": None if math.isinf(loudness) else float(loudness)}


def measure_file(midi, wav=None):
    """Every measure of one MIDI file (and its WAV, when given)."""
    end, pitched, upper = voices(midi)
    onset_groups = groups(pitched)
    onsets = [g[0][0] for g in onset_groups]
    line = skyline(upper)
    steps, repeats = interval_fractions(line)
    recurrence = form_recurrence.measure(form_recurrence.bars_of(midi))
    result = {
        "seconds": end,
        "upperNotes": len(upper),
        "soft": sum(1 for n in upper if n[3] <= SOFT) / len(upper) if upper else None,
        "onsetsPerSecond": len(onsets) / end if end > 0 else 0.0,
        "topVoiceNotes": len(line),
        "steps": steps,
        "repeats": repeats,
        "barRecurrence": recurrence["barFraction"],
        "fourBarRecurrence": recurrence["spanFraction"],
        "longestGap": max((b - a for a, b in zip(onsets, onsets[1:])), default=None),
        "key": key_of(pitched),
    }
    result.update(muspy_metrics(midi))
    if wav and os.path.exists(wav):
        result.update(audio_metrics(wav))
    return plain(result)


def plain(value):
    """numpy's numbers as Python's, for JSON and for `is True` tests."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value)


def measure_all(items, jobs, cache_dir_of):
    """Measures (midi, wav) pairs in parallel, reusing the per-directory caches."""
    caches = {}
    results, todo = {}, []
    for midi, wav in items:
        directory = cache_dir_of(midi)
        if directory not in caches:
            path = os.path.join(directory, ".musicality-cache.json")
            try:
                with open(path) as handle:
                    caches[directory] = json.load(handle)
            except (OSError, ValueError):
                caches[directory] = {}
        stamp = [ANALYSIS_VERSION] + [[os.path.getsize(p), os.path.getmtime(p)] if p and os.path.exists(p) else None
                                      for p in (midi, wav)]
        cached = caches[directory].get(os.path.basename(midi))
        if cached and cached["stamp"] == stamp:
            results[midi] = cached["result"]
        else:
            todo.append((midi, wav, stamp))
    if todo:
        print(f"measuring {len(todo)} files ({len(results)} cached)", file=sys.stderr)
        with ProcessPoolExecutor(max_workers=max(1, jobs), initializer=numba_cache.use_private_cache) as pool:
            futures = [(midi, stamp, pool.submit(measure_file, midi, wav)) for midi, wav, stamp in todo]
            for midi, stamp, future in futures:
                results[midi] = future.result()
                caches[cache_dir_of(midi)][os.path.basename(midi)] = {"stamp": stamp, "result": results[midi]}
        for directory, cache in caches.items():
            with open(os.path.join(directory, ".musicality-cache.json"), "w") as handle:
                json.dump(cache, handle, indent=0)
    return results


# ---------------------------------------------------------------------------------------------
# The random-notes control


def make_control(directory, seed=29):
    """180 s of random C-major notes over a random bass at 120 bpm in 4/4: the keys a Poisson
    stream of 3.4 notes/s from C4 to C6, the bass 1 note/s from C2 to C3, lengths and velocities
    (50 to 100) random too; about 4 onsets a second. Rendered to WAV as the corpora are."""
    import pretty_midi
    from export_corpora import render_wav, set_channels
    os.makedirs(directory, exist_ok=True)
    midi = os.path.join(directory, "random-c-major.mid")
    wav = midi[:-4] + ".wav"
    stamp = os.path.join(directory, "control.version")
    version = f"control 1 seed {seed}"
    if os.path.exists(midi) and os.path.exists(stamp) and open(stamp).read() == version:
        return midi, wav if os.path.exists(wav) else None
    rng = random.Random(seed)
    c_major = [p for p in range(36, 85) if p % 12 in (0, 2, 4, 5, 7, 9, 11)]
    song = pretty_midi.PrettyMIDI(initial_tempo=120.0, resolution=480)
    song.time_signature_changes.append(pretty_midi.TimeSignature(4, 4, 0.0))
    for name, program, rate, low, high, shortest, longest in (
            ("Bass", 32, 1.0, 36, 48, 0.3, 1.0), ("Keys", 0, 3.4, 60, 84, 0.2, 0.8)):
        track = pretty_midi.Instrument(program=program, name=name)
        pitches = [p for p in c_major if low <= p <= high]
        time = rng.expovariate(rate)
        while time < 180.0:
            length = min(rng.uniform(shortest, longest), 180.0 - time)
            track.notes.append(pretty_midi.Note(rng.randint(50, 100), rng.choice(pitches), time, time + length))
            time += rng.expovariate(rate)
        song.instruments.append(track)
    song.write(midi)
    set_channels(midi)
    if not render_wav(midi, wav):
        wav = None
    with open(stamp, "w") as handle:
        handle.write(version)
    return midi, wav


# ---------------------------------------------------------------------------------------------
# Presets and verdicts


def preset_info(name, presets_dir, clumsy):
    """Tempo, tonic, scale and description of a preset, from its JSON (or `clumsy presets show`)."""
    path = os.path.join(presets_dir, name + ".json")
    try:
        with open(path) as handle:
            preset = json.load(handle)
    except OSError:
        shown = subprocess.run([clumsy, "presets", "show", name], capture_output=True, text=True, check=True)
        preset = json.loads(shown.stdout)
    key = preset.get("key", {})
    if isinstance(key, str):  # "D minor" or "D"
        parts = key.split()
        key = {"tonic": parts[0], "scale": parts[1] if len(parts) > 1 else "major"}
    description = preset.get("description", "")
    lowered = description.lower()
    return {
        "tempo": float(preset.get("tempo", 120)),
        "tonic": key.get("tonic", "C"),
        "scale": key.get("scale", "major"),
        "description": description,
        "throughComposed": "through-composed" in lowered or "through composed" in lowered,
        "exempt": "original" if name == "original" else "textural" if "textural" in lowered else None,
    }


def tempo_matches(found, tempo):
    return found is not None and any(abs(found - t) <= TEMPO_TOLERANCE * t for t in (tempo, 2 * tempo, tempo / 2))


def tonic_matches(key, info):
    if key is None:
        return False
    if key["pitchClass"] != pitch_class(info["tonic"]):
        return False
    family = scale_family(info["scale"])
    return family is None or key["mode"] == family


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def majority(count, total):
    """At least two thirds of the files (2 of 3 seeds; 1 of 1)."""
    return total > 0 and count >= math.ceil(2 * total / 3)


def aggregate(results, info):
    """The mean of a preset's seeds, and its verdict on every acceptance line."""
    files = list(results.values())
    row = {k: mean([f.get(k) for f in files]) for k in (
        "soft", "onsetsPerSecond", "steps", "repeats", "barRecurrence", "fourBarRecurrence", "longestGap",
        "pitchClassEntropy", "scaleConsistency", "loudness")}
    row["keyCorrelation"] = mean([f["key"]["correlation"] for f in files if f.get("key")])
    row["files"] = len(files)
    with_audio = [f for f in files if f.get("tempoFound") is not None]
    row["audioFiles"] = len(with_audio)
    row["tempoFound"] = statistics.median([f["tempoFound"] for f in with_audio]) if with_audio else None
    row["tempoMatches"] = sum(1 for f in with_audio if tempo_matches(f["tempoFound"], info["tempo"]))
    row["tonicMatches"] = sum(1 for f in files if tonic_matches(f.get("key"), info))
    keys = [f"{f['key']['tonic'].replace('-', 'b')} {f['key']['mode']}" for f in files if f.get("key")]
    row["commonKey"] = max(sorted(set(keys)), key=keys.count) if keys else None
    row["verdict"] = verdict(row, info)
    return row


def verdict(row, info):
    """True (passes), False (fails), None (not measured) or "exempt" for every line."""
    def within(value, low, high):
        return None if value is None else bool(low <= value <= high)
    top = None if row["steps"] is None else bool(row["steps"] >= 0.30 and row["repeats"] <= 0.35)
    form = "exempt" if info.get("throughComposed") else (
        None if row["barRecurrence"] is None
        else bool(0.35 <= row["barRecurrence"] <= 0.85 and row["fourBarRecurrence"] >= 0.25))
    return {
        "soft": within(row["soft"], 0.0, 0.15),
        "onsets": within(row["onsetsPerSecond"], 1.5, 8.0),
        "top": top,
        "tempo": majority(row["tempoMatches"], row["audioFiles"]) if row["audioFiles"] else None,
        "form": form,
        "gap": within(row["longestGap"], 0.0, 2.5),
        "tonic": majority(row["tonicMatches"], row["files"]) if info.get("tonic") else None,
    }


def failures(verdict_):
    """The lines failed (measured and not met)."""
    return [line for line in LINES if verdict_[line] is False]


def unmeasured(verdict_):
    """The lines that could not be measured (no audio, no notes)."""
    return [line for line in LINES if verdict_[line] is None]


# ---------------------------------------------------------------------------------------------
# The table


def mark(value):
    """✓ passes, ✗ fails, ? not measured; nothing for an exempt line."""
    return "" if value == "exempt" else {True: " ✓", False: " ✗", None: " ?"}[value]


def fmt(value, pattern="{:.2f}"):
    return "—" if value is None else pattern.format(value)


def preset_cells(name, row, info):
    v = row["verdict"]
    n = row["files"]
    if row["audioFiles"]:
        tempo = f"{row['tempoFound']:.1f} for {info['tempo']:g}, {row['tempoMatches']}/{row['audioFiles']}{mark(v['tempo'])}"
    else:
        tempo = f"— (no audio) for {info['tempo']:g}"
    form = f"{fmt(row['barRecurrence'])} / {fmt(row['fourBarRecurrence'])}"
    form += " (through-composed)" if v["form"] == "exempt" else mark(v["form"])
    failed, missing = failures(v), unmeasured(v)
    status = ("all pass" if not failed else f"fails {len(failed)}: {', '.join(failed)}") + (
        f"; not measured: {', '.join(missing)}" if missing else "")
    if info.get("exempt"):
        status = f"exempt ({info['exempt']}): {status}"
    return [
        name, f"{fmt(None if row['soft'] is None else 100 * row['soft'], '{:.0f} %')}{mark(v['soft'])}",
        f"{fmt(row['onsetsPerSecond'], '{:.1f}')}{mark(v['onsets'])}",
        f"{fmt(row['steps'])} / {fmt(row['repeats'])}{mark(v['top'])}",
        tempo, form, f"{fmt(row['longestGap'], '{:.1f} s')}{mark(v['gap'])}",
        f"{row['tonicMatches']}/{n}{mark(v['tonic'])} ({row['commonKey']} for {info['tonic']} {info['scale']})",
        fmt(row["keyCorrelation"]), fmt(row["pitchClassEntropy"]), fmt(row["scaleConsistency"]),
        fmt(row["loudness"], "{:.1f}"), status]


def spread(values, pattern="{:.2f}"):
    values = sorted(v for v in values if v is not None)
    if not values:
        return "—", None
    import numpy

    def q(p):
        return float(numpy.percentile(values, p))
    median = statistics.median(values)
    return f"{pattern.format(median)} ({pattern.format(q(10))}–{pattern.format(q(90))})", median


def corpus_row(label, results, tempo):
    files = list(results.values())
    cells = [f"**{label}** ({len(files)}; median, 10th–90th %)", "—"]
    onsets, onsets_median = spread([f["onsetsPerSecond"] for f in files], "{:.1f}")
    steps, _ = spread([f["steps"] for f in files])
    repeats, _ = spread([f["repeats"] for f in files])
    with_audio = [f for f in files if f.get("tempoFound") is not None]
    matches = sum(1 for f in with_audio if tempo_matches(f["tempoFound"], tempo))
    bar, _ = spread([f["barRecurrence"] for f in files])
    four, _ = spread([f["fourBarRecurrence"] for f in files])
    gap, _ = spread([f["longestGap"] for f in files], "{:.1f}")
    cells += [onsets, f"{steps} / {repeats}",
              f"{matches} of {len(with_audio)} renders at {tempo:g}" if with_audio else "—",
              f"{bar} / {four}", f"{gap} s", "—",
              spread([f["key"]["correlation"] for f in files if f.get("key")])[0],
              spread([f["pitchClassEntropy"] for f in files])[0], spread([f["scaleConsistency"] for f in files])[0],
              spread([f.get("loudness") for f in files], "{:.1f}")[0], "reference"]
    summary = {k: statistics.median([f[k] for f in files if f.get(k) is not None] or [float("nan")]) for k in (
        "onsetsPerSecond", "steps", "repeats", "barRecurrence", "fourBarRecurrence", "longestGap")}
    summary.update({"files": len(files), "renders": len(with_audio), "tempoMatches": matches})
    return cells, summary


HEADER = ["preset (mean of seeds)", "notes above the bass vel ≤ 40", "onsets/s", "top voice steps / repeats",
          "tempo found (librosa)", "bar / 4-bar recurrence", "longest time between onsets", "tonic found (key)",
          "key r", "pc entropy", "scale consistency", "LUFS", "acceptance"]


def table(rows):
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("renders", nargs="?", help="directory of NAME-SEED.mid and NAME-SEED.wav")
    parser.add_argument("--presets", default="Presets", help="directory of the preset files")
    parser.add_argument("--clumsy", default=".build/release/clumsy", help="for `presets show` of other presets")
    parser.add_argument("--work", default=".build/musicality", help="where the control is made")
    parser.add_argument("--corpora", default=None, help="exported corpora (default WORK/corpora)")
    parser.add_argument("--markdown", default=None, help="write the table here (default WORK/musicality.md)")
    parser.add_argument("--json", default=None, help="write every number here (default WORK/musicality.json)")
    parser.add_argument("--only", nargs="*", default=None, help="measure only these presets of RENDERS")
    parser.add_argument("--seeds", nargs="*", type=int, default=None, help="measure only these seeds of RENDERS")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--command", default=None, help="the command line to print above the table")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a preset that is not exempt fails a line")
    args = parser.parse_args(argv[1:])
    corpora = args.corpora or os.path.join(args.work, "corpora")
    markdown_path = args.markdown or os.path.join(args.work, "musicality.md")
    json_path = args.json or os.path.join(args.work, "musicality.json")

    items, renders = [], {}
    if args.renders:
        for file in sorted(os.listdir(args.renders)):
            stem, ext = os.path.splitext(file)
            if ext != ".mid" or "-" not in stem or not stem.rsplit("-", 1)[1].isdigit():
                continue
            name, seed = stem.rsplit("-", 1)
            if (args.only is not None and name not in args.only) or (args.seeds is not None and int(seed) not in args.seeds):
                continue
            midi = os.path.join(args.renders, file)
            wav = os.path.join(args.renders, stem + ".wav")
            renders.setdefault(name, {})[int(seed)] = midi
            items.append((midi, wav if os.path.exists(wav) else None))
    corpus_files = {}
    manifest_path = os.path.join(corpora, "manifest.json")
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as handle:
            manifest = json.load(handle)
        for corpus in ("fiddle", "bach"):
            for entry in manifest.get(corpus, []):
                midi = os.path.join(corpora, corpus, entry["file"])
                wav = os.path.join(corpora, corpus, entry["audio"]) if entry.get("audio") else None
                corpus_files.setdefault(corpus, []).append(midi)
                items.append((midi, wav))
    else:
        print(f"no corpora in {corpora}: run Tools/export_corpora.py --out {corpora}", file=sys.stderr)
    control_midi, control_wav = make_control(os.path.join(args.work, "control"))
    items.append((control_midi, control_wav))

    results = measure_all(items, args.jobs, os.path.dirname)

    rows, dump = [], {"thresholds": LINE_TEXT, "presets": {}, "corpora": {}, "files": {}}
    for name in sorted(renders):
        info = preset_info(name, args.presets, args.clumsy)
        seeds = {seed: results[midi] for seed, midi in sorted(renders[name].items())}
        row = aggregate(seeds, info)
        rows.append(preset_cells(name, row, info))
        dump["presets"][name] = {"info": info, "mean": row, "seeds": seeds}
    corpus_tempo = float(manifest.get("settings", {}).get("tempo", 120))
    for corpus, label in (("fiddle", "fiddle tunes"), ("bach", "Bach chorales")):
        if corpus in corpus_files:
            cells, summary = corpus_row(label, {m: results[m] for m in corpus_files[corpus]}, corpus_tempo)
            rows.append(cells)
            dump["corpora"][corpus] = {"median": summary, "files": {os.path.basename(m): results[m] for m in corpus_files[corpus]}}
    control_info = {"tempo": 120.0, "tonic": "C", "scale": "major", "exempt": None, "throughComposed": False}
    control = aggregate({1: results[control_midi]}, control_info)
    control_cells = preset_cells("random C-major notes (control)", control, control_info)
    control_failed = failures(control["verdict"])
    control_cells[-1] = f"fails {len(control_failed)}: {', '.join(control_failed)}" + (" ✓" if len(control_failed) >= 3 else " ✗")
    rows.append(control_cells)
    dump["control"] = {"mean": control, "fails": control_failed}

    measured = [n for n in dump["presets"] if not dump["presets"][n]["info"]["exempt"]]
    passing = [n for n in measured if all(dump["presets"][n]["mean"]["verdict"][k] in (True, "exempt") for k in LINES)]
    text = []
    if args.command:
        text += [f"`{args.command}`", ""]
    text += [table(rows), "",
             "Acceptance lines (issue 29), on the mean of the seeds: " + "; ".join(
                 f"**{k}** {LINE_TEXT[k]}" for k in LINES) + ". ✓ passes, ✗ fails, ? not measured.", "",
             f"Presets passing every line: {len(passing)} of {len(measured)}"
             + (f" ({', '.join(passing)})" if passing else "")
             + (f"; exempt: {', '.join(n for n in dump['presets'] if dump['presets'][n]['info']['exempt'])}"
                if len(measured) < len(dump["presets"]) else "") + ".",
             f"The random-notes control fails {len(control_failed)} lines ({', '.join(control_failed)})"
             + (": the measures discriminate." if len(control_failed) >= 3 else ": fewer than three, the measures do NOT discriminate.")]
    output = "\n".join(text) + "\n"
    print(output)
    for path, content in ((markdown_path, output), (json_path, json.dumps(dump, indent=1, default=str))):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(content)
    print(f"written: {markdown_path}, {json_path}", file=sys.stderr)
    return 1 if args.strict and len(passing) < len(measured) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
