# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Cross-checks `clumsy analyze`'s key estimate against music21's key finders.

For each bundled preset: `clumsy run <preset> --duration <s> --midi <tmp>`, then
`clumsy analyze --json <tmp>` and music21's `analyze('key')` (its default, Aarden-Essen profiles)
and `analyze('key.krumhanslschmuckler')` on the same file. Prints a Markdown table.

Usage: python3 Benchmarks/key_crosscheck.py [path/to/clumsy] [seconds]
"""
import json
import os
import subprocess
import sys
import tempfile

import music21

clumsy = sys.argv[1] if len(sys.argv) > 1 else ".build/release/clumsy"
seconds = sys.argv[2] if len(sys.argv) > 2 else "60"
presets = [line.split()[0] for line in subprocess.run([clumsy, "presets"], capture_output=True, text=True, check=True).stdout.splitlines() if line.strip()]


def name(k):
    return f"{k.tonic.name.replace('-', 'b')} {k.mode}"


print("| preset | preset key | clumsy analyze (r, margin) | music21 Krumhansl–Schmuckler (r) | music21 default (Aarden–Essen) (r) |")
print("|---|---|---|---|---|")
with tempfile.TemporaryDirectory() as tmp:
    for preset in presets:
        midi = os.path.join(tmp, preset + ".mid")
        subprocess.run([clumsy, "run", preset, "--duration", seconds, "--midi", midi, "--quiet"], check=True)
        ours = json.loads(subprocess.run([clumsy, "analyze", "--json", midi], capture_output=True, text=True, check=True).stdout)
        text = next(m.text for m in __import__("mido").MidiFile(midi).tracks[0] if m.type == "text")
        preset_key = text.split("; key ")[-1]
        score = music21.converter.parse(midi)
        ks = score.analyze("key.krumhanslschmuckler")
        default = score.analyze("key")
        k = ours["key"]
        print(f"| {preset} | {preset_key} | {k['name']} ({k['correlation']:.3f}, {k['margin']:.3f}) | "
              f"{name(ks)} ({ks.correlationCoefficient:.3f}) | {name(default)} ({default.correlationCoefficient:.3f}) |", flush=True)
