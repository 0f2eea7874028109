#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The top voice's line, rhythm and dynamics as a listener hears them (issue 43).

  python3 Tools/listen_line.py RENDERS [--only NAME...] [--seeds 1 2 3] [--presets Presets]
                               [--corpora .build/musicality/corpora] [--work .build/listen-line]
                               [--markdown FILE] [--json FILE]

RENDERS holds NAME-SEED.mid (and NAME-SEED.wav, the mastered mix) from
`clumsy run NAME --seed SEED --duration 180 --midi … --audio …`. Read with pretty_midi, mido's
tempo and time signature, scipy and ffmpeg's ebur128 filter; nothing of Clumsy's own.

The top voice: the track named "Melody" where there is one (at one onset, its highest note),
else the skyline of the pitched tracks but the one named "Bass" (at each onset group of 30 ms
the highest new note, kept unless a note from before still sounds higher).

Per file:
  intervals   histogram of the top voice's intervals, -12…+12 semitones (wider ones clipped
              to ±12); repeats = the fraction of 0, steps of 1 or 2 semitones, leaps = |interval| >= 5 (a fourth or more)
  jsHuman, jsWalk  Jensen-Shannon divergence in bits (the square of scipy's
              jensenshannon(p, q, base=2)) of that histogram to the pooled fiddle + Bach one,
              and to the random ±1/±2 scale walk's
  direction   mean sign of the intervals ending in a phrase's even bars minus in its odd
              bars (bar index within the phrase: the preset's form.bars, else melody.phrase,
              else 4; 8 for the corpora and controls); the line takes its absolute value
  ioiEntropy  Shannon entropy (bits) of the trigrams of successive inter-onset times,
              rounded to sixteenths at the file's tempo
  syncopation Longuet-Higgins-Lee on a sixteenth grid, per onset: a note on a weaker
              position that sounds on (until it ends or the next top-voice onset) over a
              stronger one adds the difference of their metrical weights (bar 0, half bar
              or the 6/8 and 3+2 halves -1, beat -2, eighth -3, sixteenth -4; 3/4 and 7/8
              beats -1, eighths -2, sixteenths -3)
  velocity    top-voice velocity, 90th minus 10th percentile
  lra         loudness range (EBU R128 LRA, LU) of the WAV, from ffmpeg's ebur128 filter

Acceptance (issue 43), on the mean of the seeds, for every preset but `original` and those
whose description says "textural": jsHuman < jsWalk; repeats 0.03…0.25; |direction| <= 0.40;
ioiEntropy <= 3.0; syncopation <= 0.25 (unless the description says "syncopated"); velocity
spread >= 25; LRA >= 4. Variety: no two presets whose pooled interval histograms AND pooled
inter-onset histograms (sixteenths, 1…64) are both within JS 0.05. The two controls (random
diatonic notes on an eighth grid; a random ±1/±2 scale walk on the same grid) are made here
and must fail: the walk the interval lines, the random notes the rhythm lines.
"""
import argparse
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys
from collections import Counter

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
sys.dont_write_bytecode = True

GROUP = 0.030
SPAN = 12
IOI_BINS = 64
LINES = ["tune", "repeats", "direction", "rhythm", "syncopation", "velocity", "lra"]
LINE_TEXT = {
    "tune": "interval histogram nearer fiddle+Bach than the scale walk (JS bits)",
    "repeats": "repeated notes 0.03-0.25",
    "direction": "|even-bar minus odd-bar direction| <= 0.40",
    "rhythm": "inter-onset trigram entropy <= 3.0 bits",
    "syncopation": "syncopation <= 0.25 per onset (unless syncopated)",
    "velocity": "top-voice velocity p90 - p10 >= 25",
    "lra": "mix loudness range >= 4 LU",
}


# ---------------------------------------------------------------------------------------------
# Reading


def meter_and_tempo(path):
    """(numerator, denominator, quarter seconds) from the file's first time signature and tempo."""
    import mido
    song = mido.MidiFile(path)
    numerator, denominator, tempo = 4, 4, None
    found = False
    for track in song.tracks:
        for message in track:
            if message.type == "time_signature" and not found:
                numerator, denominator, found = message.numerator, message.denominator, True
            if message.type == "set_tempo" and tempo is None:
                tempo = message.tempo
    return numerator, denominator, (tempo or 500000) / 1e6


def top_voice(path):
    """The top voice's notes (start, end, pitch, velocity) in time order."""
    import pretty_midi
    song = pretty_midi.PrettyMIDI(path)
    pitched = [i for i in song.instruments if not i.is_drum]
    melody = [i for i in pitched if i.name.strip().lower() == "melody"]
    if melody:
        notes = sorted((n.start, n.end, n.pitch, n.velocity) for n in melody[0].notes)
        line = []
        for note in notes:
            if line and abs(note[0] - line[-1][0]) <= 1e-6:
                if note[2] > line[-1][2]:
                    line[-1] = note
            else:
                line.append(note)
        return line
    upper = sorted((n.start, n.end, n.pitch, n.velocity) for i in pitched if i.name.strip().lower() != "bass"
                   for n in i.notes)
    line, sounding, group = [], [], []

    def close(group):
        nonlocal sounding
        time = group[0][0]
        sounding = [n for n in sounding if n[1] > time + 1e-6]
        top = max(group, key=lambda n: n[2])
        if not any(n[2] > top[2] for n in sounding):
            line.append(top)
        sounding += group
    for note in upper:
        if group and note[0] - group[0][0] > GROUP:
            close(group)
            group = []
        group.append(note)
    if group:
        close(group)
    return line


# ---------------------------------------------------------------------------------------------
# Measures


def interval_histogram(line):
    counts = [0] * (2 * SPAN + 1)
    for a, b in zip(line, line[1:]):
        counts[max(-SPAN, min(SPAN, b[2] - a[2])) + SPAN] += 1
    return counts


def normalised(counts):
    total = sum(counts)
    return [c / total for c in counts] if total else [1.0 / len(counts)] * len(counts)


def js(p, q):
    from scipy.spatial.distance import jensenshannon
    return float(jensenshannon(normalised(p), normalised(q), base=2) ** 2)


def weights(numerator, denominator):
    """Metrical weight of each sixteenth of a bar (0 strongest)."""
    per_beat = 16 // denominator
    length = numerator * per_beat
    if (numerator, denominator) == (4, 4):
        beat_level, groups = -2, [0, 8]
    elif (numerator, denominator) == (6, 8):
        beat_level, groups = -2, [0, 6]
    elif (numerator, denominator) == (5, 4):
        beat_level, groups = -2, [0, 12]
    elif (numerator, denominator) == (7, 8):
        beat_level, groups = -1, [0]
    else:  # 3/4, 2/4 and the like
        beat_level, groups = -1, [0]
    result = []
    for s in range(length):
        if s == 0:
            w = 0
        elif s in groups:
            w = -1
        elif s % per_beat == 0:
            w = beat_level
        elif s % 2 == 0:
            w = beat_level - 1
        else:
            w = beat_level - 2
        result.append(w)
    return result


def syncopation(line, numerator, denominator, sixteenth):
    """Longuet-Higgins-Lee syncopation per onset on a sixteenth grid."""
    if len(line) < 2:
        return None
    table = weights(numerator, denominator)
    bar = len(table)
    total = 0
    for i, note in enumerate(line):
        start = round(note[0] / sixteenth)
        stop = round(note[1] / sixteenth)
        if i + 1 < len(line):
            stop = min(stop, round(line[i + 1][0] / sixteenth))
        own = table[start % bar]
        stronger = max((table[s % bar] for s in range(start + 1, stop)), default=-99)
        if stronger > own:
            total += stronger - own
    return total / len(line)


def iois(line, sixteenth):
    onsets = [round(n[0] / sixteenth) for n in line]
    return [b - a for a, b in zip(onsets, onsets[1:]) if b > a]


def trigram_entropy(values):
    grams = Counter(zip(values, values[1:], values[2:]))
    total = sum(grams.values())
    return -sum(c / total * math.log2(c / total) for c in grams.values()) if total else None


def direction(line, bar_seconds, phrase):
    sums = {0: [], 1: []}
    for a, b in zip(line, line[1:]):
        bar = int(b[0] / bar_seconds + 1e-6)
        step = b[2] - a[2]
        sums[(bar % phrase) % 2].append((step > 0) - (step < 0))
    if not sums[0] or not sums[1]:
        return None
    return sum(sums[0]) / len(sums[0]) - sum(sums[1]) / len(sums[1])


def percentile(values, p):
    import numpy
    return float(numpy.percentile(values, p)) if values else None


def loudness_range(wav):
    """EBU R128 loudness range of a WAV, LU, from ffmpeg's ebur128 filter."""
    if not wav or not os.path.exists(wav):
        return None
    run = subprocess.run(["ffmpeg", "-nostats", "-hide_banner", "-i", wav, "-filter_complex", "ebur128", "-f", "null", "-"],
                         capture_output=True, text=True)
    found = re.findall(r"LRA:\s+([-\d.]+) LU", run.stderr)
    return float(found[-1]) if found else None


def measure_file(midi, phrase, wav=None):
    numerator, denominator, quarter = meter_and_tempo(midi)
    sixteenth = quarter / 4
    bar_seconds = quarter * 4 * numerator / denominator
    line = top_voice(midi)
    hist = interval_histogram(line)
    steps = sum(hist)
    gaps = iois(line, sixteenth)
    return {
        "notes": len(line),
        "intervals": hist,
        "ioiHistogram": [sum(1 for g in gaps if min(g, IOI_BINS) == b) for b in range(1, IOI_BINS + 1)],
        "repeats": hist[SPAN] / steps if steps else None,
        "steps": sum(c for i, c in enumerate(hist) if 1 <= abs(i - SPAN) <= 2) / steps if steps else None,
        "leaps": sum(c for i, c in enumerate(hist) if abs(i - SPAN) >= 5) / steps if steps else None,
        "direction": direction(line, bar_seconds, phrase),
        "ioiEntropy": trigram_entropy(gaps),
        "syncopation": syncopation(line, numerator, denominator, sixteenth),
        "velocitySpread": (percentile([n[3] for n in line], 90) - percentile([n[3] for n in line], 10)) if line else None,
        "velocityMedian": percentile([n[3] for n in line], 50),
        "lra": loudness_range(wav),
    }


# ---------------------------------------------------------------------------------------------
# Controls


def make_controls(directory, seed=43):
    """Two 180 s controls at 120 bpm in 4/4 on an eighth grid, velocity 80, a note on a line
    with probability 0.6: random C-major notes C4…C6, and a random ±1/±2 scale walk."""
    import pretty_midi
    os.makedirs(directory, exist_ok=True)
    c_major = [p for p in range(60, 85) if p % 12 in (0, 2, 4, 5, 7, 9, 11)]
    made = {}
    for name in ("random-notes", "scale-walk"):
        path = os.path.join(directory, name + ".mid")
        made[name] = path
        rng = random.Random(seed)
        song = pretty_midi.PrettyMIDI(initial_tempo=120.0, resolution=480)
        song.time_signature_changes.append(pretty_midi.TimeSignature(4, 4, 0.0))
        track = pretty_midi.Instrument(program=73, name="Melody")
        index = len(c_major) // 2
        lines = [i * 0.25 for i in range(720) if rng.random() < 0.6]
        for start, stop in zip(lines, lines[1:] + [180.0]):
            if name == "random-notes":
                pitch = rng.choice(c_major)
            else:
                step = rng.choice((-2, -1, 1, 2))
                if not 0 <= index + step < len(c_major):
                    step = -step  # turned back at the register's edge
                index += step
                pitch = c_major[index]
            track.notes.append(pretty_midi.Note(80, pitch, start, stop))
        song.instruments.append(track)
        song.write(path)
    return made


# ---------------------------------------------------------------------------------------------
# Presets, verdicts, table


def preset_info(name, presets_dir):
    try:
        with open(os.path.join(presets_dir, name + ".json")) as handle:
            preset = json.load(handle)
    except OSError:
        preset = {}
    description = preset.get("description", "").lower()
    form = preset.get("form") or {}
    melody = preset.get("melody") or {}
    phrase = form.get("bars", 8) if form else melody.get("phrase", 4) if isinstance(melody, dict) else 4
    return {"phrase": phrase, "syncopated": "syncopated" in description,
            "exempt": "original" if name == "original" else "textural" if "textural" in description else None}


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def pooled(files, key):
    return [sum(column) for column in zip(*[f[key] for f in files])]


def aggregate(files, info, human, walk):
    row = {k: mean([f[k] for f in files]) for k in (
        "repeats", "steps", "leaps", "ioiEntropy", "syncopation", "velocitySpread", "velocityMedian", "lra")}
    row["direction"] = mean([f["direction"] for f in files])
    row["jsHuman"] = mean([js(f["intervals"], human) for f in files])
    row["jsWalk"] = mean([js(f["intervals"], walk) for f in files])
    row["notes"] = mean([f["notes"] for f in files])
    row["verdict"] = verdict(row, info)
    return row


def verdict(row, info):
    def check(value, test):
        return None if value is None else bool(test(value))
    return {
        "tune": None if row["jsHuman"] is None else bool(row["jsHuman"] < row["jsWalk"]),
        "repeats": check(row["repeats"], lambda v: 0.03 <= v <= 0.25),
        "direction": check(row["direction"], lambda v: abs(v) <= 0.40),
        "rhythm": check(row["ioiEntropy"], lambda v: v <= 3.0),
        "syncopation": "exempt" if info.get("syncopated") else check(row["syncopation"], lambda v: v <= 0.25),
        "velocity": check(row["velocitySpread"], lambda v: v >= 25),
        "lra": check(row["lra"], lambda v: v >= 4),
    }


def fmt(value, pattern="{:.2f}"):
    return "—" if value is None else pattern.format(value)


def mark(value):
    return {True: " ✓", False: " ✗", None: " ?", "exempt": " (exempt)"}[value]


HEADER = ["top voice (mean of seeds)", "JS human / walk", "repeats", "steps / leaps", "even−odd direction",
          "IOI trigram bits", "syncopation", "velocity p90−p10 (median)", "LRA LU", "fails"]


def cells(name, row, exempt):
    v = row["verdict"]
    failed = [k for k in LINES if v[k] is False]
    status = ("all pass" if not failed else "fails " + ", ".join(failed))
    if exempt:
        status = f"exempt ({exempt}): {status}"
    return [name, f"{fmt(row['jsHuman'], '{:.3f}')} / {fmt(row['jsWalk'], '{:.3f}')}{mark(v['tune'])}",
            f"{fmt(row['repeats'])}{mark(v['repeats'])}", f"{fmt(row['steps'])} / {fmt(row['leaps'])}",
            f"{fmt(row['direction'], '{:+.2f}')}{mark(v['direction'])}", f"{fmt(row['ioiEntropy'])}{mark(v['rhythm'])}",
            f"{fmt(row['syncopation'])}{mark(v['syncopation'])}",
            f"{fmt(row['velocitySpread'], '{:.0f}')} ({fmt(row['velocityMedian'], '{:.0f}')}){mark(v['velocity'])}",
            f"{fmt(row['lra'], '{:.1f}')}{mark(v['lra'])}", status]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("renders")
    parser.add_argument("--presets", default="Presets")
    parser.add_argument("--corpora", default=".build/musicality/corpora")
    parser.add_argument("--work", default=".build/listen-line")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--seeds", nargs="*", type=int)
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    parser.add_argument("--command")
    args = parser.parse_args(argv[1:])

    with open(os.path.join(args.corpora, "manifest.json")) as handle:
        manifest = json.load(handle)
    corpus = {c: [measure_file(os.path.join(args.corpora, c, e["file"]), 8) for e in manifest[c]] for c in ("fiddle", "bach")}
    human = pooled(corpus["fiddle"] + corpus["bach"], "intervals")
    controls = {k: measure_file(p, 8) for k, p in make_controls(os.path.join(args.work, "controls")).items()}
    walk = controls["scale-walk"]["intervals"]

    renders = {}
    for file in sorted(os.listdir(args.renders)):
        stem, ext = os.path.splitext(file)
        if ext != ".mid" or "-" not in stem or not stem.rsplit("-", 1)[1].isdigit():
            continue
        name, seed = stem.rsplit("-", 1)
        if (args.only and name not in args.only) or (args.seeds and int(seed) not in args.seeds):
            continue
        renders.setdefault(name, []).append((os.path.join(args.renders, file), os.path.join(args.renders, stem + ".wav")))

    rows, dump, pooled_hists = [], {"presets": {}, "controls": {}, "corpora": {}}, {}
    for name in sorted(renders):
        info = preset_info(name, args.presets)
        files = [measure_file(midi, info["phrase"], wav) for midi, wav in renders[name]]
        row = aggregate(files, info, human, walk)
        rows.append(cells(name, row, info["exempt"]))
        dump["presets"][name] = {"info": info, "mean": row, "files": files}
        if not info["exempt"]:
            pooled_hists[name] = (pooled(files, "intervals"), pooled(files, "ioiHistogram"))
    for label, files in (("fiddle tunes", corpus["fiddle"]), ("Bach chorales", corpus["bach"])):
        row = aggregate(files, {}, human, walk)
        rows.append(cells(f"**{label}** ({len(files)})", row, "reference"))
        dump["corpora"][label] = row
    control_fails = {}
    for label, key, should in (("random diatonic notes (control)", "random-notes", ["rhythm", "syncopation"]),
                               ("random ±1/±2 scale walk (control)", "scale-walk", ["tune", "repeats"])):
        row = aggregate([controls[key]], {}, human, walk)
        c = cells(label, row, None)
        failed = [k for k in should if row["verdict"][k] is False]
        control_fails[key] = failed == should
        c[-1] += " — must fail " + ", ".join(should) + (" ✓" if failed == should else " ✗")
        rows.append(c)
        dump["controls"][key] = row

    near = []
    for a, b in itertools.combinations(sorted(pooled_hists), 2):
        ji = js(pooled_hists[a][0], pooled_hists[b][0])
        jo = js(pooled_hists[a][1], pooled_hists[b][1])
        if ji <= 0.05 and jo <= 0.05:
            near.append(f"{a} / {b} (intervals {ji:.3f}, onsets {jo:.3f})")
    dump["nearDuplicates"] = near
    measured = [n for n in dump["presets"] if not dump["presets"][n]["info"]["exempt"]]
    tally = {k: sum(1 for n in measured if dump["presets"][n]["mean"]["verdict"][k] in (True, "exempt")) for k in LINES}

    text = [f"`{args.command}`", ""] if args.command else []
    text += ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    text += ["| " + " | ".join(r) + " |" for r in rows]
    text += ["", "Lines held by the measured presets (" + str(len(measured)) + "): "
             + "; ".join(f"{LINE_TEXT[k]}: {tally[k]}" for k in LINES) + ".",
             "Near-duplicate pairs (intervals and onsets both within JS 0.05): " + (", ".join(near) if near else "none") + ".",
             "Controls fail what they should: " + ("yes" if all(control_fails.values()) else "NO") + "."]
    output = "\n".join(text) + "\n"
    print(output)
    for path, content in ((args.markdown, output), (args.json, json.dumps(dump, indent=1))):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as handle:
                handle.write(content)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
