#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Is it a loop, and does the harmony go somewhere? Issue 43's form and harmony lines, measured
from a MIDI file (read with mido) and an event log (.jsonl, its "chord" lines), by rules written
here and nowhere in Clumsy.

  python3 Tools/listen_form.py FILE.mid [FILE.jsonl] [--phrase BARS] [--json]
  python3 Tools/listen_form.py --control DIR     # writes and measures the controls
  python3 Tools/listen_form.py --table --clumsy .build/release/clumsy --work DIR [--seeds 1 2 3]
                                                 # renders every bundled preset (600 s; the 180 s and 300 s lines from its first seconds)
                                                 # and prints a Markdown table of the means

Not a loop (read from the MIDI file):
  bars      the file's first time signature and its tempo map; every note-on (any track, drums
            included) is put on the nearest sixteenth and so in a bar; a bar's content is the
            set of its (track, pitch, sixteenth within the bar)
  new       a bar is new when no earlier bar of the file has the same content
  minutes   for each full minute (by the bar's start time; a minute is full when the file's
            last note-on is at or after its end) the share of its bars that are new; the line
            holds when every full minute from the third on has >= 10 % and all bars starting at
            or after 60 s have >= 25 %

Harmony (read from the event log's chord lines; a line that names the chord already playing,
as a return or key change announces it, is no change):
  tonic     time on the tonic chord (root = the key's tonic at that moment, degree 1), as a
            share of the time from the first chord to the last note; line <= 60 %
  chords    distinct chords (by name) sounding in every window of 64 consecutive bars (the
            whole file when it is shorter); line: the fewest >= 4
  changes   chord changes per bar; line >= 0.25
  cadence   every phrase (--phrase bars, from bar 0) whose last bar begins on the tonic: its
            arrival is the chord change into that tonic; it is phrase-final when it comes at most
            one bar before the last bar line (a tonic already sounding longer is "already home",
            not a cadence); it is from a dominant when the chord before it is V or V7 (root a
            fifth above the tonic, major third), vii° (root a semitone below, diminished fifth)
            or the mode's own: mixolydian bVII, dorian/minor v or bVII, phrygian bII, lydian II or V;
            line: at least half of all phrase-final tonic bars (already-home ones included)
  fifths    the share of chord changes whose root falls a fifth (rises a fourth: 5 semitones, or
            a diatonic fourth up between degrees of one key, IV to vii°)
  opening   whether the chord changes in the first 8 bars, and the distinct chords of the first 32
"""
import argparse
import json
import math
import os
import random
import sys

LETTERS = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


def pitch_class(name):
    value = LETTERS[name[0].upper()]
    for sign in name[1:]:
        value += {"#": 1, "♯": 1, "b": -1, "♭": -1}.get(sign, 0)
    return value % 12


def mode_key(mode):
    return "".join(c for c in mode.lower() if c.isalnum())


# ---------------------------------------------------------------------------------------------
# Bars from the MIDI file


class Timeline:
    """Ticks to seconds through the tempo map; bars from the first time signature."""

    def __init__(self, midi):
        import mido
        song = mido.MidiFile(midi)
        self.tpq = song.ticks_per_beat
        tempos, meter, notes = [(0, 500000)], None, []
        for number, track in enumerate(song.tracks):
            tick = 0
            for message in track:
                tick += message.time
                if message.type == "set_tempo":
                    tempos.append((tick, message.tempo))
                elif message.type == "time_signature" and meter is None:
                    meter = (message.numerator, message.denominator)
                elif message.type == "note_on" and message.velocity > 0:
                    notes.append((tick, number, message.channel, message.note))
        tempos.sort(key=lambda entry: entry[0])   # stable: the default first, then the file's own
        self.tempos = []
        for tick, tempo in tempos:   # later entries at one tick win
            if self.tempos and self.tempos[-1][0] == tick:
                self.tempos[-1] = (tick, tempo)
            else:
                self.tempos.append((tick, tempo))
        self.meter = meter or (4, 4)
        self.bar_ticks = self.tpq * 4 * self.meter[0] // self.meter[1]
        self.sixteenth = self.tpq / 4
        self.notes = sorted(notes)

    def seconds(self, tick):
        total, last_tick, last_tempo = 0.0, 0, 500000
        for at, tempo in self.tempos:
            if at >= tick:
                break
            total += (at - last_tick) * last_tempo / 1e6 / self.tpq
            last_tick, last_tempo = at, tempo
        return total + (tick - last_tick) * last_tempo / 1e6 / self.tpq

    def tick(self, seconds):
        total, last_tick, last_tempo = 0.0, 0, 500000
        for at, tempo in self.tempos:
            span = (at - last_tick) * last_tempo / 1e6 / self.tpq
            if total + span > seconds:
                break
            total += span
            last_tick, last_tempo = at, tempo
        return last_tick + (seconds - total) * 1e6 * self.tpq / last_tempo

    def bar_of(self, seconds):
        return self.tick(seconds) / self.bar_ticks


def loop_measure(line):
    per_bar = line.bar_ticks // int(line.sixteenth)
    bars = {}
    for tick, track, channel, pitch in line.notes:
        index = int(round(tick / line.sixteenth))
        bars.setdefault(index // per_bar, set()).add((track, pitch, index % per_bar))
    if not bars:
        return {"bars": 0}
    count = max(bars) + 1
    seen, new = set(), []
    for bar in range(count):
        content = frozenset(bars.get(bar, ()))
        new.append(content not in seen)
        seen.add(content)
    last = line.seconds(line.notes[-1][0])
    minutes = []
    for minute in range(int(last // 60)):
        inside = [new[b] for b in range(count) if minute * 60 <= line.seconds(b * line.bar_ticks) < (minute + 1) * 60]
        minutes.append(sum(inside) / len(inside) if inside else None)
    after = [new[b] for b in range(count) if line.seconds(b * line.bar_ticks) >= 60]
    late = [m for m in minutes[2:] if m is not None]
    result = {"bars": count, "newBars": sum(new), "minutes": minutes,
              "afterFirstMinute": sum(after) / len(after) if after else None,
              "worstLateMinute": min(late) if late else None}
    result["notALoop"] = (result["afterFirstMinute"] is not None and result["afterFirstMinute"] >= 0.25
                          and (not late or min(late) >= 0.10))
    return result


# ---------------------------------------------------------------------------------------------
# Chords from the event log


def chords_of(events):
    """The chord spans (start s, name, root pc, tonic pc, mode, degree, intervals) in order, a
    line naming the chord already playing (same name in the same key) merged into it."""
    spans = []
    with open(events) as log:
        for text in log:
            event = json.loads(text)
            if event.get("kind") != "chord":
                continue
            chord = (event["t"], event["name"], pitch_class(event["root"]), pitch_class(event["tonic"]),
                     mode_key(event["mode"]), event["degree"], tuple(event.get("intervals", ())))
            if spans and spans[-1][0] == chord[0]:
                spans[-1] = chord   # two lines at one time: the later is the one heard
                if len(spans) > 1 and same(spans[-2], chord):
                    spans.pop()
            elif not spans or not same(spans[-1], chord):
                spans.append(chord)
    return spans


def same(a, b):
    return a[1] == b[1] and a[3] == b[3] and a[4] == b[4]


def is_tonic(span):
    return span[2] == span[3]


def is_dominant(span, tonic):
    """V, V7, vii°, or the mode's own cadence chord, relative to the tonic it resolves to."""
    interval = (span[2] - tonic[3]) % 12
    tones = set(span[6])
    major_third, diminished = 4 in tones, 3 in tones and 6 in tones
    if interval == 7 and major_third or interval == 11 and diminished:
        return True
    mode = tonic[4]
    own = {"mixolydian": {10}, "dorian": {7, 10}, "minor": {7, 10}, "aeolian": {7, 10},
           "minorpentatonic": {7, 10}, "phrygian": {1}, "lydian": {2, 7}, "majorpentatonic": {7}}.get(mode, set())
    return interval in own


def falls_by_fifth(a, b):
    if (b[2] - a[2]) % 12 == 5:
        return True
    return a[3] == b[3] and a[4] == b[4] and (b[5] - a[5]) % 7 == 3


def harmony_measure(line, events, phrase, upto=None):
    spans = [s for s in chords_of(events) if upto is None or s[0] < upto]
    if not spans:
        return {}
    end = line.seconds(line.notes[-1][0]) if line.notes else spans[-1][0]
    bars_total = line.bar_of(end)
    starts = [s[0] for s in spans] + [end]
    tonic_time = sum(max(0.0, min(starts[i + 1], end) - s[0]) for i, s in enumerate(spans) if is_tonic(s))
    changes = len(spans) - 1
    falls = sum(falls_by_fifth(a, b) for a, b in zip(spans, spans[1:]))
    # Distinct chords in every 64-bar window (by bars sounding).
    bar_count = int(math.floor(bars_total))
    sounding = []   # per bar, the chord names heard in it
    index = 0
    for bar in range(bar_count):
        t0, t1 = line.seconds(bar * line.bar_ticks), line.seconds((bar + 1) * line.bar_ticks)
        while index + 1 < len(spans) and spans[index + 1][0] <= t0 + 1e-6:
            index += 1
        names, j = {spans[index][1]}, index + 1
        while j < len(spans) and spans[j][0] < t1 - 1e-6:
            names.add(spans[j][1])
            j += 1
        sounding.append(names)
    window = min(64, bar_count)
    fewest = min((len(set().union(*sounding[b:b + window])) for b in range(0, bar_count - window + 1)), default=0)
    first8 = any(s[0] > 1e-6 and line.bar_of(s[0]) < 8 - 1e-6 for s in spans[1:])
    first32 = len({s[1] for s in spans if line.bar_of(s[0]) < 32 - 1e-6})
    result = {"tonic": tonic_time / max(end - spans[0][0], 1e-9), "changesPerBar": changes / max(bars_total, 1e-9),
              "fewestChordsIn64": fewest, "changes": changes, "fallingFifths": falls / changes if changes else 0.0,
              "changeInFirst8": first8, "chordsInFirst32": first32}
    if phrase:
        result.update(cadences(line, spans, phrase, bar_count))
    return result


def cadences(line, spans, phrase, bar_count):
    final, dominant, home = 0, 0, 0
    befores = {}
    for last in range(phrase - 1, bar_count, phrase):
        t = line.seconds(last * line.bar_ticks) + 1e-3   # the tempo is whole microseconds a beat
        i = max(k for k in range(len(spans)) if spans[k][0] <= t)
        if not is_tonic(spans[i]):
            continue
        final += 1
        arrival = line.bar_of(spans[i][0])
        if i == 0 or arrival < last - 1 - 1e-3:
            home += 1
            continue
        before = spans[i - 1]
        name = before[1]
        befores[name] = befores.get(name, 0) + 1
        dominant += is_dominant(before, spans[i])
    return {"phraseFinalTonic": final, "fromDominant": dominant, "alreadyHome": home,
            "cadenceShare": dominant / final if final else None, "before": befores}


# ---------------------------------------------------------------------------------------------
# Controls


def write_controls(directory, seed=43, seconds=600, tempo=120):
    """random.mid: random diatonic notes on an eighth grid (C major, 4/4), a note or two an
    eighth; random.jsonl: a random diatonic chord each bar. loop.mid/.jsonl: their first 8 bars
    repeated (I IV V I ...)."""
    import mido
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    scale = [0, 2, 4, 5, 7, 9, 11]
    eighths = int(seconds * tempo / 60 * 2)
    tpq = 480

    def write(name, pitch_at, chord_at):
        song = mido.MidiFile(ticks_per_beat=tpq)
        track = mido.MidiTrack()
        song.tracks.append(track)
        track.append(mido.MetaMessage("set_tempo", tempo=int(60e6 / tempo)))
        track.append(mido.MetaMessage("time_signature", numerator=4, denominator=4))
        for e in range(eighths):
            track.append(mido.Message("note_on", note=pitch_at(e), velocity=80, time=0))
            track.append(mido.Message("note_off", note=pitch_at(e), velocity=0, time=tpq // 2))
        song.save(os.path.join(directory, name + ".mid"))
        names = ["C", "Dm", "Em", "F", "G", "Am", "Bdim"]
        roots = ["C", "D", "E", "F", "G", "A", "B"]
        qualities = [[0, 4, 7], [0, 3, 7], [0, 3, 7], [0, 4, 7], [0, 4, 7], [0, 3, 7], [0, 3, 6]]
        with open(os.path.join(directory, name + ".jsonl"), "w") as log:
            for bar in range(eighths // 8):
                d = chord_at(bar)
                log.write(json.dumps({"t": bar * 4 * 60 / tempo, "kind": "chord", "degree": d + 1, "name": names[d],
                                      "root": roots[d], "intervals": qualities[d], "tonic": "C", "mode": "major"}) + "\n")

    pitches = [60 + scale[rng.randrange(7)] + 12 * rng.randrange(2) for _ in range(eighths)]
    chords = [rng.randrange(7) for _ in range(eighths // 8)]
    write("random", lambda e: pitches[e], lambda b: chords[b])
    write("loop", lambda e: pitches[e % 64], lambda b: [0, 3, 4, 0][(b // 2) % 4])


def measure(midi, events, phrase, upto=None):
    line = Timeline(midi)
    if upto is not None:   # the first UPTO seconds only (note-ons and chord lines before it)
        line.notes = [n for n in line.notes if line.seconds(n[0]) < upto]
    result = {"file": midi, "loop": loop_measure(line)}
    if events:
        result["harmony"] = harmony_measure(line, events, phrase, upto)
    return result


def preset_form(name, presets):
    with open(os.path.join(presets, name + ".json")) as f:
        preset = json.load(f)
    form = preset.get("form") or {}
    return form.get("bars", 8) if form else 0, bool(form.get("cadence")), preset.get("description", "")


def render(clumsy, name, seed, seconds, work):
    import subprocess
    base = os.path.join(work, "%s-%d-%d" % (name, seed, seconds))
    if not os.path.exists(base + ".jsonl"):
        subprocess.run([clumsy, "run", name, "--seed", str(seed), "--duration", str(seconds), "--midi", base + ".mid",
                        "--events", base + ".jsonl", "--quiet"], check=True)
    return base + ".mid", base + ".jsonl"


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def table(args):
    presets = args.presets_dir
    # swarm (a thousand balls, textural, no form) is left out: a stress test, and slow at 600 s.
    names = sorted(f[:-5] for f in os.listdir(presets) if f.endswith(".json") and f != "swarm.json")
    os.makedirs(args.work, exist_ok=True)
    print("| preset | new bars after 1 min (600 s) | worst minute from the 3rd | not a loop | tonic | "
          "fewest chords / 64 bars | changes / bar | cadences from a dominant | falling fifths (300 s) | "
          "default: change in 8 bars, chords in 32 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = {}
    for name in names:
        phrase, cadence, _ = preset_form(name, presets)
        # One 600 s render a seed; the 180 s and 300 s lines read its first 180 and 300 s.
        files = [render(args.clumsy, name, s, 600, args.work) for s in args.seeds]
        long = [measure(*f, phrase)["loop"] for f in files]
        short = [measure(*f, phrase if cadence else 0, upto=180)["harmony"] for f in files]
        fifths = [measure(*f, 0, upto=300)["harmony"]["fallingFifths"] for f in files]
        row = {"new": mean([r["afterFirstMinute"] for r in long]), "worst": min(r["worstLateMinute"] for r in long),
               "loop": sum(r["notALoop"] for r in long), "tonic": mean([h["tonic"] for h in short]),
               "chords": min(h["fewestChordsIn64"] for h in short), "changes": mean([h["changesPerBar"] for h in short]),
               "cadence": mean([h.get("cadenceShare") for h in short]) if cadence else None,
               "fifths": mean(fifths),
               "opening": "%s, %d" % (all(h["changeInFirst8"] for h in short), min(h["chordsInFirst32"] for h in short))}
        rows[name] = row
        f = lambda v: "—" if v is None else "%.0f %%" % (100 * v)
        print("| `%s` | %s | %s | %d of %d | %s | %d | %.2f | %s | %s | %s |" % (
            name, f(row["new"]), f(row["worst"]), row["loop"], len(args.seeds), f(row["tonic"]), row["chords"],
            row["changes"], f(row["cadence"]), f(row["fifths"]), row["opening"] if name == "default" else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("midi", nargs="?")
    parser.add_argument("events", nargs="?")
    parser.add_argument("--phrase", type=int, default=0, help="bars in a phrase, for the cadence line")
    parser.add_argument("--upto", type=float, default=None, help="measure only the first UPTO seconds")
    parser.add_argument("--control", help="write the controls into this folder and measure them")
    parser.add_argument("--table", action="store_true", help="render every bundled preset and print a table")
    parser.add_argument("--clumsy", default=".build/release/clumsy")
    parser.add_argument("--presets-dir", default="Presets")
    parser.add_argument("--work", default=".build/listen-form")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--json", help="with --table, write the rows here")
    args = parser.parse_args(argv)
    if args.table:
        table(args)
        return 0
    if args.control:
        write_controls(args.control)
        for name in ("random", "loop"):
            base = os.path.join(args.control, name)
            print(json.dumps(measure(base + ".mid", base + ".jsonl", 8)))
        return 0
    if not args.midi:
        parser.error("a MIDI file, or --control DIR")
    print(json.dumps(measure(args.midi, args.events, args.phrase, args.upto)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
